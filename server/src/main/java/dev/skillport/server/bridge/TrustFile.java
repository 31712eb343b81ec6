package dev.skillport.server.bridge;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * The operator's list of trusted bridges, a YAML file ({@code ~/.skillport/trusted-bridges.yaml} by
 * default): one entry per skill, binding its name to the exact command, arguments and {@code
 * mcp.yaml} digest trusted.
 *
 * <pre>
 * bridges:
 * - skill: "everything"
 *   command: "npx"
 *   args: ["-y", "@modelcontextprotocol/server-everything"]
 *   digest: "sha256:…"
 * </pre>
 */
public final class TrustFile {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_BYTES = 1 << 20;

  private TrustFile() {}

  /** The default place: {@code ~/.skillport/trusted-bridges.yaml}. */
  public static Path defaultPath(Path home) {
    return home.resolve(".skillport").resolve("trusted-bridges.yaml");
  }

  /**
   * The entries of the file by skill name; empty when it does not exist.
   *
   * @throws IOException when it cannot be read or is not of the documented shape (the message says
   *     where)
   */
  public static Map<String, BridgeFingerprint> read(Path file) throws IOException {
    if (!Files.exists(file)) {
      return Map.of();
    }
    if (!Files.isRegularFile(file) || Files.size(file) > MAX_BYTES) {
      throw new IOException(file + " is not a trust file (a regular file of at most 1 MiB)");
    }
    String text = Files.readString(file, StandardCharsets.UTF_8);
    Object root;
    try {
      root =
          new Load(LoadSettings.builder().setMaxAliasesForCollections(10).build())
              .loadFromString(text);
    } catch (YamlEngineException e) {
      throw new IOException(file + " is not valid YAML: " + firstLine(e.getMessage()), e);
    }
    Map<String, BridgeFingerprint> out = new LinkedHashMap<>();
    if (root == null) {
      return out;
    }
    if (!(root instanceof Map<?, ?> map) || !(map.get("bridges") instanceof List<?> entries)) {
      throw new IOException(file + " must hold {bridges: [{skill, command, args, digest}]}");
    }
    int index = 0;
    for (Object e : entries) {
      index++;
      if (!(e instanceof Map<?, ?> entry)
          || !(entry.get("skill") instanceof String skill)
          || !(entry.get("command") instanceof String command)
          || !(entry.get("digest") instanceof String digest)
          || !(entry.get("args") == null || entry.get("args") instanceof List<?>)) {
        throw new IOException(
            file
                + ": entry "
                + index
                + " needs skill, command and digest strings, and args a list");
      }
      List<String> args = new ArrayList<>();
      if (entry.get("args") instanceof List<?> list) {
        list.forEach(a -> args.add(String.valueOf(a)));
      }
      out.put(skill, new BridgeFingerprint(command, args, digest));
    }
    return out;
  }

  /** Adds or replaces the entry of {@code skill}, writing the file whole (atomically). */
  public static void put(Path file, String skill, BridgeFingerprint fingerprint)
      throws IOException {
    Objects.requireNonNull(skill, "skill");
    Map<String, BridgeFingerprint> entries = new LinkedHashMap<>(read(file));
    entries.put(skill, fingerprint);
    StringBuilder text =
        new StringBuilder()
            .append("# Bridges this Skillport runs: each only with exactly this command, these\n")
            .append("# arguments and this mcp.yaml digest. Written by `skillport trust-bridge`.\n")
            .append("bridges:\n");
    for (Map.Entry<String, BridgeFingerprint> e : entries.entrySet()) {
      BridgeFingerprint f = e.getValue();
      text.append("- skill: ").append(quote(e.getKey())).append('\n');
      text.append("  command: ").append(quote(f.command())).append('\n');
      text.append("  args: [");
      for (int i = 0; i < f.args().size(); i++) {
        text.append(i == 0 ? "" : ", ").append(quote(f.args().get(i)));
      }
      text.append("]\n");
      text.append("  digest: ").append(quote(f.digest())).append('\n');
    }
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path temp = Files.createTempFile(dir, ".trusted-bridges", ".tmp");
    try {
      Files.writeString(temp, text, StandardCharsets.UTF_8);
      try {
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** A JSON string, which is also a YAML double-quoted scalar. */
  private static String quote(String s) throws IOException {
    return JSON.writeValueAsString(s);
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}

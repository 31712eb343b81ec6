package dev.skillport.bridge;

import com.fasterxml.jackson.core.JsonProcessingException;
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
 * default): one entry per skill folder, binding the skill's name to what it runs ({@link
 * BridgeFingerprint}).
 *
 * <pre>
 * version: 2
 * bridges:
 * - skill: "calculator"
 *   folder: "/home/me/skills/calculator"
 *   command: "python3"
 *   program: "/usr/bin/python3"
 *   program_digest: "sha256:…"
 *   args: ["server.py"]
 *   arg_files: {"server.py": "sha256:…"}
 *   env: ["API_TOKEN"]
 *   files: {"SKILL.md": "sha256:…", "mcp.yaml": "sha256:…", "server.py": "sha256:…"}
 * </pre>
 *
 * An entry without {@code folder} was written by an earlier version, which bound only the command,
 * arguments and {@code mcp.yaml} digest: it is read (and kept when the file is written) but trusts
 * nothing; the bridge is untrusted until {@code skillport trust-bridge} writes its entry again.
 */
public final class TrustFile {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_BYTES = 16 << 20;

  private TrustFile() {}

  /** One entry of the file. */
  public sealed interface Entry {
    /** The skill it names. */
    String skill();

    /** Whether writing {@code skill}'s entry for {@code fingerprint} replaces this one. */
    boolean replacedBy(String skill, BridgeFingerprint fingerprint);

    /** The entry's lines after its {@code skill:} line. */
    String yaml();

    /** An entry that binds what the bridge runs. */
    record Current(String skill, BridgeFingerprint fingerprint) implements Entry {
      public Current {
        Objects.requireNonNull(skill, "skill");
        Objects.requireNonNull(fingerprint, "fingerprint");
      }

      @Override
      public boolean replacedBy(String name, BridgeFingerprint other) {
        return skill.equals(name) && fingerprint.folder().equals(other.folder());
      }

      @Override
      public String yaml() {
        BridgeFingerprint f = fingerprint;
        return "  folder: "
            + quote(f.folder().toString())
            + "\n  command: "
            + quote(f.command())
            + "\n  program: "
            + quote(f.program().toString())
            + "\n  program_digest: "
            + quote(f.programDigest())
            + "\n  args: "
            + list(f.args())
            + "\n  arg_files: "
            + map(f.argFiles())
            + "\n  env: "
            + list(f.envNames())
            + "\n  files: "
            + map(f.files())
            + "\n";
      }
    }

    /** An entry of the earlier shape ({@code skill, command, args, digest}); it trusts nothing. */
    record Legacy(String skill, String command, List<String> args, String digest) implements Entry {
      public Legacy {
        Objects.requireNonNull(skill, "skill");
        Objects.requireNonNull(command, "command");
        args = List.copyOf(args);
        Objects.requireNonNull(digest, "digest");
      }

      @Override
      public boolean replacedBy(String name, BridgeFingerprint other) {
        return skill.equals(name);
      }

      @Override
      public String yaml() {
        return "  command: "
            + quote(command)
            + "\n  args: "
            + list(args)
            + "\n  digest: "
            + quote(digest)
            + "\n";
      }
    }
  }

  /** The default place: {@code ~/.skillport/trusted-bridges.yaml}. */
  public static Path defaultPath(Path home) {
    return home.resolve(".skillport").resolve("trusted-bridges.yaml");
  }

  /**
   * The entries of the file, in order; empty when it does not exist.
   *
   * @throws IOException when it cannot be read or is not of the documented shape (the message says
   *     where)
   */
  public static List<Entry> read(Path file) throws IOException {
    if (!Files.exists(file)) {
      return List.of();
    }
    if (!Files.isRegularFile(file) || Files.size(file) > MAX_BYTES) {
      throw new IOException(file + " is not a trust file (a regular file of at most 16 MiB)");
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
    List<Entry> out = new ArrayList<>();
    if (root == null) {
      return out;
    }
    if (!(root instanceof Map<?, ?> map) || !(map.get("bridges") instanceof List<?> entries)) {
      throw new IOException(file + " must hold {bridges: [{skill, folder, command, ...}]}");
    }
    int index = 0;
    for (Object e : entries) {
      index++;
      if (!(e instanceof Map<?, ?> entry)
          || !(entry.get("skill") instanceof String skill)
          || !(entry.get("command") instanceof String command)) {
        throw new IOException(file + ": entry " + index + " needs skill and command strings");
      }
      List<String> args = strings(entry.get("args"), file, index, "args");
      if (!entry.containsKey("folder")) {
        if (!(entry.get("digest") instanceof String digest)) {
          throw new IOException(file + ": entry " + index + " needs a folder");
        }
        out.add(new Entry.Legacy(skill, command, args, digest));
        continue;
      }
      try {
        out.add(
            new Entry.Current(
                skill,
                new BridgeFingerprint(
                    Path.of(text(entry, "folder", file, index)),
                    command,
                    Path.of(text(entry, "program", file, index)),
                    text(entry, "program_digest", file, index),
                    args,
                    digests(entry.get("arg_files"), file, index, "arg_files"),
                    strings(entry.get("env"), file, index, "env"),
                    digests(entry.get("files"), file, index, "files"))));
      } catch (IllegalArgumentException bad) {
        throw new IOException(file + ": entry " + index + ": " + bad.getMessage(), bad);
      }
    }
    return out;
  }

  private static String text(Map<?, ?> entry, String key, Path file, int index) throws IOException {
    if (entry.get(key) instanceof String s) {
      return s;
    }
    throw new IOException(file + ": entry " + index + " needs " + key + " as a string");
  }

  private static List<String> strings(Object value, Path file, int index, String key)
      throws IOException {
    List<String> out = new ArrayList<>();
    if (value == null) {
      return out;
    }
    if (!(value instanceof List<?> list)) {
      throw new IOException(file + ": entry " + index + " needs " + key + " as a list");
    }
    list.forEach(a -> out.add(String.valueOf(a)));
    return out;
  }

  private static Map<String, String> digests(Object value, Path file, int index, String key)
      throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    if (value == null) {
      return out;
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw new IOException(file + ": entry " + index + " needs " + key + " as a map");
    }
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (!(e.getKey() instanceof String name) || !(e.getValue() instanceof String digest)) {
        throw new IOException(file + ": entry " + index + ": " + key + " maps names to digests");
      }
      out.put(name, digest);
    }
    return out;
  }

  /**
   * Adds the entry of {@code skill} in its folder, replacing the one for the same folder and any
   * earlier-shaped entry of the same name, and writes the file whole (atomically).
   */
  public static void put(Path file, String skill, BridgeFingerprint fingerprint)
      throws IOException {
    Objects.requireNonNull(skill, "skill");
    List<Entry> entries = new ArrayList<>();
    for (Entry e : read(file)) {
      if (!e.replacedBy(skill, fingerprint)) {
        entries.add(e);
      }
    }
    entries.add(new Entry.Current(skill, fingerprint));
    StringBuilder text =
        new StringBuilder()
            .append(
                "# Bridges this Skillport runs: each only from this folder, with this program,\n")
            .append("# these arguments and environment names, and these file digests.\n")
            .append("# Written by `skillport trust-bridge`.\n")
            .append("version: 2\n")
            .append("bridges:\n");
    for (Entry e : entries) {
      text.append("- skill: ").append(quote(e.skill())).append('\n').append(e.yaml());
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

  private static String list(List<String> values) {
    StringBuilder out = new StringBuilder("[");
    for (int i = 0; i < values.size(); i++) {
      out.append(i == 0 ? "" : ", ").append(quote(values.get(i)));
    }
    return out.append(']').toString();
  }

  /** A block map, one {@code "name": "digest"} a line, or {@code {}}. */
  private static String map(Map<String, String> values) {
    if (values.isEmpty()) {
      return "{}";
    }
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, String> e : values.entrySet()) {
      out.append('\n')
          .append("    ")
          .append(quote(e.getKey()))
          .append(": ")
          .append(quote(e.getValue()));
    }
    return out.toString();
  }

  /** A JSON string, which is also a YAML double-quoted scalar. */
  private static String quote(String s) {
    try {
      return JSON.writeValueAsString(s);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a string is always written as JSON", e);
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}

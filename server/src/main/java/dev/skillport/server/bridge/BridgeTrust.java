package dev.skillport.server.bridge;

import dev.skillport.api.skill.McpBridgeSpec;
import dev.skillport.api.skill.Skill;
import dev.skillport.runtime.secrets.Redactor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's trust in bridges. A bridge runs only when its skill is named by {@code serve
 * --trust-bridge NAME} (which trusts the bridge as this server first reads it: a later change to
 * its command, arguments or {@code mcp.yaml} is not trusted until the server restarts) or has an
 * entry in the trust file binding its exact command, arguments and {@code mcp.yaml} digest. A
 * bridge that writes a secret value into its file instead of a {@code ${VAR}} reference is never
 * run, trusted or not. Nothing a skill writes can make it trusted.
 */
public final class BridgeTrust {
  private static final Logger LOG = LoggerFactory.getLogger(BridgeTrust.class);

  /** Whether a bridge may run, and if not, what the operator can do about it. */
  public sealed interface Verdict {
    /** It may run. */
    record Trusted() implements Verdict {}

    /** Nothing trusts it. */
    record Untrusted(String message, String hint) implements Verdict {}

    /** It was trusted, and has changed since. */
    record Changed(String message, String hint) implements Verdict {}

    /** It writes secret values in its file; the names are listed, the values never. */
    record SecretInline(String message, String hint) implements Verdict {}
  }

  private final Set<String> trustedNames;
  private final Path trustFile;
  private final Redactor redactor;
  private final Map<String, BridgeFingerprint> pinned = new HashMap<>();
  private Map<String, BridgeFingerprint> entries = Map.of();
  private Object fileStamp;

  /**
   * @param trustedNames skills named by {@code --trust-bridge}
   * @param trustFile the trust file (it need not exist), or null for none
   */
  public BridgeTrust(Set<String> trustedNames, Path trustFile, Redactor redactor) {
    this.trustedNames = Set.copyOf(trustedNames);
    this.trustFile = trustFile;
    this.redactor = Objects.requireNonNull(redactor, "redactor");
    refresh();
  }

  /** Trusts nothing. */
  public static BridgeTrust none(Redactor redactor) {
    return new BridgeTrust(Set.of(), null, redactor);
  }

  /** The trust file, or null. */
  public Path trustFile() {
    return trustFile;
  }

  /**
   * Reads the trust file again when it changed since it was last read.
   *
   * @return whether its entries changed
   */
  public synchronized boolean refresh() {
    if (trustFile == null) {
      return false;
    }
    Object stamp = stamp(trustFile);
    if (Objects.equals(stamp, fileStamp)) {
      return false;
    }
    fileStamp = stamp;
    Map<String, BridgeFingerprint> read;
    try {
      read = TrustFile.read(trustFile);
    } catch (IOException e) {
      // Fail closed: a broken trust file trusts nothing, and says so.
      LOG.warn("the bridge trust file is not used: {}", e.getMessage());
      read = Map.of();
    }
    boolean changed = !read.equals(entries);
    entries = Map.copyOf(read);
    return changed;
  }

  private static Object stamp(Path file) {
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      return List.of(a.size(), a.lastModifiedTime(), String.valueOf(a.fileKey()));
    } catch (IOException e) {
      return "absent";
    }
  }

  /** Whether {@code skill}'s bridge may run now. */
  public synchronized Verdict check(Skill skill) {
    McpBridgeSpec spec = skill.bridge().orElseThrow();
    List<String> inline = inlineSecrets(spec);
    if (!inline.isEmpty()) {
      return new Verdict.SecretInline(
          "The MCP bridge of '"
              + skill.name()
              + "' is not started: its env writes a value for "
              + String.join(", ", inline)
              + " in the file.",
          "take each from the server's environment instead: "
              + inline.get(0)
              + ": ${"
              + inline.get(0)
              + "}");
    }
    BridgeFingerprint now = BridgeFingerprint.of(spec);
    BridgeFingerprint entry = entries.get(skill.name());
    if (now.equals(entry)) {
      return new Verdict.Trusted();
    }
    if (trustedNames.contains(skill.name())) {
      BridgeFingerprint first = pinned.putIfAbsent(skill.name(), now);
      if (first == null || first.equals(now)) {
        return new Verdict.Trusted();
      }
      return new Verdict.Changed(
          "The MCP bridge of '"
              + skill.name()
              + "' changed since this server trusted it at start ("
              + now.difference(first)
              + "); it is stopped.",
          "review the change, then restart with --trust-bridge "
              + skill.name()
              + ", or trust this version: skillport trust-bridge "
              + skill.location().directory());
    }
    if (entry != null) {
      return new Verdict.Changed(
          "The MCP bridge of '"
              + skill.name()
              + "' differs from its entry in the trust file ("
              + now.difference(entry)
              + "); it is not started.",
          "review the change, then trust this version: skillport trust-bridge "
              + skill.location().directory()
              + trustFileOption());
    }
    return new Verdict.Untrusted(
        "The MCP bridge of '"
            + skill.name()
            + "' runs '"
            + abbreviate(spec.command(), 80)
            + "'; it is not started until the server's operator trusts it.",
        "review mcp.yaml, then start the server with --trust-bridge "
            + skill.name()
            + ", or run: skillport trust-bridge "
            + skill.location().directory()
            + trustFileOption());
  }

  private String trustFileOption() {
    return trustFile == null ? "" : " --trust-file " + trustFile;
  }

  /** The env names whose value is written in the file though the name is secret. */
  List<String> inlineSecrets(McpBridgeSpec spec) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, String> e : spec.env().entrySet()) {
      String value = e.getValue();
      if (redactor.isSecretName(e.getKey())
          && value != null
          && !value.isBlank()
          && !BridgeEnvironment.hasReference(value)) {
        out.add(e.getKey());
      }
    }
    return out;
  }

  private static String abbreviate(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max - 1) + "…";
  }
}

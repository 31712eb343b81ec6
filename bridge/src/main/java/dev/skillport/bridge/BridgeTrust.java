package dev.skillport.bridge;

import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.McpBridgeSpec;
import dev.skillport.model.skill.Skill;
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
 * The operator's trust in bridges. What is trusted is what runs ({@link BridgeFingerprint}): the
 * skill's folder, the program its command resolves to and its digest, the arguments and the files
 * they name, the names of its environment variables and every file of its folder. A bridge runs
 * only when its skill is named by {@code serve --trust-bridge NAME} (which trusts the bridge as
 * this server first reads it, kept in memory: a later change, or the same name in another folder,
 * is not trusted until the server restarts) or when an entry of the trust file binds exactly what
 * is on disk now. A bridge that writes a secret value into its file instead of a {@code ${VAR}}
 * reference is never run, trusted or not. Nothing a skill writes can make it trusted.
 */
public final class BridgeTrust {
  private static final Logger LOG = LoggerFactory.getLogger(BridgeTrust.class);

  /** Whether a bridge may run, and if not, what the operator can do about it. */
  public sealed interface Verdict {
    /** It may run: {@code fingerprint} is what was read and trusted, its program what starts. */
    record Trusted(BridgeFingerprint fingerprint) implements Verdict {
      public Trusted {
        Objects.requireNonNull(fingerprint, "fingerprint");
      }
    }

    /** It may not run; the message says why and the hint what the operator can do. */
    sealed interface Refused extends Verdict {
      String message();

      String hint();

      /** The code of its diagnostic in the skill's listing. */
      DiagnosticCode diagnosticCode();

      /** The code of the refusal a load or call gets. */
      ToolFailureCode failureCode();
    }

    /** Nothing trusts it (in this folder). */
    record Untrusted(String message, String hint) implements Refused {
      @Override
      public DiagnosticCode diagnosticCode() {
        return DiagnosticCode.MCP_BRIDGE_UNTRUSTED;
      }

      @Override
      public ToolFailureCode failureCode() {
        return ToolFailureCode.MCP_BRIDGE_UNTRUSTED;
      }
    }

    /** It was trusted, and has changed since. */
    record Changed(String message, String hint) implements Refused {
      @Override
      public DiagnosticCode diagnosticCode() {
        return DiagnosticCode.MCP_BRIDGE_CHANGED;
      }

      @Override
      public ToolFailureCode failureCode() {
        return ToolFailureCode.MCP_BRIDGE_CHANGED;
      }
    }

    /** It writes secret values in its file; the names are listed, the values never. */
    record SecretInline(String message, String hint) implements Refused {
      @Override
      public DiagnosticCode diagnosticCode() {
        return DiagnosticCode.MCP_BRIDGE_SECRET_INLINE;
      }

      @Override
      public ToolFailureCode failureCode() {
        return ToolFailureCode.MCP_BRIDGE_SECRET_INLINE;
      }
    }

    /** What it runs cannot be read in full, so it cannot be trusted. */
    record Unverifiable(String message, String hint) implements Refused {
      @Override
      public DiagnosticCode diagnosticCode() {
        return DiagnosticCode.MCP_BRIDGE_UNVERIFIABLE;
      }

      @Override
      public ToolFailureCode failureCode() {
        return ToolFailureCode.MCP_BRIDGE_UNVERIFIABLE;
      }
    }
  }

  private final Set<String> trustedNames;
  private final Path trustFile;
  private final Redactor redactor;
  private final FingerprintReader reader;
  private final Map<String, BridgeFingerprint> pinned = new HashMap<>();
  private List<TrustFile.Entry> entries = List.of();
  private Object fileStamp;

  /**
   * @param trustedNames skills named by {@code --trust-bridge}
   * @param trustFile the trust file (it need not exist), or null for none
   * @param serverEnvironment the server's environment, whose {@code PATH} finds a command's program
   */
  public BridgeTrust(
      Set<String> trustedNames,
      Path trustFile,
      Redactor redactor,
      Map<String, String> serverEnvironment) {
    this(trustedNames, trustFile, redactor, new FingerprintReader(serverEnvironment.get("PATH")));
  }

  BridgeTrust(
      Set<String> trustedNames, Path trustFile, Redactor redactor, FingerprintReader reader) {
    this.trustedNames = Set.copyOf(trustedNames);
    this.trustFile = trustFile;
    this.redactor = Objects.requireNonNull(redactor, "redactor");
    this.reader = Objects.requireNonNull(reader, "reader");
    refresh();
  }

  /** Trusts nothing. */
  public static BridgeTrust none(Redactor redactor) {
    return new BridgeTrust(Set.of(), null, redactor, Map.of());
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
    List<TrustFile.Entry> read;
    try {
      read = TrustFile.read(trustFile);
    } catch (IOException e) {
      // Fail closed: a broken trust file trusts nothing, and says so.
      LOG.warn("the bridge trust file is not used: {}", e.getMessage());
      read = List.of();
    }
    boolean changed = !read.equals(entries);
    entries = List.copyOf(read);
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

  /**
   * What {@code skill}'s bridge runs, read from disk now (for {@code skillport trust-bridge}).
   *
   * @throws BridgeUnverifiableException when it cannot be read in full
   */
  public BridgeFingerprint fingerprint(Skill skill) throws BridgeUnverifiableException {
    return reader.read(skill);
  }

  /**
   * Whether {@code skill}'s bridge may run now. What it runs is read from disk (file digests are
   * reused while a file's identity is unchanged) when something could trust it; a bridge nothing
   * names is untrusted without reading it.
   */
  public synchronized Verdict check(Skill skill) {
    McpBridgeSpec spec = skill.bridge().orElseThrow();
    String name = skill.name();
    List<String> inline = inlineSecrets(spec);
    if (!inline.isEmpty()) {
      return new Verdict.SecretInline(
          "The MCP bridge of '"
              + name
              + "' is not started: its env writes a value for "
              + String.join(", ", inline)
              + " in the file.",
          "take each from the server's environment instead: "
              + inline.get(0)
              + ": ${"
              + inline.get(0)
              + "}");
    }
    List<TrustFile.Entry> named = new ArrayList<>();
    for (TrustFile.Entry e : entries) {
      if (e.skill().equals(name)) {
        named.add(e);
      }
    }
    boolean flagged = trustedNames.contains(name);
    if (named.isEmpty() && !flagged) {
      return untrusted(skill, "");
    }
    BridgeFingerprint now;
    try {
      now = reader.read(skill);
    } catch (BridgeUnverifiableException e) {
      return new Verdict.Unverifiable(
          "The MCP bridge of '"
              + name
              + "' is not started: what it runs cannot be checked, as "
              + e.getMessage()
              + ".",
          e.hint() != null ? e.hint() : "fix that, then trust the bridge again" + retrust(skill));
    }
    BridgeFingerprint sameFolder = null;
    boolean legacy = false;
    for (TrustFile.Entry e : named) {
      if (e instanceof TrustFile.Entry.Current c) {
        if (c.fingerprint().equals(now)) {
          return new Verdict.Trusted(now);
        }
        if (c.fingerprint().folder().equals(now.folder())) {
          sameFolder = c.fingerprint();
        }
      } else {
        legacy = true;
      }
    }
    if (flagged) {
      BridgeFingerprint first = pinned.putIfAbsent(name, now);
      if (first == null || first.equals(now)) {
        return new Verdict.Trusted(now);
      }
      if (!first.folder().equals(now.folder())) {
        return untrusted(
            skill,
            " --trust-bridge "
                + name
                + " trusts the skill of that name in "
                + first.folder()
                + ", where this server first found it, not this one in "
                + now.folder()
                + ".");
      }
      return new Verdict.Changed(
          "The MCP bridge of '"
              + name
              + "' changed since this server trusted it at start ("
              + now.difference(first)
              + "); it is not started.",
          "review the change, then restart with --trust-bridge "
              + name
              + ", or trust this version: skillport trust-bridge "
              + skill.location().directory()
              + trustFileOption());
    }
    if (sameFolder != null) {
      return new Verdict.Changed(
          "The MCP bridge of '"
              + name
              + "' differs from its entry in the trust file ("
              + now.difference(sameFolder)
              + "); it is not started.",
          "review the change, then trust this version: skillport trust-bridge "
              + skill.location().directory()
              + trustFileOption());
    }
    if (legacy && named.stream().allMatch(TrustFile.Entry.Legacy.class::isInstance)) {
      return untrusted(
          skill,
          " Its entry in the trust file was written by an earlier version, which did not bind the"
              + " program it runs.");
    }
    return untrusted(
        skill,
        " The trust file trusts a skill of that name in another folder, not this one in "
            + now.folder()
            + ".");
  }

  private Verdict untrusted(Skill skill, String why) {
    McpBridgeSpec spec = skill.bridge().orElseThrow();
    return new Verdict.Untrusted(
        "The MCP bridge of '"
            + skill.name()
            + "' runs '"
            + abbreviate(spec.command(), 80)
            + "'; it is not started until the server's operator trusts it."
            + why,
        "review mcp.yaml and the program it runs, then start the server with --trust-bridge "
            + skill.name()
            + ", or run: skillport trust-bridge "
            + skill.location().directory()
            + trustFileOption());
  }

  private String retrust(Skill skill) {
    return ": skillport trust-bridge " + skill.location().directory() + trustFileOption();
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

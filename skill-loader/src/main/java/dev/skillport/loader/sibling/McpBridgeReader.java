package dev.skillport.loader.sibling;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.loader.yaml.YamlDocument;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.McpBridgeSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the MCP bridge file ({@code {command, args, env, cwd, namespace, timeout_secs, allow_tools,
 * deny_tools}}). Nothing is started here, and nothing here makes the bridge trusted: trust is the
 * operator's, so a {@code trust} key in the file is reported and has no effect. {@code cwd}
 * defaults to the skill folder and must stay inside it; {@code timeout_secs} defaults to {@value
 * #DEFAULT_TIMEOUT_SECS}. The spec carries the digest of the text it was read from, which a trust
 * entry binds. Messages name env keys at most, never their values.
 */
final class McpBridgeReader {
  static final int DEFAULT_TIMEOUT_SECS = 30;

  private final SiblingContext ctx;
  private final SiblingPaths paths;
  private final SiblingYaml yaml;

  McpBridgeReader(SiblingContext ctx, SiblingPaths paths, SiblingYaml yaml) {
    this.ctx = ctx;
    this.paths = paths;
    this.yaml = yaml;
  }

  /** The bridge, or null when the file is missing or invalid (both reported). */
  McpBridgeSpec read(String pointer) {
    Optional<Path> located = paths.resolveFromManifest("mcp", pointer, "MCP bridge file");
    if (located.isEmpty()) {
      return null;
    }
    Path file = located.get();
    Optional<String> text = paths.readText(file);
    if (text.isEmpty()) {
      return null;
    }
    Optional<YamlDocument> parsed = yaml.parse(text.get(), file);
    if (parsed.isEmpty()) {
      return null;
    }
    YamlDocument doc = parsed.get();
    JsonNode root = doc.root();
    if (!yaml.checkWhole(
        SiblingSchema.MCP_BRIDGE,
        root,
        doc,
        file,
        DiagnosticCode.MCP_BRIDGE_INVALID,
        "MCP bridge file")) {
      return null;
    }
    if (root.has("trust")) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.MCP_BRIDGE_SELF_TRUST,
              "The MCP bridge file declares 'trust'; a file cannot trust itself, so the key has no"
                  + " effect.",
              file,
              doc.locate("/trust"),
              "remove the key: the server's operator trusts a bridge (serve --trust-bridge NAME,"
                  + " or skillport trust-bridge DIR)");
    }
    Path cwd = paths.skillDir();
    String cwdText = YamlValues.text(root.get("cwd"));
    if (cwdText != null && !cwdText.isBlank()) {
      Optional<Path> dir =
          paths.resolve(
              paths.skillDir(),
              cwdText,
              "MCP bridge cwd",
              file,
              doc.locate("/cwd"),
              DiagnosticCode.MCP_BRIDGE_INVALID);
      if (dir.isEmpty()) {
        return null;
      }
      if (!Files.isDirectory(dir.get())) {
        ctx.diagnostics()
            .report(
                DiagnosticCode.MCP_BRIDGE_INVALID,
                "The MCP bridge cwd '" + cwdText + "' is not a directory.",
                file,
                doc.locate("/cwd"),
                null);
        return null;
      }
      cwd = dir.get();
    }
    Map<String, String> env = new LinkedHashMap<>();
    root.path("env").properties().forEach(e -> env.put(e.getKey(), e.getValue().asText()));
    List<String> args = YamlValues.stringList(root.get("args"));
    JsonNode timeout = root.get("timeout_secs");
    return new McpBridgeSpec(
        root.get("command").asText(),
        args,
        env,
        cwd,
        YamlValues.text(root.get("namespace")),
        timeout == null || timeout.isNull() ? DEFAULT_TIMEOUT_SECS : timeout.asInt(),
        YamlValues.stringList(root.get("allow_tools")),
        YamlValues.stringList(root.get("deny_tools")),
        file,
        digest(text.get()));
  }

  /** {@code sha256:<hex>} of the text's UTF-8 bytes. */
  static String digest(String text) {
    try {
      return "sha256:"
          + HexFormat.of()
              .formatHex(
                  MessageDigest.getInstance("SHA-256")
                      .digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}

package dev.skillport.loader.sibling;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.diagnostic.DiagnosticCode;
import dev.skillport.api.skill.McpBridgeSpec;
import dev.skillport.loader.yaml.YamlDocument;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the MCP bridge file ({@code {command, args, env, cwd, trust: explicit, namespace,
 * timeout_secs, allow_tools, deny_tools}}). Nothing is started here. {@code cwd} defaults to the
 * skill folder and must stay inside it; {@code timeout_secs} defaults to {@value
 * #DEFAULT_TIMEOUT_SECS}. Messages name env keys at most, never their values.
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

  /** The bridge, or null when the file is missing, invalid or untrusted (all reported). */
  McpBridgeSpec read(String pointer) {
    Optional<Path> located = paths.resolveFromManifest("mcp", pointer, "MCP bridge file");
    if (located.isEmpty()) {
      return null;
    }
    Path file = located.get();
    Optional<YamlDocument> parsed = yaml.read(file);
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
    JsonNode trust = root.get("trust");
    if (trust == null || !trust.isTextual() || !trust.asText().equals("explicit")) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.MCP_BRIDGE_UNTRUSTED,
              "The MCP bridge is not started: it must declare 'trust: explicit'.",
              file,
              doc.locate(trust == null ? "" : "/trust"),
              "Add 'trust: explicit' after reviewing the command it runs.");
      return null;
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
        YamlValues.stringList(root.get("deny_tools")));
  }
}

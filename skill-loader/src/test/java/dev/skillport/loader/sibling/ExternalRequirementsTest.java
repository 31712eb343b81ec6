package dev.skillport.loader.sibling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.diagnostic.Severity;
import dev.skillport.model.skill.ExternalDependency;
import dev.skillport.model.skill.McpBridgeSpec;
import dev.skillport.model.skill.RuntimeSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExternalRequirementsTest {
  @TempDir Path tmp;

  @Test
  void read_inlineExternalDeps_checksEnvAndPathWithInjectedHost() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Path tool = Files.writeString(bin.resolve("ffmpeg"), "#!/bin/sh\n");
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
    SkillFolder skill = SkillFolder.in(tmp);
    skill.externalDeps =
        Map.of(
            "tools",
            List.of(
                Map.of("type", "env_var", "value", "API_TOKEN"),
                Map.of("type", "env_var", "value", "MISSING_VAR"),
                Map.of("type", "bin", "value", "ffmpeg"),
                Map.of("type", "bin", "value", "blender"),
                Map.of("type", "mcp", "value", "filesystem", "url", "stdio"),
                Map.of("type", "gpu", "value", "cuda")));

    List<ExternalDependency> deps =
        skill
            .read(HostEnvironment.of(Map.of("API_TOKEN", "s3cr3t-value", "PATH", bin.toString())))
            .externalDeps();

    assertThat(deps)
        .extracting(ExternalDependency::value)
        .containsExactly("API_TOKEN", "MISSING_VAR", "ffmpeg", "blender", "filesystem");
    assertThat(deps.get(4).extras()).containsEntry("url", "stdio");
    assertThat(skill.with(DiagnosticCode.EXTERNAL_DEP_UNMET))
        .extracting(d -> d.message())
        .hasSize(2)
        .anySatisfy(m -> assertThat(m).contains("MISSING_VAR"))
        .anySatisfy(m -> assertThat(m).contains("blender"));
    assertThat(skill.with(DiagnosticCode.EXTERNAL_DEPS_INVALID)).hasSize(1);
    assertThat(skill.all()).allSatisfy(d -> assertThat(d.format()).doesNotContain("s3cr3t"));
  }

  @Test
  void read_externalDepsFromSiblingFile_isReadWithPositions() {
    SkillFolder skill =
        SkillFolder.in(tmp).file("deps.yaml", "tools:\n  - {type: env_var, value: NEEDED}\n");
    skill.externalDeps = "deps.yaml";

    List<ExternalDependency> deps = skill.read().externalDeps();

    assertThat(deps).singleElement().satisfies(d -> assertThat(d.type()).isEqualTo("env_var"));
    assertThat(skill.with(DiagnosticCode.EXTERNAL_DEP_UNMET))
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.severity()).isEqualTo(Severity.NOTICE);
              assertThat(d.line()).isEqualTo(2);
            });
  }

  @Test
  void read_externalDepsAsInlineJsonString_isParsed() {
    SkillFolder skill = SkillFolder.in(tmp);
    skill.externalDeps = "{\"tools\": [{\"type\": \"mcp\", \"value\": \"git\"}]}";

    assertThat(skill.read().externalDeps())
        .extracting(ExternalDependency::value)
        .containsExactly("git");
    assertThat(skill.all()).isEmpty();
  }

  @Test
  void read_runtimesInAllForms_areRead() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file(
                "runtimes.yaml",
                "runtimes:\n  - python\n  - {name: node, version: '20'}\n  - {version: 1}\n");
    skill.runtimes = "runtimes.yaml";
    assertThat(skill.read().runtimes())
        .containsExactly(
            new RuntimeSpec("python", Map.of()), new RuntimeSpec("node", Map.of("version", "20")));
    assertThat(skill.codes()).containsExactly(DiagnosticCode.RUNTIMES_INVALID);

    skill.runtimes = List.of("python", Map.of("name", "blender"));
    assertThat(skill.read().runtimes())
        .extracting(RuntimeSpec::name)
        .containsExactly("python", "blender");

    skill.runtimes = "python, usd";
    assertThat(skill.read().runtimes())
        .extracting(RuntimeSpec::name)
        .containsExactly("python", "usd");

    skill.runtimes = Map.of("python", Map.of("min", "3.10"));
    assertThat(skill.read().runtimes())
        .containsExactly(new RuntimeSpec("python", Map.of("min", "3.10")));

    skill.runtimes = 42;
    assertThat(skill.read().runtimes()).isEmpty();
    assertThat(skill.codes()).containsExactly(DiagnosticCode.RUNTIMES_INVALID);
  }

  @Test
  void read_mcpBridge_isMappedWithDefaultsAndNeverStarted() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file("server/run.txt", "")
            .file(
                "mcp.yaml",
                """
                command: node
                args: [server.js, --port, 0]
                env: {API_TOKEN: abc}
                cwd: server
                namespace: fs
                allow_tools: [read]
                """);
    skill.mcp = "mcp.yaml";

    McpBridgeSpec bridge = skill.read().mcpBridge();

    assertThat(bridge.command()).isEqualTo("node");
    assertThat(bridge.args()).containsExactly("server.js", "--port", "0");
    assertThat(bridge.env()).containsEntry("API_TOKEN", "abc");
    assertThat(bridge.cwd()).isEqualTo(skill.dir.resolve("server"));
    assertThat(bridge.timeoutSecs()).isEqualTo(McpBridgeReader.DEFAULT_TIMEOUT_SECS);
    assertThat(bridge.allowTools()).containsExactly("read");
    assertThat(bridge.file()).isEqualTo(skill.dir.resolve("mcp.yaml"));
    assertThat(bridge.digest()).matches("sha256:[0-9a-f]{64}");
    assertThat(skill.all()).isEmpty();
  }

  @Test
  void read_mcpBridgeDeclaringTrust_isReadWithANoticeThatTheKeyDoesNothing() {
    SkillFolder skill = SkillFolder.in(tmp).file("mcp.yaml", "command: node\ntrust: explicit\n");
    skill.mcp = "mcp.yaml";

    assertThat(skill.read().mcpBridge()).isNotNull();
    assertThat(skill.with(DiagnosticCode.MCP_BRIDGE_SELF_TRUST))
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.severity()).isEqualTo(Severity.NOTICE);
              assertThat(d.line()).isEqualTo(2);
            });
  }

  @Test
  void read_mcpBridgeDigest_followsTheFileText() {
    SkillFolder one = SkillFolder.in(tmp.resolve("one")).file("mcp.yaml", "command: node\n");
    SkillFolder two = SkillFolder.in(tmp.resolve("two")).file("mcp.yaml", "command: node \n");
    one.mcp = "mcp.yaml";
    two.mcp = "mcp.yaml";

    assertThat(one.read().mcpBridge().digest()).isNotEqualTo(two.read().mcpBridge().digest());
  }

  @Test
  void read_mcpBridgeCwdEscaping_isRefused() {
    SkillFolder skill = SkillFolder.in(tmp).file("mcp.yaml", "command: node\ncwd: ../..\n");
    skill.mcp = "mcp.yaml";

    assertThat(skill.read().mcpBridge()).isNull();
    assertThat(skill.codes()).containsExactly(DiagnosticCode.SIBLING_ESCAPES);
  }

  @Test
  void read_invalidMcpBridge_neverEchoesSecretValues() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file(
                "mcp.yaml",
                """
                command: node
                env:
                  GITHUB_TOKEN: [ghp_hunter2secret]
                  DB_PASSWORD: {value: pa55word-secret}
                  bad-name: x
                timeout_secs: 0
                """);
    skill.mcp = "mcp.yaml";

    assertThat(skill.read().mcpBridge()).isNull();
    assertThat(skill.with(DiagnosticCode.MCP_BRIDGE_INVALID)).hasSize(1);
    assertThat(skill.all())
        .allSatisfy(
            d -> assertThat(d.format()).doesNotContain("hunter2").doesNotContain("pa55word"));
  }
}

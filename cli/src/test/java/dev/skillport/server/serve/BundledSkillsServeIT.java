package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.testsupport.ChildJvm;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar serves the bundled skills at scope system next to the configured ones, with their
 * Java handlers service-loaded from the jar; {@code --no-bundled} leaves them out.
 */
class BundledSkillsServeIT {
  @TempDir Path jobs;

  private McpSyncClient client(String... extra) {
    Path jar =
        Path.of(System.getProperty("skillport.jar", "target/skillport.jar")).toAbsolutePath();
    Path samples =
        Path.of(System.getProperty("skillport.samples", "../samples/skills")).toAbsolutePath();
    List<String> args =
        new ArrayList<>(
            List.of(
                "-jar",
                jar.toString(),
                "serve",
                "--stdio",
                "--no-watch",
                "--jobs-dir",
                jobs.toString(),
                "--skills",
                samples.toString()));
    args.addAll(0, ChildJvm.systemProperties());
    args.addAll(List.of(extra));
    ServerParameters params =
        ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java").toString())
            .args(args)
            .build();
    McpSyncClient client =
        McpClient.sync(
                new StdioClientTransport(params, new JacksonMcpJsonMapper(new ObjectMapper())))
            .requestTimeout(Duration.ofSeconds(60))
            .initializationTimeout(Duration.ofSeconds(60))
            .build();
    client.initialize();
    return client;
  }

  private static List<String> toolNames(McpSyncClient client) {
    return client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
  }

  @Test
  void serve_default_bundledAuthoringSkillLoadsAndAnswers() {
    try (McpSyncClient client = client()) {
      assertThat(toolNames(client)).contains("__skill__skill-authoring", "__skill__file-stats");

      McpSchema.CallToolResult loaded =
          client.callTool(
              McpSchema.CallToolRequest.builder("load_skill")
                  .arguments(Map.<String, Object>of("skill_name", "skill-authoring"))
                  .build());
      assertThat(loaded.isError()).as(String.valueOf(loaded.content())).isFalse();
      assertThat(toolNames(client)).contains("explain_diagnostic", "validate_skill", "new_skill");

      McpSchema.CallToolResult explained =
          client.callTool(
              McpSchema.CallToolRequest.builder("explain_diagnostic")
                  .arguments(Map.<String, Object>of("code", "NAME_INVALID"))
                  .build());
      assertThat(explained.isError()).as(String.valueOf(explained.content())).isFalse();
      assertThat(explained.structuredContent().toString())
          .contains("NAME_INVALID")
          .contains("severity=error");
    }
  }

  @Test
  void serve_noBundled_bundledSkillAbsent() {
    try (McpSyncClient client = client("--no-bundled")) {
      assertThat(toolNames(client))
          .contains("__skill__file-stats")
          .doesNotContain("__skill__skill-authoring");
    }
  }
}

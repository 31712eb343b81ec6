package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.InteropTools;
import dev.skillport.testsupport.LaunchedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both protocol eras at once, with the official TypeScript SDK clients through the whole flow of an
 * agent ({@code interop/flow-client.mjs}): discover, search_skills, load_skill, a script tool, a
 * Java tool, a script that asks the user's name, and an async tool followed to its end and, in a
 * second run, cancelled. On ONE running {@code bin/skillport serve --http --tool-listing catalog},
 * at the same time: the 2.x client ({@code @modelcontextprotocol/client}) in 2026-07-28 (calls
 * through {@code call_tool}, the question as an {@code input_required} round trip, the async tool
 * as a task) and the 1.x client in 2025-11-25 (a session, {@code load_skill} changing the list, the
 * question as {@code elicitation/create}, the async tool as a job); and beside them the 2.x client
 * over stdio, in 2026-07-28 as well. Every cancelled run's script and its helper process are gone.
 */
class EraInteropIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  @TempDir Path skills;
  @TempDir Path work;

  @Test
  void sdk2Modern_andSdk1Legacy_onOneServer_andSdk2OverStdio_wholeFlowEach() throws Exception {
    FlowKit.writeTo(skills);
    String[] serve = {
      "--no-watch",
      "--no-bundled",
      "--skills",
      skills.toString(),
      "--plugins",
      FlowKit.plugins().toString(),
      "--tool-listing",
      "catalog"
    };
    Path modernPids = work.resolve("modern.pids");
    Path legacyPids = work.resolve("legacy.pids");
    Path stdioPids = work.resolve("stdio.pids");
    // Installed before the clocks start.
    InteropTools.dir("sdk@1");
    InteropTools.dir("client@2");
    try (LaunchedServer server = LaunchedServer.start(home, serve)) {
      String url = server.uri().toString();
      CompletableFuture<ExternalCommand.Outcome> modern =
          run(FlowKit.client(2, modernPids, "--url", url));
      CompletableFuture<ExternalCommand.Outcome> legacy =
          run(FlowKit.client(1, legacyPids, "--url", url));
      List<String> stdioServer = new ArrayList<>(List.of("env"));
      LaunchedServer.environment(home).forEach((k, v) -> stdioServer.add(k + "=" + v));
      stdioServer.addAll(List.of(LaunchedServer.launcher().toString(), "serve", "--stdio"));
      stdioServer.addAll(List.of(serve));
      List<String> stdioTarget = new ArrayList<>(List.of("--"));
      stdioTarget.addAll(stdioServer);
      CompletableFuture<ExternalCommand.Outcome> stdio =
          run(FlowKit.client(2, stdioPids, stdioTarget.toArray(String[]::new)));

      JsonNode m = summary(modern.join());
      JsonNode l = summary(legacy.join());
      JsonNode s = summary(stdio.join());

      for (JsonNode flow : List.of(m, s)) {
        assertThat(flow.path("sdk").asText()).startsWith("@modelcontextprotocol/client@2.");
        assertThat(flow.path("protocolVersion").asText()).isEqualTo("2026-07-28");
        assertThat(flow.at("/discover/versions").toString()).contains("2026-07-28", "2025-11-25");
        assertThat(flow.at("/discover/tasks").asBoolean()).isTrue();
        assertThat(flow.path("instructions").asBoolean()).as("load_skill's instructions").isTrue();
        assertThat(flow.path("listChangedByLoad").asBoolean()).isFalse();
        assertThat(flow.path("viaCallTool").asInt())
            .as("tools called through call_tool")
            .isEqualTo(3);
        assertThat(flow.at("/async/taskId").asText()).matches("[0-9a-f-]{36}");
      }
      assertThat(l.path("sdk").asText()).startsWith("@modelcontextprotocol/sdk@1.");
      assertThat(l.path("era").asText()).isEqualTo("legacy");
      assertThat(l.path("listChangedByLoad").asBoolean()).isTrue();
      assertThat(l.at("/async/jobId").asText()).matches("[0-9a-f-]{36}");
      for (JsonNode flow : List.of(m, l, s)) {
        assertThat(flow.path("script").asText()).isEqualTo("{\"words\":3}");
        assertThat(flow.path("java").asText()).isEqualTo("Hello, Ada!");
        assertThat(flow.path("elicitations").asInt()).isEqualTo(1);
        assertThat(flow.path("elicited").asText()).contains("Hello, Ada!");
        assertThat(flow.at("/async/status").asText()).isEqualTo("completed");
        assertThat(flow.at("/async/result/structuredContent/message").asText())
            .isEqualTo("worked 1 s");
        assertThat(flow.at("/cancelled/status").asText()).isEqualTo("cancelled");
      }
      for (Path pids : List.of(modernPids, legacyPids, stdioPids)) {
        assertProcessesEnd(pids);
      }
      assertThat(server.isAlive()).isTrue();
    }
  }

  private static CompletableFuture<ExternalCommand.Outcome> run(List<String> command) {
    Map<String, String> env = new HashMap<>(InteropTools.environment());
    return CompletableFuture.supplyAsync(
        () -> ExternalCommand.of(command).environment(env).timeout(Duration.ofMinutes(3)).run());
  }

  private static JsonNode summary(ExternalCommand.Outcome outcome) throws Exception {
    assertThat(outcome.exit()).as(outcome.toString()).isZero();
    String last = outcome.stdout().strip().lines().reduce((a, b) -> b).orElse("{}");
    JsonNode summary = JSON.readTree(last);
    assertThat(summary.path("ok").asBoolean()).as(outcome.toString()).isTrue();
    return summary;
  }

  /** The script and its helper, whose pids the cancelled run wrote, end within seconds. */
  static void assertProcessesEnd(Path pidFile) throws Exception {
    assertThat(pidFile).as("the cancelled run started").exists();
    List<Long> pids =
        List.of(Files.readString(pidFile).strip().split("\\s+")).stream()
            .map(Long::valueOf)
            .toList();
    assertThat(pids).hasSize(2);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(pids)
                    .as("processes of the cancelled script still running")
                    .noneMatch(
                        pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)));
  }
}

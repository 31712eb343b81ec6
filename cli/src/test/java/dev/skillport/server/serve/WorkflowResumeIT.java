package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.LaunchedServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/skillport serve --http --instance resume} killed with SIGKILL while two workflow runs
 * (one started by a 2025-11-25 session, one by a 2026-07-28 request) wait in their second step,
 * then started again with the same instance: {@code workflows_resume} (by {@code run_id} in one
 * era, by {@code workflow_id} in the other) finishes both runs; the first step, idempotent, ran
 * once (its marker file has one line), the interrupted step ran twice, the last step once.
 */
class WorkflowResumeIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOKEN = "token-of-the-resuming-caller-42";
  private static final String LEGACY = McpWire.LEGACY;
  private static final String MODERN = McpWire.MODERN;
  private static final AtomicInteger IDS = new AtomicInteger(1);

  @TempDir Path home;
  @TempDir Path skills;

  @Test
  void killedMidRun_restartedWithTheSameInstance_resumeFinishesBothErasRunsOnce() throws Exception {
    Path skill = writeSkill(skills.resolve("resumable"));
    Path marks = skill.resolve("marks");
    Set<Path> before = tempEntries();
    String legacyRun;
    String modernRun;
    try (LaunchedServer first = start()) {
      Set<Path> ofFirst = tempEntries();
      ofFirst.removeAll(before);
      try {
        String session = open(first.uri());
        JsonNode started =
            legacyTool(
                first.uri(),
                session,
                "workflows_run",
                "{\"name\":\"ingest\",\"inputs\":{\"tag\":\"legacy\"}}");
        legacyRun = started.at("/result/structuredContent/run_id").asText();
        assertThat(started.at("/result/structuredContent/workflow_id").asText())
            .isEqualTo(legacyRun);
        JsonNode modernStarted =
            modernTool(
                first.uri(),
                "workflows_run",
                "{\"skill\":\"resumable\",\"name\":\"ingest\",\"inputs\":{\"tag\":\"modern\"}}");
        modernRun = modernStarted.at("/result/structuredContent/workflow_id").asText();
        assertThat(modernRun).as(modernStarted.toString()).isNotEmpty().isNotEqualTo(legacyRun);
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () ->
                    lines(marks.resolve("hold-legacy")) == 1
                        && lines(marks.resolve("hold-modern")) == 1);
        assertThat(
                legacyTool(first.uri(), session, "workflows_get_status", runId(legacyRun))
                    .at("/result/structuredContent/status")
                    .asText())
            .isEqualTo("running");

        first.signal("KILL");
        first.awaitExit(Duration.ofSeconds(10));
      } finally {
        // The holding scripts the kill left behind end once they see their release file.
        Files.createDirectories(marks);
        Files.writeString(marks.resolve("release"), "go");
        removeLeftovers(ofFirst);
      }
    }

    try (LaunchedServer second = start()) {
      String session = open(second.uri());
      JsonNode interrupted =
          legacyTool(second.uri(), session, "workflows_get_status", runId(legacyRun))
              .at("/result/structuredContent");
      assertThat(interrupted.path("status").asText()).isEqualTo("interrupted");
      JsonNode listed = legacyTool(second.uri(), session, "workflows_list", "{}");
      assertThat(listed.at("/result/structuredContent/context/workflows/0/name").asText())
          .isEqualTo("ingest");

      JsonNode legacyResumed =
          legacyTool(second.uri(), session, "workflows_resume", runId(legacyRun));
      JsonNode modernResumed =
          modernTool(second.uri(), "workflows_resume", "{\"workflow_id\":\"" + modernRun + "\"}");

      assertThat(legacyResumed.at("/result/structuredContent/resumed").asBoolean())
          .as(legacyResumed.toString())
          .isTrue();
      assertThat(modernResumed.at("/result/structuredContent/workflow_id").asText())
          .as(modernResumed.toString())
          .isEqualTo(modernRun);
      assertThat(modernResumed.at("/result/structuredContent/preloaded_steps/0").asText())
          .isEqualTo("export");
      for (String run : List.of(legacyRun, modernRun)) {
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () ->
                    modernTool(
                            second.uri(),
                            "workflows_get_status",
                            "{\"workflow_id\":\"" + run + "\"}")
                        .at("/result/structuredContent/status")
                        .asText()
                        .equals("completed"));
      }
      for (String tag : List.of("legacy", "modern")) {
        assertThat(lines(marks.resolve("export-" + tag)))
            .as("the idempotent step of the %s run ran once", tag)
            .isEqualTo(1);
        assertThat(lines(marks.resolve("hold-" + tag)))
            .as("the interrupted step of the %s run ran again", tag)
            .isEqualTo(2);
        assertThat(lines(marks.resolve("publish-" + tag))).isEqualTo(1);
      }
      JsonNode again = legacyTool(second.uri(), session, "workflows_resume", runId(legacyRun));
      assertThat(again.at("/result/structuredContent/code").asText())
          .isEqualTo("RUN_NOT_RESUMABLE");
    }
  }

  private LaunchedServer start() {
    return LaunchedServer.start(
        home,
        "--no-watch",
        "--no-bundled",
        "--skills",
        skills.toString(),
        "--preload",
        "resumable",
        "--tool-listing",
        "all",
        "--auth-token",
        TOKEN,
        "--instance",
        "resume");
  }

  private static Path writeSkill(Path dir) throws IOException {
    Files.createDirectories(dir.resolve("scripts"));
    Files.createDirectories(dir.resolve("workflows"));
    Files.writeString(
        dir.resolve("SKILL.md"),
        """
        ---
        name: resumable
        description: Marks each step it runs in a file, for resuming after a crash
        metadata:
          dcc-mcp:
            tools: tools.yaml
            workflows: workflows/*.workflow.yaml
        ---
        mark appends a line to marks/NAME; hold does too, then waits for marks/release.
        """);
    Files.writeString(
        dir.resolve("tools.yaml"),
        """
        tools:
          - name: mark
            description: Appends a line to marks/NAME
            input_schema: {type: object, properties: {name: {type: string}}, required: [name]}
          - name: hold
            description: Appends a line to marks/NAME, then waits (60 s at most) for marks/release
            input_schema: {type: object, properties: {name: {type: string}}, required: [name]}
        """);
    String args =
        """
        marks="$(cd "$(dirname "$0")/.." && pwd)/marks"
        mkdir -p "$marks"
        name=none
        while [ $# -gt 0 ]; do
          case "$1" in --name) name=$2; shift 2;; *) shift;; esac
        done
        echo "$$" >> "$marks/$name"
        """;
    script(
        dir.resolve("scripts/mark.sh"),
        "#!/usr/bin/env bash\n" + args + "echo '{\"success\": true, \"message\": \"marked\"}'\n");
    script(
        dir.resolve("scripts/hold.sh"),
        "#!/usr/bin/env bash\n"
            + args
            + """
            for i in $(seq 600); do
              [ -f "$marks/release" ] && break
              sleep 0.1
            done
            echo '{"success": true, "message": "held"}'
            """);
    Files.writeString(
        dir.resolve("workflows/ingest.workflow.yaml"),
        """
        name: ingest
        description: Exports once, holds, then publishes
        inputs: {type: object, properties: {tag: {type: string}}, required: [tag]}
        steps:
          - id: export
            kind: tool
            tool: mark
            args: {name: "export-{{inputs.tag}}"}
            idempotency_key: "export-{{inputs.tag}}"
          - {id: hold, kind: tool, tool: hold, args: {name: "hold-{{inputs.tag}}"}}
          - {id: publish, kind: tool, tool: mark, args: {name: "publish-{{inputs.tag}}"}}
        """);
    return dir;
  }

  private static void script(Path file, String text) throws IOException {
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private static int lines(Path file) throws IOException {
    return Files.isRegularFile(file) ? Files.readAllLines(file).size() : 0;
  }

  private static String runId(String id) {
    return "{\"run_id\":\"" + id + "\"}";
  }

  private static Set<Path> tempEntries() throws IOException {
    try (var list = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return list.collect(Collectors.toCollection(HashSet::new));
    }
  }

  /** What the killed server left in the temp folder, which its SIGKILL kept it from removing. */
  private static void removeLeftovers(Set<Path> ofFirst) throws IOException {
    Set<Path> now = tempEntries();
    for (Path p : ofFirst) {
      if (now.contains(p)) {
        ExternalCommand.of("rm", "-rf", p.toString()).timeout(Duration.ofSeconds(10)).run();
      }
    }
  }

  private static String open(URI uri) throws Exception {
    return McpWire.openSession(uri, TOKEN, "workflow-resume");
  }

  private static JsonNode legacyTool(URI uri, String session, String tool, String args)
      throws Exception {
    return callTool(uri, LEGACY, session, tool, args);
  }

  private static JsonNode modernTool(URI uri, String tool, String args) throws Exception {
    return callTool(uri, MODERN, null, tool, args);
  }

  /** A {@code tools/call} in a 2025 session, or as a 2026-07-28 request with its headers. */
  private static JsonNode callTool(
      URI uri, String version, String session, String tool, String args) throws Exception {
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    params.set("arguments", JSON.readTree(args));
    HttpRequest.Builder request = request(uri).header("MCP-Protocol-Version", version);
    if (session != null) {
      request.header("Mcp-Session-Id", session);
    } else {
      ObjectNode meta = params.putObject("_meta");
      meta.put("io.modelcontextprotocol/protocolVersion", version);
      meta.putObject("io.modelcontextprotocol/clientCapabilities");
      meta.putObject("io.modelcontextprotocol/clientInfo")
          .put("name", "workflow-resume")
          .put("version", "1");
      request.header("Mcp-Method", "tools/call").header("Mcp-Name", tool);
    }
    ObjectNode message =
        JSON.createObjectNode()
            .put("jsonrpc", "2.0")
            .put("id", IDS.incrementAndGet())
            .put("method", "tools/call");
    message.set("params", params);
    return parse(send(request.POST(body(message)).build()).body());
  }

  private static HttpRequest.Builder request(URI uri) {
    return McpWire.request(uri, TOKEN);
  }

  private static HttpRequest.BodyPublisher body(JsonNode message) {
    return McpWire.body(message);
  }

  private static JsonNode parse(String text) throws Exception {
    return McpWire.parse(text);
  }

  private static HttpResponse<String> send(HttpRequest request) throws Exception {
    return McpWire.send(request);
  }
}

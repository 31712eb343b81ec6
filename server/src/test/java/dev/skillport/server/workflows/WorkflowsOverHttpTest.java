package dev.skillport.server.workflows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.mcp.transport.StreamableHttpTransport;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.runtime.jobs.RawMcpClient;
import dev.skillport.server.serve.ServeConfig;
import dev.skillport.server.serve.SkillportServer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real server on 127.0.0.1 with a skill folder that declares a workflow over script tools: the
 * workflow tools appear once the skill is loaded, a run goes through, the session's event stream
 * carries its updates, and its status reads completed.
 */
class WorkflowsOverHttpTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path skills;
  private SkillportServer server;
  private StreamableHttpTransport transport;
  private RawMcpClient client;

  @AfterEach
  void stop() {
    if (transport != null) {
      transport.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private void writeSkill() throws Exception {
    Path dir = Files.createDirectories(skills.resolve("pipeline/scripts"));
    Files.writeString(
        skills.resolve("pipeline/SKILL.md"),
        """
        ---
        name: pipeline
        description: Lists and converts files
        metadata:
          dcc-mcp:
            tools: tools.yaml
            workflows: workflows/*.workflow.yaml
        ---
        Convert files.
        """);
    Files.writeString(
        skills.resolve("pipeline/tools.yaml"),
        """
        tools:
          - {name: list_files, description: Lists the files of a folder}
          - {name: convert, description: Converts one file}
        """);
    Files.writeString(
        dir.resolve("list_files.py"),
        """
        import json, sys
        args = json.load(sys.stdin)
        print(json.dumps({"files": [args["folder"] + "/a.obj", args["folder"] + "/b.obj"]}))
        """);
    Files.writeString(
        dir.resolve("convert.py"),
        """
        import json, sys
        args = json.load(sys.stdin)
        print(json.dumps({"out": args["src"].replace(".obj", "." + args["to"])}))
        """);
    Files.createDirectories(skills.resolve("pipeline/workflows"));
    Files.writeString(
        skills.resolve("pipeline/workflows/convert.workflow.yaml"),
        """
        name: convert-all
        description: Converts every file of a folder.
        inputs: {folder: {required: true}, to: {default: glb}}
        steps:
          - {id: list, kind: tool, tool: list_files, args: {folder: "{{inputs.folder}}"}}
          - id: each
            kind: foreach
            items: $.steps.list.output.files[*]
            as: file
            steps:
              - {id: conv, kind: tool, tool: convert, args: {src: "{{file}}", to: "{{inputs.to}}"}}
        """);
  }

  @Test
  void workflowRun_overHttp_listsToolsAfterLoadNotifiesAndCompletes() throws Exception {
    writeSkill();
    server =
        SkillportServer.start(
            ServeConfig.of(List.of(SkillRoot.of(skills, Scope.REPO))).withWatch(false), "test");
    transport = StreamableHttpTransport.builder(server.mcp()).host("127.0.0.1").port(0).build();
    transport.start();
    transport.setReady(true);
    client = new RawMcpClient(URI.create("http://127.0.0.1:" + transport.port() + "/mcp"));
    List<JsonNode> stream = client.openStream();

    assertThat(toolNames()).doesNotContain("workflows_run");
    JsonNode loaded = call("load_skill", JSON.createObjectNode().put("skill_name", "pipeline"));
    assertThat(loaded.path("isError").asBoolean()).as(loaded.toString()).isFalse();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> methods(stream).contains("notifications/tools/list_changed"));
    assertThat(toolNames())
        .contains("workflows_run", "workflows_get_status", "workflows_cancel", "workflows_lookup");

    ObjectNode args = JSON.createObjectNode().put("name", "convert-all");
    args.putObject("inputs").put("folder", "/scenes");
    JsonNode started = call("workflows_run", args).path("structuredContent");
    assertThat(started.path("status").asText()).isEqualTo("pending");
    String runId = started.path("run_id").asText();

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> runStates(stream, runId).contains("completed"));
    assertThat(runStates(stream, runId)).startsWith("pending", "running").endsWith("completed");
    JsonNode status =
        call("workflows_get_status", JSON.createObjectNode().put("run_id", runId))
            .path("structuredContent");
    assertThat(status.path("status").asText()).isEqualTo("completed");
    assertThat(status.path("output").findValuesAsText("out"))
        .containsExactly("/scenes/a.glb", "/scenes/b.glb");
    assertThat(status.path("steps").findValuesAsText("status")).containsOnly("completed");
  }

  private static List<String> methods(List<JsonNode> stream) {
    return stream.stream().map(m -> m.path("method").asText()).toList();
  }

  private static List<String> runStates(List<JsonNode> stream, String runId) {
    List<String> out = new ArrayList<>();
    for (JsonNode m : stream) {
      JsonNode p = m.path("params");
      if (m.path("method").asText().equals("notifications/$/dcc.workflowUpdated")
          && p.path("run_id").asText().equals(runId)
          && (out.isEmpty() || !out.get(out.size() - 1).equals(p.path("status").asText()))) {
        out.add(p.path("status").asText());
      }
    }
    return out;
  }

  private List<String> toolNames() throws Exception {
    return client
        .result("tools/list", JSON.createObjectNode())
        .path("tools")
        .findValuesAsText("name");
  }

  private JsonNode call(String tool, ObjectNode arguments) throws Exception {
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    params.set("arguments", arguments);
    return client.call(params);
  }
}

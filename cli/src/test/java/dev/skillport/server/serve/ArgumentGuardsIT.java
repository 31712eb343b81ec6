package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.runtime.jobs.RawMcpClient;
import dev.skillport.testsupport.LaunchedServer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server started with {@code bin/skillport} checks the path arguments a tool declares before its
 * script starts, and keeps the skills and tools its operator's lists deny out of every listing,
 * load and call, in both protocol eras.
 */
class ArgumentGuardsIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  @TempDir Path tmp;

  private final HttpClient http = HttpClient.newHttpClient();
  private final AtomicInteger ids = new AtomicInteger();

  /** A skill whose script leaves {@code ran.marker} in its folder each time it runs. */
  private static Path skill(Path skills, String name, String toolsYaml) throws Exception {
    Path dir = Files.createDirectories(skills.resolve(name));
    Files.writeString(
        dir.resolve("SKILL.md"),
        "---\nname: "
            + name
            + "\ndescription: The "
            + name
            + " fixture.\nmetadata: {dcc-mcp: {tools: tools.yaml}}\n---\n# "
            + name
            + "\n");
    Files.writeString(dir.resolve("tools.yaml"), toolsYaml);
    Files.createDirectories(dir.resolve("scripts"));
    Files.writeString(
        dir.resolve("scripts/touch.sh"),
        "echo ran >> ran.marker\necho '{\"success\": true, \"message\": \"touched\"}'\n");
    return dir;
  }

  private static JsonNode call(RawMcpClient client, String tool, ObjectNode args) throws Exception {
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    params.set("arguments", args);
    return client.call(params);
  }

  private static ObjectNode file(String value) {
    return JSON.createObjectNode().put("file", value);
  }

  private static String code(JsonNode result) {
    return result.path("structuredContent").path("code").asText();
  }

  @Test
  void guardedTool_runsWithAGoodPath_andRefusesBadOnesBeforeItsScriptStarts() throws Exception {
    Path skills = Files.createDirectories(tmp.resolve("skills"));
    Path assets = Files.createDirectories(tmp.resolve("assets"));
    Path outside = Files.createDirectories(tmp.resolve("outside"));
    Files.writeString(outside.resolve("secret.txt"), "s3cret");
    Path dir =
        skill(
            skills,
            "files",
            """
            tools:
              - name: touch
                source_file: scripts/touch.sh
                input_schema:
                  type: object
                  properties: {file: {type: string}}
                paths:
                  file: {inside: [skill, allowed:assets]}
            """);
    Files.createDirectories(dir.resolve("data"));
    Files.createSymbolicLink(dir.resolve("escape"), outside);
    Path marker = dir.resolve("ran.marker");

    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--no-bundled",
            "--skills",
            skills.toString(),
            "--allow-path",
            "assets=" + assets)) {
      RawMcpClient client = new RawMcpClient(server.uri());
      JsonNode loaded =
          call(client, "load_skill", JSON.createObjectNode().put("skill_name", "files"));
      assertThat(loaded.path("isError").asBoolean()).as(loaded.toString()).isFalse();
      JsonNode info =
          call(client, "get_skill_info", JSON.createObjectNode().put("skill_name", "files"));
      assertThat(info.at("/structuredContent/tools/0/paths/file/inside").toString())
          .isEqualTo("[\"skill\",\"allowed:assets\"]");

      for (String bad :
          List.of(
              "../../outside/secret.txt",
              outside.resolve("secret.txt").toString(),
              "/etc/passwd",
              "escape/secret.txt",
              "~/.ssh/id_rsa",
              "data/a\0b",
              "data/" + "x/".repeat(2100))) {
        JsonNode refused = call(client, "touch", file(bad));
        assertThat(refused.path("isError").asBoolean()).as(bad).isTrue();
        assertThat(code(refused)).as(bad).isEqualTo("PATH_NOT_ALLOWED");
        assertThat(refused.toString())
            .as(bad)
            .contains("'file' may point inside the skill folder")
            .contains("the operator's folder 'assets'")
            .doesNotContain("s3cret");
        assertThat(marker).as(bad).doesNotExist();
      }

      JsonNode inSkill = call(client, "touch", file("data/new.txt"));
      assertThat(inSkill.path("isError").asBoolean()).as(inSkill.toString()).isFalse();
      assertThat(Files.readAllLines(marker)).hasSize(1);
      JsonNode inAssets = call(client, "touch", file(assets.resolve("a.png").toString()));
      assertThat(inAssets.path("isError").asBoolean()).as(inAssets.toString()).isFalse();
      assertThat(Files.readAllLines(marker)).hasSize(2);
      assertThat(server.isAlive()).isTrue();
    }
  }

  @Test
  void deniedSkillsAndTools_areNeitherListedNorLoadableNorCalled_inBothEras() throws Exception {
    Path skills = Files.createDirectories(tmp.resolve("skills"));
    String tools =
        """
        tools:
          - {name: run, source_file: scripts/touch.sh}
          - {name: hidden, source_file: scripts/touch.sh}
        """;
    skill(skills, "open", tools);
    Path secret = skill(skills, "secret", tools);
    Path other = skill(skills, "other", tools);

    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--skills",
            skills.toString(),
            "--allow-skill",
            "open,secret",
            "--deny-skill",
            "secret",
            "--deny-tool",
            "open/hidden")) {
      RawMcpClient client = new RawMcpClient(server.uri());

      JsonNode list = call(client, "list_skills", JSON.createObjectNode());
      JsonNode items = list.path("structuredContent").path("skills");
      assertThat(status(items, "open")).isEqualTo("unloaded");
      assertThat(status(items, "secret")).isEqualTo("denied");
      assertThat(status(items, "other")).isEqualTo("denied");
      assertThat(status(items, "skill-authoring")).isEqualTo("denied");
      assertThat(item(items, "secret").path("denied_reason").asText()).contains("--deny-skill");
      assertThat(item(items, "other").path("denied_reason").asText()).contains("--allow-skill");
      JsonNode deniedOnly =
          call(client, "list_skills", JSON.createObjectNode().put("status", "denied"));
      assertThat(names(deniedOnly.path("structuredContent").path("skills")))
          .contains("secret", "other")
          .doesNotContain("open");

      JsonNode info =
          call(client, "get_skill_info", JSON.createObjectNode().put("skill_name", "secret"));
      assertThat(info.path("structuredContent").path("state").asText()).isEqualTo("denied");
      assertThat(info.path("structuredContent").path("diagnostics").toString())
          .contains("SKILL_DENIED");

      JsonNode load =
          call(client, "load_skill", JSON.createObjectNode().put("skill_name", "secret"));
      assertThat(load.path("isError").asBoolean()).isTrue();
      assertThat(code(load)).isEqualTo("SKILL_DENIED");
      assertThat(load.toString()).contains("cannot be loaded");

      JsonNode search =
          call(client, "search_skills", JSON.createObjectNode().put("query", "fixture"));
      assertThat(names(search.path("structuredContent").path("skills"))).containsExactly("open");

      // Nor are its files served through the Skills extension or as skill:// resources.
      JsonNode served = client.result("skills/list", JSON.createObjectNode());
      assertThat(served.toString()).contains("skill://open/").doesNotContain("skill://secret/");
      ObjectNode read = JSON.createObjectNode().put("uri", "skill://secret/SKILL.md");
      assertThat(client.result("resources/read", read).toString()).doesNotContain("The secret");

      List<String> listed = toolNames(client.result("tools/list", JSON.createObjectNode()));
      assertThat(listed).contains("__skill__open");
      assertThat(listed).noneMatch(n -> n.contains("secret") || n.contains("other"));
      JsonNode loadOpen =
          call(client, "load_skill", JSON.createObjectNode().put("skill_name", "open"));
      assertThat(loadOpen.path("isError").asBoolean()).as(loadOpen.toString()).isFalse();
      listed = toolNames(client.result("tools/list", JSON.createObjectNode()));
      assertThat(listed).contains("run").doesNotContain("hidden", "open__hidden");

      // A 2026-07-28 client, which lists every tool this small catalog has and loads nothing.
      List<String> modern = toolNames(modern(server, "tools/list", JSON.createObjectNode()));
      assertThat(modern).anyMatch(n -> n.endsWith("run"));
      assertThat(modern)
          .noneMatch(n -> n.contains("secret") || n.contains("other") || n.contains("hidden"));
      ObjectNode callSecret = JSON.createObjectNode().put("name", "call_tool");
      callSecret.putObject("arguments").put("name", "secret__run").putObject("arguments");
      JsonNode viaCallTool = modern(server, "tools/call", callSecret);
      assertThat(viaCallTool.has("error") || viaCallTool.at("/result/isError").asBoolean())
          .as(viaCallTool.toString())
          .isTrue();
      assertThat(viaCallTool.toString()).doesNotContain("touched");
      ObjectNode loadModern = JSON.createObjectNode().put("name", "load_skill");
      loadModern.putObject("arguments").put("skill_name", "other");
      JsonNode modernLoad = modern(server, "tools/call", loadModern);
      assertThat(modernLoad.path("result").path("structuredContent").path("code").asText())
          .isEqualTo("SKILL_DENIED");

      assertThat(secret.resolve("ran.marker")).doesNotExist();
      assertThat(other.resolve("ran.marker")).doesNotExist();
    }
  }

  private static JsonNode item(JsonNode items, String name) {
    for (JsonNode item : items) {
      if (item.path("name").asText().equals(name)) {
        return item;
      }
    }
    throw new AssertionError("no item " + name + " in " + items);
  }

  private static String status(JsonNode items, String name) {
    return item(items, name).path("status").asText();
  }

  private static List<String> names(JsonNode items) {
    List<String> out = new ArrayList<>();
    items.forEach(i -> out.add(i.path("name").asText()));
    return out;
  }

  private static List<String> toolNames(JsonNode listResult) {
    JsonNode tools =
        listResult.has("tools") ? listResult.get("tools") : listResult.at("/result/tools");
    List<String> out = new ArrayList<>();
    tools.forEach(t -> out.add(t.path("name").asText()));
    return out;
  }

  /** One 2026-07-28 request (no session); the JSON-RPC response. */
  private JsonNode modern(LaunchedServer server, String method, ObjectNode params)
      throws Exception {
    ObjectNode meta = params.putObject("_meta");
    meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
    meta.putObject("io.modelcontextprotocol/clientCapabilities");
    meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "it").put("version", "1");
    ObjectNode message =
        JSON.createObjectNode()
            .put("jsonrpc", "2.0")
            .put("id", ids.incrementAndGet())
            .put("method", method);
    message.set("params", params);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(server.uri())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", method)
            .POST(HttpRequest.BodyPublishers.ofString(message.toString()));
    if (params.path("name").isTextual()) {
      request.header("Mcp-Name", params.get("name").asText());
    }
    String body =
        http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
            .body()
            .strip();
    if (body.startsWith("{")) {
      return JSON.readTree(body);
    }
    JsonNode last = null;
    for (String line : body.split("\n")) {
      if (line.startsWith("data:")) {
        JsonNode node = JSON.readTree(line.substring(5).strip());
        if (node.has("result") || node.has("error")) {
          last = node;
        }
      }
    }
    return last;
  }
}

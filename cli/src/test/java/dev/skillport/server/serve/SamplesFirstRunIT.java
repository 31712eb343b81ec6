package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.runtime.jobs.RawMcpClient;
import dev.skillport.testsupport.LaunchedServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first run the README shows, {@code bin/skillport serve --http --skills samples/skills}: every
 * sample loads and answers, and nothing on stderr is an error. Then the same samples with {@code
 * --tool-listing catalog}: a 2026-07-28 client that finds prompts and resources by listing sees
 * them all.
 */
class SamplesFirstRunIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final AtomicInteger IDS = new AtomicInteger(1);

  @TempDir Path home;
  @TempDir Path files;

  @Test
  void readmeFirstCommand_everySampleLoadsAndAnswers_noErrorOnStderr() throws Exception {
    Path text = Files.writeString(files.resolve("notes.txt"), "one two\nthree\n");
    Path png = files.resolve("red.png");
    Files.copy(
        SamplesHttpServer.conformance().resolve("mcp-conformance/resources/red-pixel.png"), png);

    try (LaunchedServer server =
        LaunchedServer.start(home, "--skills", SamplesHttpServer.samples().toString())) {
      RawMcpClient client = new RawMcpClient(server.uri());
      List<JsonNode> answers = new ArrayList<>();
      answers.add(load(client, "file-stats"));
      answers.add(call(client, "file_stats__count_lines", "path", text.toString()));
      answers.add(load(client, "image-tools"));
      answers.add(call(client, "image_tools__image_info", "path", png.toString()));
      answers.add(load(client, "image-report"));
      answers.add(call(client, "image_report__scan_images", "folder", files.toString()));

      assertThat(answers)
          .allSatisfy(a -> assertThat(a.path("isError").asBoolean()).as(a.toString()).isFalse());
      assertThat(answers.get(1).at("/structuredContent/lines").asInt()).isEqualTo(2);
      assertThat(answers.get(3).at("/structuredContent/format").asText()).isEqualTo("png");
      assertThat(server.stderr().lines())
          .as(server.stderr())
          .noneMatch(l -> l.contains("ERROR") || l.matches(".*\\berror\\b.*"));
    }
  }

  @Test
  void catalogListing2026_promptsAndResourcesListedAsGetAndReadAnswer() throws Exception {
    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--no-bundled",
            "--tool-listing",
            "catalog",
            "--skills",
            SamplesHttpServer.samples().toString())) {
      JsonNode tools = modern(server.uri(), "tools/list", JSON.createObjectNode());
      JsonNode prompts = modern(server.uri(), "prompts/list", JSON.createObjectNode());
      JsonNode resources = modern(server.uri(), "resources/list", JSON.createObjectNode());
      ObjectNode get = JSON.createObjectNode().put("name", "describe_image");
      get.putObject("arguments").put("path", "/tmp/x.png");
      JsonNode got = modern(server.uri(), "prompts/get", get);
      String uri = "skill://image-report/assets/report-template.md";
      JsonNode read =
          modern(server.uri(), "resources/read", JSON.createObjectNode().put("uri", uri));

      // The tools are the catalog's (no skill tool listed), the prompts and resources all skills'.
      assertThat(tools.path("tools").findValuesAsText("name")).contains("call_tool");
      assertThat(tools.path("tools").findValuesAsText("name"))
          .noneMatch(n -> n.startsWith("image_tools__"));
      assertThat(prompts.path("prompts").findValuesAsText("name")).contains("describe_image");
      assertThat(got.path("messages").size()).isPositive();
      assertThat(resources.path("resources").findValuesAsText("uri")).contains(uri);
      assertThat(read.at("/contents/0/uri").asText()).isEqualTo(uri);
    }
  }

  private static JsonNode load(RawMcpClient client, String skill) throws Exception {
    ObjectNode params = JSON.createObjectNode().put("name", "load_skill");
    params.putObject("arguments").put("skill_name", skill);
    return client.call(params);
  }

  private static JsonNode call(RawMcpClient client, String tool, String key, String value)
      throws Exception {
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    params.putObject("arguments").put(key, value);
    return client.call(params);
  }

  /** A 2026-07-28 request (no session; version and capabilities in {@code _meta}); its result. */
  private static JsonNode modern(URI endpoint, String method, ObjectNode params) throws Exception {
    ObjectNode meta = params.putObject("_meta");
    meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
    meta.putObject("io.modelcontextprotocol/clientCapabilities");
    meta.putObject("io.modelcontextprotocol/clientInfo")
        .put("name", "first-run")
        .put("version", "1");
    ObjectNode message =
        JSON.createObjectNode()
            .put("jsonrpc", "2.0")
            .put("id", IDS.incrementAndGet())
            .put("method", method);
    message.set("params", params);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(endpoint)
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", method)
            .POST(HttpRequest.BodyPublishers.ofString(message.toString()));
    JsonNode name = params.path("name").isTextual() ? params.get("name") : params.get("uri");
    if (name != null) {
      request.header("Mcp-Name", name.asText());
    }
    String body =
        HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
            .body()
            .strip();
    JsonNode answer = null;
    if (body.startsWith("{")) {
      answer = JSON.readTree(body);
    } else {
      for (String line : body.split("\n")) {
        if (line.startsWith("data:")) {
          JsonNode node = JSON.readTree(line.substring(5).strip());
          if (node.has("result") || node.has("error")) {
            answer = node;
          }
        }
      }
    }
    assertThat(answer).as(body).isNotNull();
    assertThat(answer.has("error")).as(body).isFalse();
    return answer.path("result");
  }
}

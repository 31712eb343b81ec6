package dev.skillport.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.mcp.transport.StreamableHttpTransport;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.server.serve.ServeConfig;
import dev.skillport.server.serve.SkillportServer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog as an MCP App over Streamable HTTP, for clients of both protocol eras: the tool that
 * points to the {@code ui://} view is listed and answered only for a client that declares the
 * extension, and reading the view gives the HTML.
 */
class CatalogAppTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String UI_CAPABILITIES =
      "{\"extensions\":{\"io.modelcontextprotocol/ui\":{\"mimeTypes\":[\"text/html;profile=mcp-app\"]}}}";

  @TempDir static Path dir;
  private static SkillportServer server;
  private static StreamableHttpTransport http;
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    WebRoutesTest.write(
        dir.resolve("roots/hostile/SKILL.md"),
        """
        ---
        name: hostile
        description: "Says <script>alert('x')</script>"
        ---
        Body.
        """);
    WebRoutesTest.write(
        dir.resolve("roots/broken/SKILL.md"),
        "---\nname: broken\ndescription: Broken\nmetadata:\n  dcc-mcp:\n    tools: gone.yaml\n---\n");
    server =
        SkillportServer.start(
            ServeConfig.of(List.of(SkillRoot.of(dir.resolve("roots"), Scope.REPO)))
                .withWatch(false),
            "test");
    http = StreamableHttpTransport.builder(server.mcp()).host("127.0.0.1").port(0).build();
    http.start();
  }

  @AfterAll
  static void stop() {
    if (http != null) {
      http.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** A 2025-era session whose initialize declares {@code capabilities}. */
  private static String session(String capabilities) throws Exception {
    HttpResponse<String> init =
        post(
            null,
            "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":"
                + capabilities
                + ",\"clientInfo\":{\"name\":\"app-test\",\"version\":\"1\"}}}");
    String id = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    post(id, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    return id;
  }

  private static HttpResponse<String> post(String session, String body) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(http.uri())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      b.header("Mcp-Session-Id", session);
    }
    return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode rpc(String session, String method, String params) throws Exception {
    return JSON.readTree(
        post(
                session,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\""
                    + method
                    + "\",\"params\":"
                    + params
                    + "}")
            .body());
  }

  /** A 2026-07-28 request declaring {@code capabilities} in its own {@code _meta}. */
  private static JsonNode modern(String method, String name, String params, String capabilities)
      throws Exception {
    String meta =
        "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":"
            + capabilities
            + ",\"io.modelcontextprotocol/clientInfo\":{\"name\":\"app-test\",\"version\":\"1\"}}";
    String body =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\""
            + method
            + "\",\"params\":{"
            + params
            + (params.isEmpty() ? "" : ",")
            + meta
            + "}}";
    HttpRequest.Builder b =
        HttpRequest.newBuilder(http.uri())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", method)
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (name != null) {
      b.header("Mcp-Name", name);
    }
    String text = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString()).body();
    if (text.startsWith("event:") || text.startsWith("data:") || text.startsWith(":")) {
      String last = null;
      for (String line : text.split("\n")) {
        if (line.startsWith("data:")) {
          last = line.substring(5).trim();
        }
      }
      text = last;
    }
    return JSON.readTree(text);
  }

  private static List<String> toolNames(JsonNode list) {
    List<String> names = new ArrayList<>();
    list.at("/result/tools").forEach(t -> names.add(t.path("name").asText()));
    return names;
  }

  @Test
  void legacyClient_announcingTheExtension_seesTheToolPointingToTheView_andReadsTheHtml()
      throws Exception {
    String session = session(UI_CAPABILITIES);

    JsonNode init =
        JSON.readTree(
            post(
                    null,
                    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
                        + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}}")
                .body());
    JsonNode list = rpc(session, "tools/list", "{}");
    JsonNode tool = list.at("/result/tools/0");
    JsonNode resources = rpc(session, "resources/list", "{}");
    JsonNode read = rpc(session, "resources/read", "{\"uri\":\"ui://skillport/catalog\"}");
    JsonNode call =
        rpc(
            session,
            "tools/call",
            "{\"name\":\"show_skill_catalog\",\"arguments\":{\"skill_name\":\"broken\"}}");

    assertThat(init.at("/result/capabilities/extensions").has(CatalogApp.EXTENSION)).isTrue();
    assertThat(tool.path("name").asText()).isEqualTo(CatalogApp.TOOL);
    assertThat(tool.at("/_meta/ui/resourceUri").asText()).isEqualTo("ui://skillport/catalog");
    assertThat(tool.at("/annotations/readOnlyHint").asBoolean()).isTrue();
    assertThat(resources.at("/result/resources").toString()).contains("ui://skillport/catalog");
    JsonNode contents = read.at("/result/contents/0");
    assertThat(contents.path("mimeType").asText()).isEqualTo("text/html;profile=mcp-app");
    String html = contents.path("text").asText();
    assertThat(html)
        .startsWith("<!doctype html>")
        .contains("data-skill-name=\"broken\"", "SIBLING_MISSING", "ui/initialize")
        .contains("&lt;script&gt;alert(")
        .doesNotContain("<script>alert(", "src=\"/static", "href=\"/static");
    assertThat(call.at("/result/isError").asBoolean()).isFalse();
    assertThat(call.at("/result/structuredContent/skill_name").asText()).isEqualTo("broken");
    assertThat(call.at("/result/structuredContent/total").asInt()).isEqualTo(2);
    assertThat(call.at("/result/content/0/text").asText()).contains("2 skills");
  }

  @Test
  void legacyClient_withoutTheExtension_neitherSeesNorCallsNorReadsIt() throws Exception {
    String session = session("{}");

    JsonNode list = rpc(session, "tools/list", "{}");
    JsonNode resources = rpc(session, "resources/list", "{}");
    JsonNode read = rpc(session, "resources/read", "{\"uri\":\"ui://skillport/catalog\"}");
    JsonNode call =
        rpc(session, "tools/call", "{\"name\":\"show_skill_catalog\",\"arguments\":{}}");

    assertThat(toolNames(list)).contains("search_skills").doesNotContain(CatalogApp.TOOL);
    assertThat(resources.toString()).doesNotContain("ui://");
    assertThat(read.has("error")).isTrue();
    assertThat(call.at("/error/data/code").asText()).isEqualTo("ACTION_NOT_FOUND");
  }

  @Test
  void modernRequests_seeTheToolOnlyWhenTheirMetaDeclaresTheExtension() throws Exception {
    JsonNode with = modern("tools/list", null, "", UI_CAPABILITIES);
    JsonNode without = modern("tools/list", null, "", "{}");
    JsonNode read =
        modern(
            "resources/read",
            "ui://skillport/catalog",
            "\"uri\":\"ui://skillport/catalog\"",
            UI_CAPABILITIES);

    assertThat(toolNames(with)).first().isEqualTo(CatalogApp.TOOL);
    assertThat(toolNames(without)).isNotEmpty().doesNotContain(CatalogApp.TOOL);
    assertThat(read.at("/result/contents/0/text").asText()).contains("data-skill-name=\"hostile\"");
  }
}

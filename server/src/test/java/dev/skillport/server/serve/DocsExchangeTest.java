package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.skill.Scope;
import dev.skillport.api.tool.ToolHandlerProvider;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillRoot;
import dev.skillport.mcp.transport.StreamableHttpTransport;
import dev.skillport.server.app.HandlerRegistry;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The tool results {@code docs/writing-skills.md} shows are what the server answers. A JSON block
 * noted {@code <!-- result of TOOL ARGUMENTS -->} is the {@code result} of {@code tools/call TOOL}
 * with those arguments, made over Streamable HTTP in a 2025-11-25 session that loaded the guide's
 * greeting skill and activated its groups; the checkout's path in it reads {@code
 * /path/to/skillport}.
 */
class DocsExchangeTest {
  private static final Path REPO =
      Path.of(System.getProperty("skillport.repo", "..")).toAbsolutePath().normalize();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern NOTED =
      Pattern.compile("(?ms)^<!-- result of (\\w+) (\\{[^\\n]*\\}) -->\\n```json\\n(.*?)^```$");

  private URLClassLoader samples;
  private SkillportServer server;
  private StreamableHttpTransport http;
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private String session;
  private int nextId = 1;

  @BeforeEach
  void start() throws Exception {
    // The samples module's classes are kept off this module's test class path (they reach a server
    // as a plugin only), so the greeting skill's handler is loaded from its build output.
    samples =
        new URLClassLoader(
            new URL[] {REPO.resolve("samples/target/classes").toUri().toURL()},
            getClass().getClassLoader());
    ToolHandlerProvider greeting =
        (ToolHandlerProvider)
            samples
                .loadClass("dev.skillport.samples.guide.GreetingHandlers")
                .getConstructor()
                .newInstance();
    HandlerRegistry handlers = new HandlerRegistry();
    greeting.handlers().forEach(handlers::register);
    ServeConfig config =
        new ServeConfig(
            List.of(SkillRoot.of(REPO.resolve("samples/guide"), Scope.REPO)),
            LoaderOptions.DEFAULTS,
            List.of(),
            handlers,
            Duration.ofSeconds(20),
            false);
    server = SkillportServer.start(config, "0.0.0-docs");
    http = StreamableHttpTransport.builder(server.mcp()).host("127.0.0.1").port(0).build();
    http.start();
    http.setReady(true);
    server.transportStarted(http.uri().toString());
  }

  @AfterEach
  void stop() throws Exception {
    if (http != null) {
      http.close();
    }
    if (server != null) {
      server.close();
    }
    if (samples != null) {
      samples.close();
    }
  }

  /** Sends one request and returns its answer, from a JSON body or an event stream. */
  private JsonNode request(String method, JsonNode params) throws Exception {
    int id = nextId++;
    ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id);
    message.put("method", method).set("params", params);
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + "/mcp"))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(message)));
    if (session != null) {
      builder.header("Mcp-Session-Id", session);
      builder.header("MCP-Protocol-Version", "2025-11-25");
    }
    HttpResponse<String> response =
        client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    response.headers().firstValue("Mcp-Session-Id").ifPresent(s -> session = s);
    List<String> payloads = new ArrayList<>();
    if (response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
      for (String line : response.body().split("\n")) {
        if (line.startsWith("data:")) {
          payloads.add(line.substring(5).strip());
        }
      }
    } else {
      payloads.add(response.body());
    }
    for (String payload : payloads) {
      JsonNode answer = JSON.readTree(payload);
      if (answer.path("id").asInt() == id) {
        assertThat(answer.has("error")).as(payload).isFalse();
        return answer.get("result");
      }
    }
    throw new AssertionError("no answer to " + method + " in " + response.body());
  }

  private void notifyInitialized() throws Exception {
    HttpRequest notification =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + "/mcp"))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("Mcp-Session-Id", session)
            .header("MCP-Protocol-Version", "2025-11-25")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"))
            .build();
    assertThat(client.send(notification, HttpResponse.BodyHandlers.discarding()).statusCode())
        .isEqualTo(202);
  }

  private JsonNode call(String tool, JsonNode arguments) throws Exception {
    return request(
        "tools/call", JSON.createObjectNode().put("name", tool).set("arguments", arguments));
  }

  @Test
  void writingSkills_everyResultShownIsTheServersAnswer() throws Exception {
    request(
        "initialize",
        JSON.readTree(
            "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"docs\",\"version\":\"1\"}}"));
    notifyInitialized();
    JsonNode loaded = call("load_skill", JSON.readTree("{\"skill_name\":\"greeting\"}"));
    assertThat(loaded.path("isError").asBoolean(false)).as(loaded.toString()).isFalse();
    JsonNode activated =
        call(
            "activate_tool_group",
            JSON.readTree("{\"group_name\":\"loud\",\"skill_name\":\"greeting\"}"));
    assertThat(activated.path("isError").asBoolean(false)).as(activated.toString()).isFalse();

    String page = Files.readString(REPO.resolve("docs/writing-skills.md"), StandardCharsets.UTF_8);
    Matcher m = NOTED.matcher(page);
    int checked = 0;
    while (m.find()) {
      JsonNode result = call(m.group(1), JSON.readTree(m.group(2)));
      String actual =
          JSON.writeValueAsString(result).replace(REPO.toString(), "/path/to/skillport");
      assertThat(JSON.readTree(m.group(3)))
          .as("docs/writing-skills.md: result of %s %s", m.group(1), m.group(2))
          .isEqualTo(JSON.readTree(actual));
      checked++;
    }
    assertThat(checked).as("results shown").isGreaterThanOrEqualTo(2);
  }
}

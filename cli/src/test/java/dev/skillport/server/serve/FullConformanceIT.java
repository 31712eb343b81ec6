package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.InteropTools;
import dev.skillport.testsupport.LaunchedServer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole official MCP conformance suites against one server started with {@code bin/skillport},
 * as the README shows: the samples served with the {@code mcp-conformance} plugin jar the build
 * made ({@code samples/target/plugins}) and the fixture skill preloaded, plus an empty skill root
 * the fixture's list-change tools write a scratch skill into (watched, so hot reload announces it).
 * Suites: 0.1.16 {@code --suite all} (the 2025 era), 0.2.0-alpha.12 {@code --suite all} (each
 * scenario at its own revision: 2025-11-25 scenarios over sessions, 2026-07-28 and extension
 * scenarios statelessly), and 0.2.0-alpha.12 {@code --suite all} pinned to 2025-11-25 and to
 * 2026-07-28. Every scenario must pass: there is no baseline of expected failures (the server suite
 * has no authorization scenarios).
 */
class FullConformanceIT {
  private static final Logger LOG = LoggerFactory.getLogger(FullConformanceIT.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> FIXTURE_TOOLS =
      List.of(
          "test_simple_text",
          "test_image_content",
          "test_audio_content",
          "test_embedded_resource",
          "test_multiple_content_types",
          "test_tool_with_logging",
          "test_tool_with_progress",
          "test_error_handling",
          "test_reconnection",
          "test_sampling",
          "test_elicitation",
          "test_elicitation_sep1034_defaults",
          "test_elicitation_sep1330_enums",
          "json_schema_2020_12_tool");

  @TempDir static Path home;
  @TempDir static Path scratch;
  private static LaunchedServer http;

  @BeforeAll
  static void start() {
    Path plugins =
        Path.of(System.getProperty("skillport.conformancePlugins", "../samples/target/plugins"));
    http =
        LaunchedServer.start(
            home,
            Map.of("SKILLPORT_CONFORMANCE_SCRATCH", scratch.toString()),
            "--skills",
            SamplesHttpServer.samples().toString(),
            "--skills",
            SamplesHttpServer.conformance().toString(),
            "--skills",
            scratch.toString(),
            "--plugins",
            plugins.toAbsolutePath().toString(),
            "--preload",
            "mcp-conformance");
  }

  @AfterAll
  static void stop() {
    if (http != null) {
      http.close();
    }
  }

  @Test
  void suite016All_everyScenarioPasses() {
    assertEveryCheckPasses("0.1", 40, "--suite", "all");
  }

  @Test
  void suite020All_everyScenarioPassesAtItsOwnRevision() {
    assertEveryCheckPasses("0.2", 250, "--suite", "all");
  }

  @Test
  void suite020All_pinnedTo2025_everyScenarioPasses() {
    assertEveryCheckPasses("0.2", 70, "--suite", "all", "--spec-version", "2025-11-25");
  }

  @Test
  void suite020All_pinnedTo2026_everyScenarioPasses() {
    assertEveryCheckPasses("0.2", 130, "--suite", "all", "--spec-version", "2026-07-28");
  }

  /** Runs a suite; every check must pass, and at least {@code minChecks} must have run. */
  private static void assertEveryCheckPasses(String version, int minChecks, String... args) {
    ExternalCommand.Outcome run =
        ExternalCommand.of(InteropTools.conformance(version, http.uri(), args))
            .environment(InteropTools.environment())
            .timeout(Duration.ofMinutes(10))
            .run();

    Matcher total = Pattern.compile("Total: (\\d+) passed, (\\d+) failed").matcher(run.stdout());
    assertThat(total.find()).as(run.toString()).isTrue();
    LOG.info("Conformance {} {}: {}", version, String.join(" ", args), total.group());
    assertThat(run.exit()).as(run.toString()).isZero();
    assertThat(Integer.parseInt(total.group(2))).as(run.toString()).isZero();
    assertThat(Integer.parseInt(total.group(1))).as("checks run").isGreaterThan(minChecks);
  }

  /**
   * The suite passes some tool scenarios for an unknown tool and the list scenarios for empty
   * lists; check the fixture really is listed and answers.
   */
  @Test
  void fixture_listedOnANewSessionAndAnswersExactly() throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    HttpResponse<String> init =
        post(
            client,
            null,
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}");
    String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    post(client, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

    JsonNode tools =
        JSON.readTree(
                post(client, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}")
                    .body())
            .path("result")
            .path("tools");
    List<String> names = new ArrayList<>();
    tools.forEach(t -> names.add(t.path("name").asText()));
    JsonNode call =
        JSON.readTree(
            post(
                    client,
                    session,
                    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
                        + "\"params\":{\"name\":\"test_error_handling\"}}")
                .body());

    String prompts =
        post(client, session, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"prompts/list\"}").body();
    String resources =
        post(client, session, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/list\"}")
            .body();
    String templates =
        post(
                client,
                session,
                "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"resources/templates/list\"}")
            .body();

    assertThat(names).containsAll(FIXTURE_TOOLS);
    assertThat(prompts)
        .contains(
            "\"test_simple_prompt\"",
            "\"test_prompt_with_arguments\"",
            "\"test_prompt_with_embedded_resource\"",
            "\"test_prompt_with_image\"");
    assertThat(resources)
        .contains("test://static-text", "test://static-binary", "test://watched-resource");
    assertThat(templates).contains("test://template/{id}/data");
    assertThat(call.path("result").path("isError").asBoolean()).isTrue();
    assertThat(call.at("/result/content/0/text").asText())
        .isEqualTo("This tool intentionally returns an error for testing");
  }

  private static HttpResponse<String> post(HttpClient client, String session, String body)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(http.uri())
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      request.header("Mcp-Session-Id", session);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}

package dev.skillport.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.mcp.transport.StreamableHttpTransport;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.server.serve.ServeConfig;
import dev.skillport.server.serve.SkillportServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The REST skill API over a real server on 127.0.0.1 with two callers' tokens: discovery, calls
 * through the one call path (validation, refusals, jobs and their owners), batches, and the OpenAPI
 * document checked against the official OpenAPI 3.1 JSON Schema (2022-10-07) and every tool schema
 * in it against JSON Schema 2020-12.
 */
class RestApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String A = "rest-token-of-caller-a";
  private static final String B = "rest-token-of-caller-b";

  @TempDir static Path tmp;
  private static SkillportServer server;
  private static StreamableHttpTransport http;
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  @BeforeAll
  static void start() throws Exception {
    Path skills = tmp.resolve("skills");
    write(
        skills.resolve("mesh-tools/SKILL.md"),
        "---\nname: mesh-tools\ndescription: Mesh helpers\n"
            + "metadata:\n  dcc-mcp:\n    tools: tools.yaml\n---\nCount faces.\n");
    write(
        skills.resolve("mesh-tools/tools.yaml"),
        """
        tools:
          - name: count_faces
            description: Count faces
            handler: mesh.count
            input_schema:
              type: object
              required: [mesh]
              properties:
                mesh: {$ref: '#/definitions/name'}
                times: {type: integer}
              definitions:
                name: {type: string, minLength: 1}
          - name: remesh
            description: Remesh slowly
            handler: mesh.remesh
            execution: async
        """);
    Map<String, ToolHandler> handlers = new LinkedHashMap<>();
    handlers.put(
        "mesh.count",
        inv ->
            ToolResult.structured(
                JSON.createObjectNode().put("faces", 6 * inv.arguments().path("times").asInt(1))));
    handlers.put(
        "mesh.remesh",
        inv -> {
          Thread.sleep(300);
          return ToolResult.text("remeshed");
        });
    ServeConfig config =
        new ServeConfig(
            List.of(SkillRoot.of(skills, Scope.REPO)),
            LoaderOptions.DEFAULTS,
            List.of(),
            handlers,
            Duration.ofSeconds(20),
            false);
    server = SkillportServer.start(config, "1.2.3", List.of());
    http =
        StreamableHttpTransport.builder(server.mcp())
            .host("127.0.0.1")
            .port(0)
            .authTokens(List.of(A, B))
            .routes(server.httpRoutes())
            .build();
    http.start();
    http.setReady(true);
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

  private record Reply(int status, JsonNode body, HttpResponse<String> raw) {}

  private static Reply send(String token, String method, String path, String body)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + path))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    HttpResponse<String> response =
        CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    return new Reply(response.statusCode(), JSON.readTree(response.body()), response);
  }

  @Test
  void discovery_listsSkillsAndDescribesToolsWithTheirFullSchema() throws Exception {
    Reply skills = send(A, "GET", "/v1/skills", null);
    assertThat(skills.status()).isEqualTo(200);
    JsonNode mesh = skills.body().path("skills").get(0);
    assertThat(mesh.path("name").asText()).isEqualTo("mesh-tools");
    assertThat(mesh.path("tools").toString())
        .isEqualTo("[\"mesh-tools__count_faces\",\"mesh-tools__remesh\"]");

    Reply tool = send(A, "GET", "/v1/tools/mesh-tools__count_faces", null);
    assertThat(tool.status()).isEqualTo(200);
    assertThat(
            tool.body()
                .path("inputSchema")
                .path("definitions")
                .path("name")
                .path("minLength")
                .asInt())
        .isEqualTo(1);
    assertThat(send(A, "GET", "/v1/skills/mesh-tools", null).body().path("instructions").asText())
        .contains("Count faces.");
    Reply unknown = send(A, "GET", "/v1/tools/mesh-tools__nope", null);
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.body().path("code").asText()).isEqualTo("ACTION_NOT_FOUND");
    assertThat(send(A, "GET", "/v1/skills/nope", null).status()).isEqualTo(404);
  }

  @Test
  void auth_withoutAnAcceptedToken_isRefused401() throws Exception {
    Reply none = send(null, "GET", "/v1/skills", null);
    assertThat(none.status()).isEqualTo(401);
    assertThat(none.body().path("code").asText()).isEqualTo("UNAUTHORIZED");
    assertThat(send("wrong-token", "POST", "/v1/call", "{}").status()).isEqualTo(401);
  }

  @Test
  void call_runsThroughTheCallPath_validatingArgumentsAndNamingFailuresByCode() throws Exception {
    Reply ok =
        send(
            A,
            "POST",
            "/v1/call",
            "{\"tool\":\"mesh-tools__count_faces\",\"arguments\":{\"mesh\":\"cube\",\"times\":2}}");
    assertThat(ok.status()).as(ok.body().toString()).isEqualTo(200);
    assertThat(ok.body().path("structuredContent").path("faces").asInt()).isEqualTo(12);
    assertThat(ok.body().path("tool").asText()).isEqualTo("mesh-tools__count_faces");

    Reply perTool =
        send(A, "POST", "/v1/tools/mesh-tools__count_faces/call", "{\"mesh\":\"cube\"}");
    assertThat(perTool.status()).isEqualTo(200);
    assertThat(perTool.body().path("structuredContent").path("faces").asInt()).isEqualTo(6);

    Reply invalid =
        send(
            A,
            "POST",
            "/v1/call",
            "{\"tool\":\"mesh-tools__count_faces\",\"arguments\":{\"mesh\":\"\"}}");
    assertThat(invalid.status()).isEqualTo(400);
    assertThat(invalid.body().path("code").asText()).isEqualTo("INVALID_ARGUMENTS");
    assertThat(invalid.body().path("isError").asBoolean()).isTrue();

    Reply unknown = send(A, "POST", "/v1/call", "{\"tool\":\"no_such_tool\"}");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.body().path("code").asText()).isEqualTo("ACTION_NOT_FOUND");

    assertThat(send(A, "POST", "/v1/call", "{\"arguments\":{}}").body().path("code").asText())
        .isEqualTo("INVALID_REQUEST");
    assertThat(send(A, "POST", "/v1/call", "not json").body().path("code").asText())
        .isEqualTo("PARSE_ERROR");
    assertThat(send(A, "GET", "/v1/call", null).status()).isEqualTo(405);
    assertThat(send(A, "GET", "/v1/nothing", null).status()).isEqualTo(404);
  }

  @Test
  void asyncCall_isAJobOfItsCaller_anotherCallerGets404() throws Exception {
    Reply queued = send(A, "POST", "/v1/call", "{\"tool\":\"mesh-tools__remesh\"}");
    assertThat(queued.status()).as(queued.body().toString()).isEqualTo(202);
    String id = queued.body().path("structuredContent").path("job_id").asText();
    assertThat(queued.raw().headers().firstValue("Location")).contains("/v1/jobs/" + id);

    Reply other = send(B, "GET", "/v1/jobs/" + id, null);
    assertThat(other.status()).isEqualTo(404);
    assertThat(other.body().path("code").asText()).isEqualTo("JOB_NOT_FOUND");
    assertThat(send(B, "DELETE", "/v1/jobs/" + id, null).status()).isEqualTo(404);

    JsonNode job = send(A, "GET", "/v1/jobs/" + id, null).body();
    for (int i = 0; i < 100 && !job.path("status").asText().equals("completed"); i++) {
      Thread.sleep(50);
      job = send(A, "GET", "/v1/jobs/" + id, null).body();
    }
    assertThat(job.path("status").asText()).as(job.toString()).isEqualTo("completed");
    assertThat(job.toString()).contains("remeshed");
    Reply late = send(A, "DELETE", "/v1/jobs/" + id, null);
    assertThat(late.status()).isEqualTo(409);
    assertThat(server.metrics().scrape()).isNotEmpty();
    assertThat(new String(server.metrics().scrape(), StandardCharsets.UTF_8))
        .contains("skillport_rest_requests_total{operation=\"job\",status=\"404\"}");
  }

  @Test
  void batch_answersEachCallInOrder_andStopsOnErrorWhenAsked() throws Exception {
    Reply batch =
        send(
            A,
            "POST",
            "/v1/call_batch",
            """
            {"stop_on_error": true, "calls": [
              {"id": "one", "tool": "mesh-tools__count_faces", "arguments": {"mesh": "a"}},
              {"id": "two", "tool": "mesh-tools__count_faces", "arguments": {}},
              {"id": "three", "tool": "mesh-tools__count_faces", "arguments": {"mesh": "c"}}]}
            """);
    assertThat(batch.status()).isEqualTo(200);
    JsonNode results = batch.body().path("results");
    assertThat(results.get(0).path("status").asInt()).isEqualTo(200);
    assertThat(results.get(1).path("status").asInt()).isEqualTo(400);
    assertThat(results.get(2).path("skipped").asBoolean()).isTrue();
    assertThat(results.get(2).path("id").asText()).isEqualTo("three");
  }

  @Test
  void openApi_isAValidOpenApi31Document_withAnOperationPerTool() throws Exception {
    Reply reply = send(A, "GET", "/v1/openapi.json", null);
    assertThat(reply.status()).isEqualTo(200);
    JsonNode doc = reply.body();
    SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    Schema oas;
    try (InputStream in =
        RestApiTest.class.getResourceAsStream("/openapi/oas-3.1-schema-2022-10-07.json")) {
      oas = registry.getSchema(in);
    }
    List<Error> errors = oas.validate(doc);
    assertThat(errors).as("OpenAPI 3.1 schema errors").isEmpty();

    JsonNode op = doc.path("paths").path("/v1/tools/mesh-tools__count_faces/call").path("post");
    assertThat(
            op.path("requestBody")
                .path("content")
                .path("application/json")
                .path("schema")
                .path("$ref")
                .asText())
        .isEqualTo("#/components/schemas/mesh-tools__count_faces");
    JsonNode schema = doc.path("components").path("schemas").path("mesh-tools__count_faces");
    assertThat(schema.path("properties").path("mesh").path("$ref").asText())
        .isEqualTo("#/components/schemas/mesh-tools__count_faces/definitions/name");
    assertThat(doc.path("paths").has("/v1/tools/mesh-tools__remesh/call")).isTrue();

    Schema metaschema =
        registry.getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
    doc.path("components")
        .path("schemas")
        .properties()
        .forEach(e -> assertThat(metaschema.validate(e.getValue())).as(e.getKey()).isEmpty());

    // A document that breaks the rules is caught: the check can fail.
    ((com.fasterxml.jackson.databind.node.ObjectNode) doc).remove("info");
    assertThat(oas.validate(doc)).isNotEmpty();
  }
}

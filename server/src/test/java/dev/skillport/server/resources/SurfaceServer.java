package dev.skillport.server.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.resource.ResourceProvider;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.mcp.transport.StreamableHttpTransport;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.server.serve.ServeConfig;
import dev.skillport.server.serve.SkillportServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * A real Skillport server on 127.0.0.1 over Streamable HTTP, serving skill folders written into a
 * test's temporary directory, with the official Java SDK client and a raw JSON-RPC client for the
 * methods the SDK does not know ({@code skills/list}, …).
 */
public final class SurfaceServer implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final SkillportServer server;
  private final StreamableHttpTransport http;

  private SurfaceServer(SkillportServer server, StreamableHttpTransport http) {
    this.server = server;
    this.http = http;
  }

  /**
   * Entries per list page here: small, so that the surfaces' tests walk their lists through several
   * pages and their cursors.
   */
  static final int PAGE_SIZE = 50;

  /** Starts a server on {@code skills} with these providers, watching the folder for changes. */
  public static SurfaceServer start(Path skills, List<ResourceProvider> providers)
      throws Exception {
    return start(skills, providers, true);
  }

  /** {@link #start(Path, List)}, watching the skill folder for changes or not. */
  public static SurfaceServer start(Path skills, List<ResourceProvider> providers, boolean watch)
      throws Exception {
    ServeConfig config =
        new ServeConfig(
            List.of(SkillRoot.of(skills, Scope.REPO)),
            LoaderOptions.DEFAULTS,
            List.of(),
            Map.of(),
            Duration.ofSeconds(20),
            watch,
            providers,
            PAGE_SIZE);
    SkillportServer server = SkillportServer.start(config, "test");
    StreamableHttpTransport http =
        StreamableHttpTransport.builder(server.mcp()).host("127.0.0.1").port(0).build();
    http.start();
    http.setReady(true);
    return new SurfaceServer(server, http);
  }

  /** Writes a UTF-8 text file, creating its folders. */
  public static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  public String url() {
    return "http://127.0.0.1:" + http.port() + "/mcp";
  }

  /** An initialized SDK client; {@code spec} adds consumers. */
  public McpSyncClient client(UnaryOperator<McpClient.SyncSpec> spec) {
    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + http.port())
            .endpoint("/mcp")
            .build();
    McpSyncClient client =
        spec.apply(McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30))).build();
    client.initialize();
    return client;
  }

  public static McpSchema.CallToolRequest call(String name, Map<String, Object> args) {
    return McpSchema.CallToolRequest.builder(name).arguments(args).build();
  }

  /** A raw JSON-RPC session: initialize, then plain requests whose whole response is returned. */
  public Raw raw() throws Exception {
    Raw raw = new Raw(url());
    raw.initialize();
    return raw;
  }

  @Override
  public void close() {
    http.close();
    server.close();
  }

  /** A minimal JSON-RPC client over Streamable HTTP. */
  public static final class Raw {
    private final HttpClient client =
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String url;
    private final AtomicInteger ids = new AtomicInteger();
    private String session;
    private JsonNode initializeResult;

    Raw(String url) {
      this.url = url;
    }

    void initialize() throws Exception {
      ObjectNode params = JSON.createObjectNode().put("protocolVersion", "2025-11-25");
      params.putObject("capabilities");
      params.putObject("clientInfo").put("name", "raw").put("version", "1");
      JsonNode init = request("initialize", params);
      if (!init.has("result")) {
        throw new IllegalStateException("initialize failed: " + init);
      }
      initializeResult = init.get("result");
      post(
          JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "notifications/initialized"));
    }

    /** The {@code result} of this session's {@code initialize}. */
    public JsonNode initializeResult() {
      return initializeResult;
    }

    /** Sends a request and returns the whole JSON-RPC response (result or error). */
    public JsonNode request(String method, JsonNode params) throws Exception {
      ObjectNode msg =
          JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ids.incrementAndGet());
      msg.put("method", method).set("params", params);
      HttpResponse<String> response = post(msg);
      String type = response.headers().firstValue("Content-Type").orElse("");
      if (type.startsWith("text/event-stream")) {
        for (String line : response.body().split("\n")) {
          if (line.startsWith("data:")) {
            JsonNode event = JSON.readTree(line.substring(5).strip());
            if (event.has("id") && event.get("id").asInt() == msg.get("id").asInt()) {
              return event;
            }
          }
        }
        throw new IllegalStateException("no response in " + response.body());
      }
      return JSON.readTree(response.body());
    }

    private HttpResponse<String> post(JsonNode message) throws Exception {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(URI.create(url))
              .timeout(Duration.ofSeconds(30))
              .header("Content-Type", "application/json")
              .header("Accept", "application/json, text/event-stream")
              .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(message)));
      if (session != null) {
        b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
      }
      HttpResponse<String> response = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
      response.headers().firstValue("Mcp-Session-Id").ifPresent(id -> session = id);
      return response;
    }
  }
}

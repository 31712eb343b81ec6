package dev.skillport.benchmarks.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.benchmarks.loader.GeneratedTree;
import dev.skillport.benchmarks.loader.SkillTreeGenerator;
import dev.skillport.mcp.RequestMeta;
import dev.skillport.mcp.transport.StreamableHttpTransport;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.server.app.ListingPolicy;
import dev.skillport.server.app.SkillportService;
import dev.skillport.server.serve.ServeConfig;
import dev.skillport.server.serve.ServeExecution;
import dev.skillport.server.serve.SkillportServer;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@code tools/list} costs a client, in bytes and tools, for generated catalogs of 10, 100 and
 * 1,000 skills (five tools each): a 2025 session before and after {@code load_skill}, and a
 * 2026-07-28 client under each listing policy ({@code all}, {@code catalog}, {@code auto} with the
 * default threshold); also the size of one 2026 {@code load_skill} result, which carries the
 * skill's full tool schemas. Bytes are the JSON of the {@code result} object, every page summed.
 *
 * <pre>
 * java -cp benchmarks.jar dev.skillport.benchmarks.load.ListingSizes [--skills 10,100,1000]
 * </pre>
 */
public final class ListingSizes {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String MODERN = "2026-07-28";
  private static final String LEGACY = "2025-11-25";

  private final URI url;
  private final HttpClient client =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(10))
          .version(HttpClient.Version.HTTP_1_1)
          .build();

  private ListingSizes(URI url) {
    this.url = url;
  }

  /** The stateless {@code tools/list} of a server listing with {@code policy}, as a table cell. */
  private static String statelessList(ServeConfig config, ListingPolicy policy) throws Exception {
    try (ServeExecution execution =
            ServeExecution.inMemory(config)
                .withListing(policy, SkillportService.DEFAULT_AUTO_THRESHOLD);
        SkillportServer server = SkillportServer.start(config, "bench", execution);
        StreamableHttpTransport http =
            StreamableHttpTransport.builder(server.mcp()).host("127.0.0.1").port(0).build()) {
      http.start();
      http.setReady(true);
      return new ListingSizes(http.uri()).list(null).cell();
    }
  }

  /** One list: its tools and its bytes. */
  record Size(int tools, long bytes) {
    String cell() {
      return String.format(Locale.ROOT, "%,d tools, %s", tools, kib(bytes));
    }

    private static String kib(long bytes) {
      return bytes < 10_240
          ? String.format(Locale.ROOT, "%,d B", bytes)
          : String.format(Locale.ROOT, "%,.0f KiB", bytes / 1024.0);
    }
  }

  public static void main(String[] argv) throws Exception {
    List<Integer> counts = List.of(10, 100, 1000);
    for (int i = 0; i < argv.length; i += 2) {
      switch (argv[i]) {
        case "--skills" ->
            counts = java.util.Arrays.stream(argv[i + 1].split(",")).map(Integer::valueOf).toList();
        default -> throw new IllegalArgumentException("unknown option " + argv[i]);
      }
    }
    PrintStream out = System.out;
    out.println(
        "| skills | 2025 session, fresh | 2025 after load_skill | 2026 all | 2026 catalog | 2026"
            + " auto (threshold "
            + SkillportService.DEFAULT_AUTO_THRESHOLD
            + ") | 2026 load_skill result |");
    out.println("|---|---|---|---|---|---|---|");
    for (int count : counts) {
      GeneratedTree tree =
          SkillTreeGenerator.seeded(11).write(Files.createTempDirectory("skillport-lists"), count);
      try {
        out.println(measure(tree, count));
      } finally {
        tree.delete();
      }
    }
  }

  private static String measure(GeneratedTree tree, int count) throws Exception {
    ServeConfig config =
        ServeConfig.of(List.of(SkillRoot.of(tree.root(), Scope.REPO))).withWatch(false);
    String skill = tree.skillNames().get(0);
    try (SkillportServer server = SkillportServer.start(config, "bench");
        StreamableHttpTransport http =
            StreamableHttpTransport.builder(server.mcp()).host("127.0.0.1").port(0).build()) {
      http.start();
      http.setReady(true);
      ListingSizes probe = new ListingSizes(http.uri());
      String session = probe.initialize();
      Size fresh = probe.list(session);
      probe.send(session, "tools/call", call("load_skill", skill));
      Size loaded = probe.list(session);
      List<String> cells = new ArrayList<>();
      for (ListingPolicy policy : ListingPolicy.values()) {
        cells.add(statelessList(config, policy));
      }
      long loadSkill = bytes(probe.send(null, "tools/call", call("load_skill", skill)));
      return String.format(
          Locale.ROOT,
          "| %,d | %s | %s | %s | %s | %s | %s |",
          count,
          fresh.cell(),
          loaded.cell(),
          cells.get(0),
          cells.get(1),
          cells.get(2),
          new Size(0, loadSkill).cell().replace("0 tools, ", ""));
    }
  }

  private static ObjectNode call(String tool, String skill) {
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    params.putObject("arguments").put("skill_name", skill);
    return params;
  }

  private static long bytes(JsonNode response) throws IOException {
    if (!response.has("result")) {
      throw new IllegalStateException("no result: " + response);
    }
    return JSON.writeValueAsBytes(response.get("result")).length;
  }

  /** Every page of {@code tools/list}, in the session given or statelessly when it is null. */
  private Size list(String session) throws Exception {
    int tools = 0;
    long bytes = 0;
    String cursor = null;
    do {
      ObjectNode params = JSON.createObjectNode();
      if (cursor != null) {
        params.put("cursor", cursor);
      }
      JsonNode response = send(session, "tools/list", params);
      bytes += bytes(response);
      tools += response.path("result").path("tools").size();
      cursor = response.path("result").path("nextCursor").asText(null);
    } while (cursor != null);
    return new Size(tools, bytes);
  }

  private String initialize() throws IOException, InterruptedException {
    ObjectNode params = JSON.createObjectNode().put("protocolVersion", LEGACY);
    params.putObject("capabilities");
    params.putObject("clientInfo").put("name", "skillport-lists").put("version", "1");
    HttpResponse<String> r = post(null, "initialize", message(0, "initialize", params));
    String id =
        r.headers()
            .firstValue("Mcp-Session-Id")
            .orElseThrow(() -> new IllegalStateException("no session id: " + r.body()));
    post(
        id,
        "notifications/initialized",
        JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "notifications/initialized"));
    return id;
  }

  private int nextId = 1;

  private JsonNode send(String session, String method, ObjectNode params) throws Exception {
    if (session == null) {
      ObjectNode meta = params.putObject("_meta");
      meta.put(RequestMeta.PROTOCOL_VERSION, MODERN);
      meta.putObject(RequestMeta.CLIENT_CAPABILITIES);
      meta.putObject(RequestMeta.CLIENT_INFO).put("name", "skillport-lists").put("version", "1");
    }
    return McpLoadHarness.body(post(session, method, message(nextId++, method, params)).body());
  }

  private static ObjectNode message(int id, String method, JsonNode params) {
    ObjectNode m =
        JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
    m.set("params", params);
    return m;
  }

  private HttpResponse<String> post(String session, String method, ObjectNode message)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(url)
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(message.toString(), StandardCharsets.UTF_8));
    if (session != null) {
      b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", LEGACY);
    } else if (!method.equals("initialize")) {
      b.header("MCP-Protocol-Version", MODERN).header("Mcp-Method", method);
      String name = message.path("params").path("name").asText(null);
      if (name != null) {
        b.header("Mcp-Name", name);
      }
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }
}

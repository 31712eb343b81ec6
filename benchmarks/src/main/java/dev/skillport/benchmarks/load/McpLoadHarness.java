package dev.skillport.benchmarks.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.mcp.transport.StreamableHttpTransport;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
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
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Drives an MCP server over Streamable HTTP with N concurrent clients calling one tool, and reports
 * calls per second, p50 and p99. Without {@code --url} it starts Skillport in-process on 127.0.0.1
 * with a trivial Java tool ({@code bench_echo}) and measures that.
 *
 * <p>{@code --era 2025} (the default) gives each client a session ({@code initialize}, then {@code
 * load_skill}); {@code --era 2026} sends every call as a stateless 2026-07-28 request (no session;
 * the {@code MCP-Protocol-Version}, {@code Mcp-Method} and {@code Mcp-Name} headers and the {@code
 * _meta} envelope on each), so the tool must be listed ({@code serve --tool-listing all}). With
 * {@code --server-pid PID} (a server on this machine) it also reports the server's CPU time per
 * call over the measured window, from {@code /proc/PID/stat}.
 *
 * <pre>
 * java -cp benchmarks.jar dev.skillport.benchmarks.load.McpLoadHarness \
 *     [--url http://127.0.0.1:8765/mcp] [--era 2025|2026] [--sessions 16] [--seconds 20]
 *     [--warmup 5] [--tool NAME] [--args JSON] [--load-skill SKILL] [--server-pid PID]
 * </pre>
 */
public final class McpLoadHarness {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String MODERN = "2026-07-28";

  private final URI url;
  private final boolean modern;
  private final HttpClient client =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(10))
          .version(HttpClient.Version.HTTP_1_1)
          .build();

  McpLoadHarness(URI url) {
    this(url, false);
  }

  McpLoadHarness(URI url, boolean modern) {
    this.url = url;
    this.modern = modern;
  }

  public static void main(String[] argv) throws Exception {
    String url = null;
    int sessions = 16;
    int seconds = 20;
    int warmup = 5;
    String tool = "bench_echo";
    String args = "{\"text\":\"hello\"}";
    String loadSkill = "bench-echo";
    String era = "2025";
    long serverPid = -1;
    for (int i = 0; i < argv.length; i += 2) {
      String v = argv[i + 1];
      switch (argv[i]) {
        case "--url" -> url = v;
        case "--sessions" -> sessions = Integer.parseInt(v);
        case "--seconds" -> seconds = Integer.parseInt(v);
        case "--warmup" -> warmup = Integer.parseInt(v);
        case "--tool" -> tool = v;
        case "--args" -> args = v;
        case "--load-skill" -> loadSkill = v.isEmpty() ? null : v;
        case "--era" -> era = v;
        case "--server-pid" -> serverPid = Long.parseLong(v);
        default -> throw new IllegalArgumentException("unknown option " + argv[i]);
      }
    }
    PrintStream out = System.out;
    if (!era.equals("2025") && !era.equals("2026")) {
      throw new IllegalArgumentException("--era is 2025 or 2026, not " + era);
    }
    boolean modern = era.equals("2026");
    if (url != null) {
      McpLoadHarness harness = new McpLoadHarness(URI.create(url), modern);
      harness.serverPid = serverPid;
      LatencyReport r =
          harness.run(sessions, warmup, seconds, tool, JSON.readTree(args), loadSkill);
      out.println(
          era
              + " era, "
              + sessions
              + " clients: "
              + r.describe()
              + (harness.serverCpuSeconds >= 0
                  ? String.format(
                      java.util.Locale.ROOT,
                      ", server CPU %.1f us/call",
                      harness.serverCpuSeconds * 1e6 / Math.max(1, r.count()))
                  : ""));
      return;
    }
    Path skills = Files.createTempDirectory("skillport-load");
    Path dir = skills.resolve("bench-echo");
    Files.createDirectories(dir);
    Files.writeString(
        dir.resolve("SKILL.md"),
        "---\nname: bench-echo\ndescription: Echoes text back, for load tests\nmetadata:\n  dcc-mcp:\n    tools: tools.yaml\n---\n");
    Files.writeString(
        dir.resolve("tools.yaml"),
        "tools:\n  - name: bench_echo\n    description: Echo\n    handler: bench.echo\n"
            + "    input_schema: {type: object, properties: {text: {type: string}}}\n");
    ServeConfig config =
        ServeConfig.of(List.of(SkillRoot.of(skills, Scope.REPO)))
            .withWatch(false)
            .withHandlers(
                Map.of(
                    "bench.echo", inv -> ToolResult.text(inv.arguments().path("text").asText())));
    ServeExecution inMemory = ServeExecution.inMemory(config);
    try (ServeExecution execution =
            modern
                ? inMemory.withListing(
                    dev.skillport.server.app.ListingPolicy.ALL,
                    dev.skillport.server.app.SkillportService.DEFAULT_AUTO_THRESHOLD)
                : inMemory;
        SkillportServer server = SkillportServer.start(config, "bench", execution);
        StreamableHttpTransport http =
            StreamableHttpTransport.builder(server.mcp())
                .host("127.0.0.1")
                .port(0)
                .maxSessions(10_000)
                .build()) {
      http.start();
      http.setReady(true);
      LatencyReport r =
          new McpLoadHarness(http.uri(), modern)
              .run(sessions, warmup, seconds, tool, JSON.readTree(args), loadSkill);
      out.println(
          "in-process Skillport, Java tool bench_echo, "
              + era
              + " era, "
              + sessions
              + " clients: "
              + r.describe());
    } finally {
      deleteTree(skills);
    }
  }

  /** Removes the generated skill folder, so a run leaves nothing in the temp folder. */
  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  LatencyReport run(
      int sessions, int warmupSeconds, int seconds, String tool, JsonNode args, String loadSkill)
      throws Exception {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < sessions; i++) {
      if (modern) {
        ids.add(null);
        continue;
      }
      String id = initialize();
      if (loadSkill != null) {
        call(
            id,
            1,
            "tools/call",
            toolCall("load_skill", JSON.createObjectNode().put("skill_name", loadSkill)));
      }
      ids.add(id);
    }
    ExecutorService pool = Executors.newFixedThreadPool(sessions);
    try {
      drive(pool, ids, warmupSeconds, tool, args, new AtomicLong());
      long cpuBefore = cpuTicks(serverPid);
      long start = System.nanoTime();
      List<long[]> perSession = drive(pool, ids, seconds, tool, args, new AtomicLong());
      double elapsed = (System.nanoTime() - start) / 1e9;
      long cpuAfter = cpuTicks(serverPid);
      if (cpuBefore >= 0 && cpuAfter >= 0) {
        serverCpuSeconds = (cpuAfter - cpuBefore) / (double) TICKS_PER_SECOND;
      }
      int total = perSession.stream().mapToInt(a -> a.length).sum();
      long[] all = new long[total];
      int at = 0;
      for (long[] a : perSession) {
        System.arraycopy(a, 0, all, at, a.length);
        at += a.length;
      }
      return LatencyReport.of(all, elapsed);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
  private static final int TICKS_PER_SECOND = 100;

  private long serverPid = -1;
  private double serverCpuSeconds = -1;

  /** utime + stime of {@code pid} in clock ticks, or -1 when unknown. */
  static long cpuTicks(long pid) {
    if (pid <= 0) {
      return -1;
    }
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // Fields after the command name (which may hold spaces) start after the last ')'.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private List<long[]> drive(
      ExecutorService pool,
      List<String> ids,
      int seconds,
      String tool,
      JsonNode args,
      AtomicLong errors)
      throws Exception {
    long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
    List<Future<long[]>> futures = new ArrayList<>();
    for (String id : ids) {
      futures.add(
          pool.submit(
              () -> {
                long[] samples = new long[1 << 16];
                int n = 0;
                int requestId = 10;
                ObjectNode params =
                    modern ? modernParams(toolCall(tool, args)) : toolCall(tool, args);
                while (System.nanoTime() < end) {
                  long t0 = System.nanoTime();
                  JsonNode response = call(id, requestId++, "tools/call", params);
                  long t1 = System.nanoTime();
                  if (response.has("error")
                      || response.path("result").path("isError").asBoolean(false)) {
                    errors.incrementAndGet();
                    throw new IllegalStateException("call failed: " + response);
                  }
                  if (n == samples.length) {
                    samples = java.util.Arrays.copyOf(samples, n * 2);
                  }
                  samples[n++] = t1 - t0;
                }
                return java.util.Arrays.copyOf(samples, n);
              }));
    }
    List<long[]> out = new ArrayList<>();
    for (Future<long[]> f : futures) {
      out.add(f.get());
    }
    return out;
  }

  private static ObjectNode toolCall(String name, JsonNode args) {
    ObjectNode params = JSON.createObjectNode().put("name", name);
    params.set("arguments", args);
    return params;
  }

  private String initialize() throws IOException, InterruptedException {
    ObjectNode params = JSON.createObjectNode().put("protocolVersion", "2025-11-25");
    params.putObject("capabilities");
    params.putObject("clientInfo").put("name", "skillport-load").put("version", "1");
    HttpResponse<String> r = post(null, message(0, "initialize", params));
    String id =
        r.headers()
            .firstValue("Mcp-Session-Id")
            .orElseThrow(() -> new IllegalStateException("no session id: " + r.body()));
    ObjectNode note =
        JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "notifications/initialized");
    post(id, note);
    return id;
  }

  private JsonNode call(String session, int id, String method, JsonNode params)
      throws IOException, InterruptedException {
    return body(post(session, message(id, method, params)).body());
  }

  /** The params of a stateless call: the tool's, with the per-request {@code _meta} envelope. */
  private static ObjectNode modernParams(JsonNode params) {
    ObjectNode p = params.deepCopy();
    ObjectNode meta = p.putObject("_meta");
    meta.put("io.modelcontextprotocol/protocolVersion", MODERN);
    meta.putObject("io.modelcontextprotocol/clientCapabilities");
    meta.putObject("io.modelcontextprotocol/clientInfo")
        .put("name", "skillport-load")
        .put("version", "1");
    return p;
  }

  private static ObjectNode message(int id, String method, JsonNode params) {
    ObjectNode m =
        JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
    m.set("params", params);
    return m;
  }

  private HttpResponse<String> post(String session, JsonNode message)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(url)
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(message.toString(), StandardCharsets.UTF_8));
    if (session != null) {
      b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
    } else if (modern) {
      String method = message.path("method").asText();
      b.header("MCP-Protocol-Version", MODERN).header("Mcp-Method", method);
      JsonNode name = message.path("params").path("name");
      if (name.isTextual()) {
        b.header("Mcp-Name", name.asText());
      }
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** The JSON-RPC response in a plain JSON body or in the data lines of an event stream. */
  static JsonNode body(String text) throws IOException {
    String t = text.strip();
    if (t.startsWith("{")) {
      return JSON.readTree(t);
    }
    JsonNode last = JSON.createObjectNode();
    for (String line : t.split("\n")) {
      if (line.startsWith("data:")) {
        String data = line.substring(5).strip();
        if (data.startsWith("{")) {
          JsonNode node = JSON.readTree(data);
          if (node.has("result") || node.has("error")) {
            last = node;
          }
        }
      }
    }
    return last;
  }
}

package dev.skillport.benchmarks.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.benchmarks.peer.BenchEchoHandlers;
import dev.skillport.benchmarks.peer.BenchFixture;
import dev.skillport.testsupport.LaunchedServer;
import dev.skillport.testsupport.PostgresCluster;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Tasks created to completed per second, their latency and the CPU each costs, on the job stores:
 * {@code mvstore:} against {@code postgresql:} on one instance, and one against three instances on
 * one PostgreSQL behind HAProxy. Each instance is {@code bin/skillport serve --http} on the build's
 * jar; PostgreSQL is a cluster of the installed server started into a temporary folder, a fresh
 * database per configuration; HAProxy runs the round-robin configuration of {@code
 * docs/running.md}'s fleet section, pointed at the instances.
 *
 * <p>A task is a 2026-07-28 {@code tools/call} of the bundled {@code skillport-diagnostics} tool
 * {@code server_status} (an in-process handler, so the store's cost is not hidden behind a script's
 * process start) with {@code _meta.dcc.async}, then {@code tasks/get} every 5 ms until it reads
 * completed; its latency is from sending the call to reading completed. Each client runs one task
 * after another. CPU per task is the instances' CPU time (from {@code /proc}) and, apart, the
 * PostgreSQL processes' (the postmaster and its children), over the measured tasks; it includes the
 * polls.
 *
 * <p>With {@code --nap MS} a task is instead a tool of the benchmark plugin whose Java handler
 * sleeps {@code MS} milliseconds (a job that waits on something other than the server's CPU: a DCC,
 * a render, a network), and {@code --job-workers N} gives each instance N job workers. Then a
 * task's time is mostly its nap, and the rate shows whether the instances' workers add up: one
 * instance runs at most N / nap tasks a second, three at most three times that, whichever instance
 * took the call. {@code --poll MS} spaces the clients' polls (5 ms by default), so that with many
 * clients waiting on naps their polls do not take the cores the instances need.
 *
 * <pre>
 * java -cp benchmarks/target-bench/benchmarks.jar dev.skillport.benchmarks.load.StoreBench \
 *     [--tasks 400] [--warmup 100] [--clients 16] [--nap MS] [--job-workers N] [--poll 5] \
 *     [--configs mvstore-1,postgresql-1,postgresql-1-haproxy,postgresql-3-haproxy]
 * </pre>
 *
 * Run it from the repository (it finds {@code bin/skillport}, {@code cli/target/skillport.jar} and
 * {@code docs/running.md} there); it needs {@code initdb}/{@code pg_ctl} and {@code haproxy}.
 */
public final class StoreBench {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOKEN = "store-bench-token-0123456789";
  private static final String KEY = "the store benchmark's state key";
  private static final String STATUS = "skillport-diagnostics__server_status";
  private static final String NAP = "bench-work__nap";
  private static final Path HAPROXY = Path.of("/usr/sbin/haproxy");
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final AtomicLong IDS = new AtomicLong();

  private StoreBench() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> o = options(args);
    int tasks = Integer.parseInt(o.getOrDefault("tasks", "400"));
    int warmup = Integer.parseInt(o.getOrDefault("warmup", "100"));
    int clients = Integer.parseInt(o.getOrDefault("clients", "16"));
    Work w =
        new Work(
            Integer.parseInt(o.getOrDefault("nap", "0")),
            o.containsKey("job-workers") ? Integer.parseInt(o.get("job-workers")) : null,
            Integer.parseInt(o.getOrDefault("poll", "5")));
    List<String> configs =
        Arrays.asList(
            o.getOrDefault(
                    "configs", "mvstore-1,postgresql-1,postgresql-1-haproxy,postgresql-3-haproxy")
                .split(","));
    Path work = Files.createTempDirectory("store-bench");
    System.out.printf(
        "# StoreBench: %d tasks after %d warm-up, %d clients, %d cores, %s, load average %s%n",
        tasks, warmup, clients, Runtime.getRuntime().availableProcessors(), w, loadAverage());
    System.out.println(
        "# config                 tasks/s   p50 ms   p99 ms  server cpu ms/task  postgres cpu"
            + " ms/task  load average");
    PostgresCluster cluster = null;
    try {
      if (configs.stream().anyMatch(c -> c.startsWith("postgresql"))) {
        cluster = PostgresCluster.start(Path.of(System.getProperty("java.io.tmpdir")));
      }
      int n = 0;
      for (String config : configs) {
        Result r = run(config, ++n, cluster, work, w, tasks, warmup, clients);
        System.out.printf(
            "%-22s %9.1f %8.2f %8.2f %19.3f %21.3f  %s%n",
            config,
            r.perSecond(),
            r.p50(),
            r.p99(),
            r.serverCpuMs(),
            r.postgresCpuMs(),
            loadAverage());
      }
    } finally {
      if (cluster != null) {
        cluster.close();
      }
      delete(work);
    }
  }

  /**
   * What a task runs.
   *
   * @param napMillis how long the script tool sleeps; 0 for the in-process {@code server_status}
   * @param jobWorkers each instance's job workers, or null for the server's default
   * @param pollMillis the wait between a client's {@code tasks/get} polls
   */
  private record Work(int napMillis, Integer jobWorkers, int pollMillis) {
    String tool() {
      return napMillis > 0 ? NAP : STATUS;
    }

    @Override
    public String toString() {
      return (napMillis > 0 ? "a handler napping " + napMillis + " ms" : "server_status")
          + (jobWorkers == null ? "" : ", " + jobWorkers + " job workers an instance")
          + ", polled every "
          + pollMillis
          + " ms";
    }
  }

  private record Result(
      double perSecond, double p50, double p99, double serverCpuMs, double postgresCpuMs) {}

  private static Result run(
      String config,
      int n,
      PostgresCluster cluster,
      Path work,
      Work w,
      int tasks,
      int warmup,
      int clients)
      throws Exception {
    String[] parts = config.split("-");
    boolean postgres = parts[0].equals("postgresql");
    int instances = Integer.parseInt(parts[1]);
    boolean balanced = parts.length > 2 && parts[2].equals("haproxy");
    Path dir = Files.createDirectories(work.resolve("run-" + n));
    Path skills = Files.createDirectories(dir.resolve("skills"));
    List<String> serve = new ArrayList<>();
    serve.addAll(List.of("--no-watch", "--skills", skills.toString(), "--tool-listing", "all"));
    serve.addAll(List.of("--auth-token", TOKEN, "--trusted-proxy", "127.0.0.1/32"));
    if (w.napMillis() > 0) {
      writeNapSkill(skills);
      BenchFixture plugin = BenchFixture.write(dir, 0);
      serve.addAll(List.of("--plugins", plugin.plugins().toString()));
    }
    if (w.jobWorkers() != null) {
      serve.addAll(List.of("--job-workers", w.jobWorkers().toString()));
    }
    Map<String, String> env = new HashMap<>();
    env.put("SKILLPORT_STATE_KEY", KEY);
    String database = "bench" + n;
    if (postgres) {
      cluster.createDatabase(database);
      serve.addAll(List.of("--store", cluster.url(database) + "?user=" + PostgresCluster.USER));
      env.put("PGPASSWORD", cluster.password());
    }
    List<LaunchedServer> fleet = new ArrayList<>();
    Process haproxy = null;
    try {
      for (int i = 1; i <= instances; i++) {
        List<String> args = new ArrayList<>(serve);
        if (postgres) {
          args.addAll(List.of("--instance", "bench-" + i));
        } else {
          args.addAll(List.of("--jobs-dir", dir.resolve("jobs-" + i).toString()));
        }
        fleet.add(
            LaunchedServer.start(
                Files.createDirectories(dir.resolve("home-" + i)),
                env,
                args.toArray(String[]::new)));
      }
      URI target = fleet.get(0).uri();
      if (balanced) {
        int port = ServerProcess.freePort();
        Path cfg = dir.resolve("haproxy.cfg");
        Files.writeString(
            cfg, haproxyConfig(port, fleet.stream().map(LaunchedServer::uri).toList()));
        haproxy =
            new ProcessBuilder(HAPROXY.toString(), "-db", "-f", cfg.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("haproxy.log").toFile())
                .start();
        target = URI.create("http://127.0.0.1:" + port + "/mcp");
        awaitAllUp(target, instances);
      }
      // Warm-up: the JIT, the pools, the first claims.
      measure(target, w, warmup, clients);
      long serverBefore = cpu(fleet);
      long postgresBefore = postgres ? postgresCpu(cluster) : 0;
      long start = System.nanoTime();
      long[] latencies = measure(target, w, tasks, clients);
      double seconds = (System.nanoTime() - start) / 1e9;
      long serverCpu = cpu(fleet) - serverBefore;
      long postgresCpu = postgres ? postgresCpu(cluster) - postgresBefore : 0;
      Arrays.sort(latencies);
      return new Result(
          tasks / seconds,
          latencies[latencies.length / 2] / 1e6,
          latencies[(int) Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.99) - 1)]
              / 1e6,
          serverCpu / 1e6 / tasks,
          postgresCpu / 1e6 / tasks);
    } finally {
      if (haproxy != null) {
        haproxy.destroy();
        haproxy.waitFor();
      }
      fleet.forEach(LaunchedServer::close);
    }
  }

  /** Runs {@code tasks} tasks on {@code clients} clients, one after another each; latencies. */
  private static long[] measure(URI target, Work w, int tasks, int clients) throws Exception {
    long[] latencies = new long[tasks];
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        running.add(
            pool.submit(
                () -> {
                  for (int i = next.getAndIncrement(); i < tasks; i = next.getAndIncrement()) {
                    latencies[i] = oneTask(target, w);
                  }
                  return null;
                }));
      }
      for (Future<?> f : running) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return latencies;
  }

  /** One task from its call to reading it completed; nanoseconds. */
  private static long oneTask(URI target, Work w) throws Exception {
    long start = System.nanoTime();
    String tool = w.tool();
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    ObjectNode arguments = params.putObject("arguments");
    if (w.napMillis() > 0) {
      arguments.put("millis", w.napMillis());
    }
    params.putObject("_meta").putObject("dcc").put("async", true);
    JsonNode created = request(target, "tools/call", params, tool);
    String taskId = created.at("/result/taskId").asText(null);
    if (taskId == null) {
      throw new IllegalStateException("not a task: " + created);
    }
    while (true) {
      JsonNode got =
          request(target, "tasks/get", JSON.createObjectNode().put("taskId", taskId), taskId);
      String status = got.at("/result/status").asText();
      if (status.equals("completed")) {
        return System.nanoTime() - start;
      }
      if (!status.equals("working")) {
        throw new IllegalStateException("task " + taskId + " ended " + got);
      }
      Thread.sleep(w.pollMillis());
    }
  }

  /** One 2026-07-28 request with the Tasks extension declared; the JSON-RPC reply. */
  private static JsonNode request(URI target, String method, ObjectNode params, String name)
      throws Exception {
    ObjectNode meta =
        params.has("_meta") ? (ObjectNode) params.get("_meta") : params.putObject("_meta");
    meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
    meta.putObject("io.modelcontextprotocol/clientCapabilities")
        .putObject("extensions")
        .putObject("io.modelcontextprotocol/tasks");
    meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "bench").put("version", "1");
    ObjectNode message =
        JSON.createObjectNode()
            .put("jsonrpc", "2.0")
            .put("id", IDS.incrementAndGet())
            .put("method", method);
    message.set("params", params);
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(target)
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + TOKEN)
                .header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", method)
                .header("Mcp-Name", name)
                .POST(HttpRequest.BodyPublishers.ofString(message.toString()))
                .build(),
            HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    return McpLoadHarness.body(response.body());
  }

  /** The round-robin block of docs/running.md, bound to {@code port}, naming {@code backends}. */
  static String haproxyConfig(int port, List<URI> backends) throws IOException {
    String page =
        Files.readString(
            dev.skillport.testsupport.InteropTools.repository().resolve("docs/running.md"),
            StandardCharsets.UTF_8);
    java.util.regex.Matcher block =
        java.util.regex.Pattern.compile(
                "<!-- haproxy: round-robin -->\\s*```haproxy\\n(.*?)```",
                java.util.regex.Pattern.DOTALL)
            .matcher(page);
    if (!block.find()) {
      throw new IllegalStateException("docs/running.md has no round-robin haproxy block");
    }
    String text = block.group(1).replaceFirst("(?m)^(\\s*bind )\\S+$", "$1127.0.0.1:" + port);
    StringBuilder out = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      if (line.strip().startsWith("server ")) {
        continue;
      }
      out.append(line).append('\n');
    }
    for (int i = 0; i < backends.size(); i++) {
      out.append("    server bench-")
          .append(i + 1)
          .append(' ')
          .append(backends.get(i).getHost())
          .append(':')
          .append(backends.get(i).getPort())
          .append('\n');
    }
    return out.toString();
  }

  /** Waits until HAProxy sends requests to each of the {@code instances}. */
  private static void awaitAllUp(URI target, int instances) throws Exception {
    long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    // rise 2 at inter 1s: every server is up within about 3 s of its first 200.
    Thread.sleep(3_500);
    while (System.nanoTime() < until) {
      try {
        HttpResponse<String> r =
            HTTP.send(
                HttpRequest.newBuilder(target.resolve("/readyz")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("HAProxy did not pass requests on within 30 s");
  }

  private static long cpu(List<LaunchedServer> fleet) throws IOException {
    long sum = 0;
    for (LaunchedServer s : fleet) {
      sum += ServerProcess.cpuNanos(s.pid());
    }
    return sum;
  }

  /** The CPU time of the cluster's postmaster and every process it started. */
  private static long postgresCpu(PostgresCluster cluster) throws IOException {
    long postmaster = -1;
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      List<Path> all = procs.filter(p -> p.getFileName().toString().matches("\\d+")).toList();
      Map<Long, Long> parents = new HashMap<>();
      for (Path p : all) {
        try {
          String stat = Files.readString(p.resolve("stat"));
          String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          long pid = Long.parseLong(p.getFileName().toString());
          parents.put(pid, Long.parseLong(f[1]));
          String cmd = Files.readString(p.resolve("cmdline")).replace('\0', ' ');
          if (cmd.contains("postgres") && cmd.contains("-p " + cluster.port())) {
            postmaster = pid;
          }
        } catch (IOException | RuntimeException e) {
          // the process ended meanwhile
        }
      }
      if (postmaster < 0) {
        throw new IllegalStateException("the cluster's postmaster was not found in /proc");
      }
      long sum = 0;
      for (Map.Entry<Long, Long> e : parents.entrySet()) {
        if (e.getKey() == postmaster || e.getValue() == postmaster) {
          try {
            sum += ServerProcess.cpuNanos(e.getKey());
          } catch (IOException ended) {
            // ended meanwhile
          }
        }
      }
      return sum;
    }
  }

  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "?";
    }
  }

  /**
   * A skill {@code bench-work} whose tool {@code nap} is the benchmark plugin's {@code bench.nap}
   * (a Java handler that sleeps: a job worker taken, no process started, no CPU spent).
   */
  private static void writeNapSkill(Path skills) throws IOException {
    Path skill = Files.createDirectories(skills.resolve("bench-work"));
    Files.writeString(
        skill.resolve("SKILL.md"),
        "---\nname: bench-work\ndescription: Work that waits\n"
            + "metadata:\n  dcc-mcp:\n    tools: tools.yaml\n---\n");
    Files.writeString(
        skill.resolve("tools.yaml"),
        "tools:\n  - name: nap\n    description: Sleeps millis milliseconds\n    handler: "
            + BenchEchoHandlers.NAP
            + "\n");
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> o = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --option VALUE, got " + args[i]);
      }
      o.put(args[i].substring(2), args[i + 1]);
    }
    return o;
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}

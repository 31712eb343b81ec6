package dev.skillport.benchmarks.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.benchmarks.peer.BenchFixture;
import dev.skillport.benchmarks.peer.JavaSdkPeer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
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
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Skillport side by side with the official SDK servers: the same workloads against the launched
 * Skillport ({@code bin/skillport serve}, an {@code echo} tool from a plugin-jar Java handler), the
 * Java SDK server on Jetty ({@link JavaSdkPeer}) and the TypeScript SDK server ({@code
 * benchmarks/peers/ts-sdk-server.mjs}), each a fresh process per run, optionally pinned to one core
 * ({@code --server-cpu}) while this generator runs on the other (start it under {@code taskset}).
 *
 * <pre>
 * taskset -c 0 java -cp benchmarks.jar dev.skillport.benchmarks.load.PeerBench \
 *     --jar cli/target/skillport.jar [--launcher bin/skillport] [--repo .] [--server-cpu 1]
 *     [--peers skillport,java-sdk,ts-sdk] [--workloads calls,list,cold,stdio] [--sessions 1,16,64]
 *     [--eras 2025,2026]
 *     [--warmup 10] [--seconds 20] [--runs 3] [--tools 1000] [--cold-runs 5]
 *     [--skillport-args "--page-size 1000"] [--java-opts "-Xmx256m"] [--java-peer-opts ...]
 *     [--jdk NAME=JAVA_HOME ...]
 *     [--before-jar OLD.jar [--before-launcher OLD-LAUNCHER] [--before-args ...]
 *      [--before-java-opts ...] [--before-jdk JAVA_HOME]]
 * </pre>
 *
 * <p>With {@code --before-jar}, a second Skillport (peer {@code before}) takes its turn beside the
 * others, so a change is measured against the code before it in the same run. Each {@code --jdk}
 * adds the Skillport under test once more as peer {@code sp-NAME}, launched with that {@code
 * JAVA_HOME} (the launcher picks the AOT cache or the class-data archive for it).
 *
 * <p>{@code --eras 2025,2026} measures every Skillport's {@code calls} and {@code list} in both
 * protocol eras, taking turns: with sessions (2025-11-25, label {@code skillport}) and stateless
 * (2026-07-28, label {@code skillport/2026}: no {@code initialize}, each request with its {@code
 * _meta} and mirrored headers). The summary then gives the 2026 era's median CPU per call and per
 * list against the 2025 era's. With more than one run, it also gives each run's throughput against
 * its point's median and names a run below 80% of it.
 *
 * <p>Workloads: {@code calls} (N sessions calling {@code echo} in a loop: calls/s, p50, p99, server
 * CPU per call, the server's peak RSS), {@code list} (one session listing all tools following
 * cursors, with {@code --tools} tools: time per whole list, requests, bytes, server CPU per list),
 * {@code cold} (a stdio server with {@code --tools} tools, from process start to the last page of
 * its first {@code tools/list}), {@code stdio} (one client calling {@code echo} on a stdio server,
 * one call at a time: calls/s, p50, p99, server CPU per call). Every line carries the load average
 * when it was measured; the peers take turns within each run, so one run's numbers share the
 * machine's conditions.
 */
public final class PeerBench {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PROTOCOL = "2025-11-25";
  private static final String MODERN = "2026-07-28";

  private final Options o;
  private final BenchFixture fixture;
  private final PrintStream out = System.out;
  private final Map<String, List<double[]>> medians = new LinkedHashMap<>();
  private int logs;

  private PeerBench(Options o, BenchFixture fixture) {
    this.o = o;
    this.fixture = fixture;
  }

  public static void main(String[] argv) throws Exception {
    Options o = Options.parse(argv);
    Path tmp = Files.createTempDirectory("skillport-peers");
    try (BenchFixture fixture = BenchFixture.write(tmp, o.tools)) {
      new PeerBench(o, fixture).runAll();
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private void runAll() throws Exception {
    out.printf(
        Locale.ROOT,
        "# %s, generator on %d cores, server on cpu %s; skillport %s %s; before %s %s%n",
        System.getProperty("java.vm.version"),
        Runtime.getRuntime().availableProcessors(),
        o.serverCpu == null ? "any" : o.serverCpu,
        o.jar,
        String.join(" ", o.skillportArgs),
        o.beforeJar,
        String.join(" ", o.beforeArgs));
    for (int run = 1; run <= o.runs; run++) {
      for (String w : o.workloads) {
        switch (w) {
          case "calls" -> {
            for (int s : o.sessions) {
              for (String peer : o.peers) {
                for (String era : eras(peer)) {
                  calls(run, peer, era, s);
                }
              }
            }
          }
          case "list" -> {
            for (String peer : o.peers) {
              for (String era : eras(peer)) {
                list(run, peer, era);
              }
            }
          }
          case "cold" -> {
            for (String peer : o.peers) {
              cold(run, peer);
            }
          }
          case "stdio" -> {
            for (String peer : o.peers) {
              stdio(run, peer);
            }
          }
          default -> throw new IllegalArgumentException("unknown workload " + w);
        }
      }
    }
    out.println("# medians over runs");
    medians.forEach(
        (key, rows) -> {
          int n = rows.get(0).length;
          double[] m = new double[n];
          for (int i = 0; i < n; i++) {
            final int col = i;
            double[] v = rows.stream().mapToDouble(r -> r[col]).sorted().toArray();
            m[i] = v[v.length / 2];
          }
          out.println(key + " " + Arrays.toString(m));
        });
    summarizeEras();
    steadiness();
  }

  /**
   * The eras {@code peer} is measured in: every {@code --eras} for a Skillport, the 2025 era alone
   * for the SDK servers (they speak no 2026-07-28).
   */
  private List<String> eras(String peer) {
    return skillport(peer) ? o.eras : List.of("2025");
  }

  /** A peer's label in one era: the peer alone in the 2025 era, {@code peer/2026} in the other. */
  private static String label(String peer, String era) {
    return era.equals("2025") ? peer : peer + "/" + era;
  }

  /**
   * With both eras measured, the 2026 era's median CPU per call and per list against the 2025
   * era's, for every Skillport peer and client count.
   */
  private void summarizeEras() {
    if (!o.eras.contains("2025") || !o.eras.contains("2026")) {
      return;
    }
    out.println("# 2026 era against 2025 era, medians over runs (ratio of CPU; goal at most 1.10)");
    for (String peer : o.peers) {
      if (!skillport(peer)) {
        continue;
      }
      for (int s : o.sessions) {
        String old = "calls " + label(peer, "2025") + " " + s + " " + CALLS_COLUMNS;
        String now = "calls " + label(peer, "2026") + " " + s + " " + CALLS_COLUMNS;
        compare(peer + " calls " + s + " clients", "cpu/call", old, now, 3, 0);
        compare(peer + " calls " + s + " clients", "cpu/call without the JIT", old, now, 5, -1);
      }
      String oldList = "list " + label(peer, "2025") + " " + LIST_COLUMNS;
      String newList = "list " + label(peer, "2026") + " " + LIST_COLUMNS;
      compare(peer + " list", "cpu/list", oldList, newList, 2, 5);
      compare(peer + " list", "cpu/list without the JIT", oldList, newList, 6, -1);
    }
  }

  private void compare(
      String what, String name, String oldKey, String newKey, int cpuCol, int rateCol) {
    if (!medians.containsKey(oldKey) || !medians.containsKey(newKey)) {
      return;
    }
    double oldCpu = median(medians.get(oldKey), cpuCol);
    double newCpu = median(medians.get(newKey), cpuCol);
    String rates =
        rateCol < 0
            ? ""
            : String.format(
                Locale.ROOT,
                " per s 2025 %,.0f 2026 %,.0f (%.2f);",
                median(medians.get(oldKey), rateCol),
                median(medians.get(newKey), rateCol),
                median(medians.get(newKey), rateCol) / median(medians.get(oldKey), rateCol));
    out.printf(
        Locale.ROOT,
        "eras %-28s%s %s 2025 %.4f ms 2026 %.4f ms ratio %.2f %s%n",
        what,
        rates,
        name,
        oldCpu,
        newCpu,
        newCpu / oldCpu,
        newCpu / oldCpu <= 1.10 ? "ok" : "ABOVE 1.10");
  }

  /**
   * Every measured point's throughput in each run against its median over the runs: the runs of a
   * point below 80% of the median are named (a run the machine disturbed, or an unsteady server).
   */
  private void steadiness() {
    if (o.runs < 2) {
      return;
    }
    out.println("# throughput of each run against the median of its point (floor 80%)");
    int below = 0;
    for (Map.Entry<String, List<double[]>> e : medians.entrySet()) {
      // Calls and stdio rows start with calls/s, list rows end with lists/s; cold starts have none.
      String workload = e.getKey().substring(0, e.getKey().indexOf(' '));
      int col =
          switch (workload) {
            case "calls", "stdio" -> 0;
            case "list" -> 5;
            default -> -1;
          };
      if (col < 0) {
        continue;
      }
      double median = median(e.getValue(), col);
      StringBuilder runs = new StringBuilder();
      double lowest = Double.MAX_VALUE;
      for (double[] row : e.getValue()) {
        // Rounded down, so a run shown as 80% is not below the floor.
        runs.append(String.format(Locale.ROOT, " %.0f%%", Math.floor(100 * row[col] / median)));
        lowest = Math.min(lowest, row[col] / median);
      }
      boolean ok = lowest >= 0.8;
      below += ok ? 0 : 1;
      out.printf(
          Locale.ROOT,
          "steady %-40s median %,.1f/s runs%s %s%n",
          e.getKey().substring(0, e.getKey().indexOf(" [")),
          median,
          runs,
          ok ? "ok" : "BELOW 80%");
    }
    out.println(
        below == 0
            ? "# every run within 80% of its median"
            : "# " + below + " point(s) with a run below 80% of the median");
  }

  private static double median(List<double[]> rows, int col) {
    double[] v = rows.stream().mapToDouble(r -> r[col]).sorted().toArray();
    return v[v.length / 2];
  }

  // ---------------------------------------------------------------- workloads

  private static final String CALLS_COLUMNS =
      "[calls/s, p50, p99, cpu/call, rssMiB, cpu/call without the JIT]";
  private static final String LIST_COLUMNS =
      "[p50, p99, cpu/list, requests, bytes, lists/s, cpu/list without the JIT]";

  private void calls(int run, String peer, String era, int sessions) throws Exception {
    try (ServerProcess server = http(peer, false)) {
      Client c = new Client(url, era.equals("2026"));
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < sessions; i++) {
        ids.add(c.initialize());
      }
      ExecutorService pool = Executors.newFixedThreadPool(sessions);
      try {
        c.drive(pool, ids, o.warmup);
        String load0 = loadAverage();
        long cpu0 = server.cpuNanos();
        long jit0 = server.compilerCpuNanos();
        long t0 = System.nanoTime();
        long[] samples = c.drive(pool, ids, o.seconds);
        double elapsed = (System.nanoTime() - t0) / 1e9;
        long cpu = server.cpuNanos() - cpu0;
        long jit = server.compilerCpuNanos() - jit0;
        long rss = server.peakRssKiB();
        LatencyReport r = LatencyReport.of(samples, elapsed);
        double perSecond = r.count() / elapsed;
        double cpuPerCall = cpu / 1e6 / r.count();
        double appCpuPerCall = (cpu - jit) / 1e6 / r.count();
        out.printf(
            Locale.ROOT,
            "run %d calls %-9s %2d sessions: %,8.0f calls/s p50 %.3f ms p99 %.3f ms"
                + " cpu/call %.4f ms (%.4f ms without the JIT) peak rss %d MiB load %s -> %s%n",
            run,
            label(peer, era),
            sessions,
            perSecond,
            r.p50Nanos() / 1e6,
            r.p99Nanos() / 1e6,
            cpuPerCall,
            appCpuPerCall,
            rss / 1024,
            load0,
            loadAverage());
        record(
            "calls " + label(peer, era) + " " + sessions + " " + CALLS_COLUMNS,
            perSecond,
            r.p50Nanos() / 1e6,
            r.p99Nanos() / 1e6,
            cpuPerCall,
            rss / 1024.0,
            appCpuPerCall);
      } finally {
        pool.shutdownNow();
      }
    }
  }

  private void list(int run, String peer, String era) throws Exception {
    try (ServerProcess server = http(peer, true)) {
      Client c = new Client(url, era.equals("2026"));
      String id = c.initialize();
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(o.warmup);
      while (System.nanoTime() < end) {
        c.listAll(id);
      }
      String load0 = loadAverage();
      long cpu0 = server.cpuNanos();
      long jit0 = server.compilerCpuNanos();
      List<Long> times = new ArrayList<>();
      Listing last = null;
      end = System.nanoTime() + TimeUnit.SECONDS.toNanos(o.seconds);
      while (System.nanoTime() < end) {
        long t0 = System.nanoTime();
        last = c.listAll(id);
        times.add(System.nanoTime() - t0);
      }
      long cpu = server.cpuNanos() - cpu0;
      long jit = server.compilerCpuNanos() - jit0;
      double elapsed = (System.nanoTime() - end) / 1e9 + o.seconds;
      LatencyReport r =
          LatencyReport.of(times.stream().mapToLong(Long::longValue).toArray(), elapsed);
      double cpuPerList = cpu / 1e6 / times.size();
      double appCpuPerList = (cpu - jit) / 1e6 / times.size();
      out.printf(
          Locale.ROOT,
          "run %d list  %-9s %d tools: p50 %.2f ms p99 %.2f ms cpu/list %.2f ms"
              + " (%.2f ms without the JIT) %d requests %,d bytes (%d lists) load %s -> %s%n",
          run,
          label(peer, era),
          last.tools,
          r.p50Nanos() / 1e6,
          r.p99Nanos() / 1e6,
          cpuPerList,
          appCpuPerList,
          last.requests,
          last.bytes,
          times.size(),
          load0,
          loadAverage());
      record(
          "list " + label(peer, era) + " " + LIST_COLUMNS,
          r.p50Nanos() / 1e6,
          r.p99Nanos() / 1e6,
          cpuPerList,
          last.requests,
          last.bytes,
          times.size() / elapsed,
          appCpuPerList);
    }
  }

  /**
   * Cold starts of {@code peer}, each a new process with nothing kept from the one before: the time
   * to the complete listing, and the CPU the process had spent by then (its launcher included),
   * which other work on the machine stretches less than the time.
   */
  private void cold(int run, String peer) throws Exception {
    long[] millis = new long[o.coldRuns];
    long[] cpuMillis = new long[o.coldRuns];
    long[] rssKiB = new long[o.coldRuns];
    String load0 = loadAverage();
    Listing listing = null;
    for (int i = 0; i < o.coldRuns; i++) {
      long t0 = System.nanoTime();
      ProcessBuilder b = new ProcessBuilder(command(peer, true, 0, true));
      b.environment().putAll(environment(peer));
      Process p = b.redirectError(ProcessBuilder.Redirect.DISCARD).start();
      try {
        listing = stdioList(p);
        millis[i] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        cpuMillis[i] = TimeUnit.NANOSECONDS.toMillis(ServerProcess.cpuNanos(p.pid()));
        rssKiB[i] = ServerProcess.peakRssKiB(p.pid());
      } finally {
        p.getOutputStream().close();
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
          p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      }
    }
    long[] sorted = millis.clone();
    Arrays.sort(sorted);
    long[] cpu = cpuMillis.clone();
    Arrays.sort(cpu);
    long[] rss = rssKiB.clone();
    Arrays.sort(rss);
    out.printf(
        Locale.ROOT,
        "run %d cold  %-9s %d tools in %d pages: median %d ms best %d ms worst %d ms %s"
            + " cpu median %d ms %s peak rss median %d MiB load %s -> %s%n",
        run,
        peer,
        listing.tools,
        listing.requests,
        sorted[sorted.length / 2],
        sorted[0],
        sorted[sorted.length - 1],
        Arrays.toString(millis),
        cpu[cpu.length / 2],
        Arrays.toString(cpuMillis),
        rss[rss.length / 2] / 1024,
        load0,
        loadAverage());
    record(
        "cold " + peer + " [median ms, cpu median ms, peak rss median MiB]",
        sorted[sorted.length / 2],
        cpu[cpu.length / 2],
        rss[rss.length / 2] / 1024);
  }

  /**
   * One client calling {@code echo} over a stdio server's pipes, one call at a time, as an agent
   * host drives its child server: p50, p99 and the server's CPU per call after a warm-up.
   */
  private void stdio(int run, String peer) throws Exception {
    ProcessBuilder b = new ProcessBuilder(command(peer, true, 0, false));
    b.environment().putAll(environment(peer));
    Path log = fixture.root().resolve("server-" + (logs++) + ".log");
    Process p = b.redirectError(log.toFile()).start();
    try {
      StdioCalls c = new StdioCalls(p);
      c.initialize();
      c.drive(o.warmup);
      String load0 = loadAverage();
      long cpu0 = ServerProcess.cpuNanos(p.pid());
      long t0 = System.nanoTime();
      long[] samples = c.drive(o.seconds);
      double elapsed = (System.nanoTime() - t0) / 1e9;
      long cpu = ServerProcess.cpuNanos(p.pid()) - cpu0;
      LatencyReport r = LatencyReport.of(samples, elapsed);
      double cpuPerCall = cpu / 1e6 / r.count();
      out.printf(
          Locale.ROOT,
          "run %d stdio %-9s: %,8.0f calls/s p50 %.3f ms p99 %.3f ms cpu/call %.4f ms"
              + " load %s -> %s%n",
          run,
          peer,
          r.count() / elapsed,
          r.p50Nanos() / 1e6,
          r.p99Nanos() / 1e6,
          cpuPerCall,
          load0,
          loadAverage());
      record(
          "stdio " + peer + " [calls/s, p50, p99, cpu/call]",
          r.count() / elapsed,
          r.p50Nanos() / 1e6,
          r.p99Nanos() / 1e6,
          cpuPerCall);
    } catch (RuntimeException | IOException e) {
      throw new IllegalStateException(
          peer + " over stdio failed: " + e.getMessage() + "; log: " + Files.readString(log), e);
    } finally {
      p.getOutputStream().close();
      p.destroy();
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /** Fails unless {@code answer} is a successful {@code tools/call} result with content. */
  private static void requireEcho(JsonNode answer) {
    if (!answer.path("result").has("content")
        || answer.path("result").path("isError").asBoolean(false)) {
      throw new IllegalStateException("call failed: " + answer);
    }
  }

  /** A client on a stdio server's pipes that waits for each answer before the next request. */
  private static final class StdioCalls {
    private final OutputStream in;
    private final BufferedReader reader;
    private int id = 1;

    StdioCalls(Process p) {
      this.in = p.getOutputStream();
      this.reader =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    }

    void initialize() throws IOException {
      ObjectNode params = JSON.createObjectNode().put("protocolVersion", PROTOCOL);
      params.putObject("capabilities");
      params.putObject("clientInfo").put("name", "skillport-peers").put("version", "1");
      send(request("initialize", params));
      answer();
      send(
          JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "notifications/initialized"));
    }

    long[] drive(int seconds) throws IOException {
      ObjectNode params = JSON.createObjectNode().put("name", BenchFixture.ECHO);
      params.putObject("arguments").put("text", "hello");
      long[] samples = new long[1 << 16];
      int n = 0;
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      while (System.nanoTime() < end) {
        long t0 = System.nanoTime();
        send(request("tools/call", params));
        JsonNode answer = answer();
        long t1 = System.nanoTime();
        requireEcho(answer);
        if (n == samples.length) {
          samples = Arrays.copyOf(samples, n * 2);
        }
        samples[n++] = t1 - t0;
      }
      return Arrays.copyOf(samples, n);
    }

    private ObjectNode request(String method, ObjectNode params) {
      ObjectNode m = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ++id);
      m.put("method", method).set("params", params);
      return m;
    }

    private void send(ObjectNode message) throws IOException {
      in.write(JSON.writeValueAsBytes(message));
      in.write('\n');
      in.flush();
    }

    /** The answer to the last request; notifications and requests from the server are skipped. */
    private JsonNode answer() throws IOException {
      String line;
      while ((line = reader.readLine()) != null) {
        JsonNode msg = JSON.readTree(line);
        if (msg.path("id").asInt(-1) == id && !msg.has("method")) {
          return msg;
        }
      }
      throw new IOException("the server closed stdout");
    }
  }

  /** Sends initialize, then tools/list page by page on the child's stdin, as soon as possible. */
  private static Listing stdioList(Process p) throws IOException {
    OutputStream in = p.getOutputStream();
    BufferedReader reader =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String init =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
            + PROTOCOL
            + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"cold-start\",\"version\":\"1\"}}}\n"
            + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
            + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n";
    in.write(init.getBytes(StandardCharsets.UTF_8));
    in.flush();
    int requests = 1;
    int tools = 0;
    long bytes = 0;
    int expect = 2;
    String line;
    while ((line = reader.readLine()) != null) {
      if (!line.contains("\"id\":" + expect)) {
        continue;
      }
      JsonNode msg = JSON.readTree(line);
      if (msg.path("id").asInt() != expect) {
        continue;
      }
      JsonNode result = msg.path("result");
      if (!result.has("tools")) {
        throw new IllegalStateException("tools/list failed: " + line);
      }
      bytes += line.length();
      tools += result.path("tools").size();
      String cursor = result.path("nextCursor").asText(null);
      if (cursor == null) {
        return new Listing(tools, requests, bytes);
      }
      expect++;
      requests++;
      ObjectNode next =
          JSON.createObjectNode()
              .put("jsonrpc", "2.0")
              .put("id", expect)
              .put("method", "tools/list");
      next.putObject("params").put("cursor", cursor);
      in.write((next + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
    }
    throw new IllegalStateException("the server closed stdout before the listing was complete");
  }

  // ---------------------------------------------------------------- servers

  private URI url;

  private ServerProcess http(String peer, boolean wide) throws Exception {
    int port = ServerProcess.freePort();
    url = URI.create("http://127.0.0.1:" + port + "/mcp");
    Path log = fixture.root().resolve("server-" + (logs++) + ".log");
    ServerProcess server =
        ServerProcess.start(command(peer, false, port, wide), environment(peer), log);
    try {
      server.awaitHttp(url, Duration.ofSeconds(120));
    } catch (Exception e) {
      server.close();
      throw new IllegalStateException(e.getMessage() + "; log: " + Files.readString(log), e);
    }
    return server;
  }

  private List<String> command(String peer, boolean stdio, int port, boolean wide)
      throws IOException, InterruptedException {
    List<String> c = new ArrayList<>();
    if (o.serverCpu != null) {
      c.addAll(List.of("taskset", "-c", o.serverCpu));
    }
    List<String> transport =
        stdio ? List.of("--stdio") : List.of("--http", "--port", Integer.toString(port));
    switch (skillport(peer) ? "skillport" : peer) {
      case "skillport" -> {
        boolean before = peer.equals("before");
        c.add((before ? o.beforeLauncher : o.launcher).toString());
        c.add("serve");
        c.addAll(transport);
        if (!stdio) {
          c.addAll(List.of("--host", "127.0.0.1", "--max-sessions", "10000"));
        }
        c.addAll(
            List.of(
                "--no-watch",
                "--no-bundled",
                "--skills",
                fixture.skills().toString(),
                "--plugins",
                fixture.plugins().toString(),
                "--preload",
                wide ? "bench-wide" : "bench-echo"));
        c.addAll(before ? o.beforeArgs : o.skillportArgs);
      }
      case "java-sdk" -> {
        c.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        c.addAll(o.javaPeerOpts);
        c.addAll(List.of("-cp", benchJar(), JavaSdkPeer.class.getName()));
        c.addAll(transport);
        c.addAll(List.of("--tools", Integer.toString(wide ? o.tools : 0)));
      }
      case "ts-sdk" -> {
        c.add(o.node());
        c.add(o.repo.resolve("benchmarks/peers/ts-sdk-server.mjs").toString());
        c.addAll(List.of("--sdk", o.tsSdk()));
        c.addAll(transport);
        c.addAll(List.of("--tools", Integer.toString(wide ? o.tools : 0)));
      }
      default -> throw new IllegalArgumentException("unknown peer " + peer);
    }
    return c;
  }

  private Map<String, String> environment(String peer) {
    Map<String, String> env = new HashMap<>();
    if (skillport(peer)) {
      boolean before = peer.equals("before");
      env.put("SKILLPORT_JAR", (before ? o.beforeJar : o.jar).toAbsolutePath().toString());
      String jdk = before ? o.beforeJdk : o.jdks.get(peer);
      if (jdk != null) {
        env.put("JAVA_HOME", jdk);
      }
      env.put("HOME", fixture.home().toString());
      env.put("TMPDIR", fixture.home().toString());
      env.put("JAVA_OPTS", before ? o.beforeJavaOpts : o.javaOpts);
    }
    return env;
  }

  /** Whether {@code peer} is a Skillport: the one under test, an {@code sp-NAME} JDK or before. */
  private static boolean skillport(String peer) {
    return peer.equals("skillport") || peer.equals("before") || peer.startsWith("sp-");
  }

  private static String benchJar() {
    try {
      return Path.of(PeerBench.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private void record(String key, double... values) {
    medians.computeIfAbsent(key, k -> new ArrayList<>()).add(values);
  }

  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + "/" + f[1];
    } catch (IOException e) {
      return "?";
    }
  }

  // ---------------------------------------------------------------- client

  /** A whole listing: tools, requests (pages) and response bytes. */
  record Listing(int tools, int requests, long bytes) {}

  private static final class Client {
    private final URI url;
    private final HttpClient http =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    private final boolean modern;

    /** A client of the 2025 era (sessions) or, with {@code modern}, of the stateless 2026 era. */
    Client(URI url, boolean modern) {
      this.url = url;
      this.modern = modern;
    }

    /** Opens a session; a 2026-era client has none (null), every request stands alone. */
    String initialize() throws Exception {
      if (modern) {
        return null;
      }
      ObjectNode params = JSON.createObjectNode().put("protocolVersion", PROTOCOL);
      params.putObject("capabilities");
      params.putObject("clientInfo").put("name", "skillport-peers").put("version", "1");
      HttpResponse<byte[]> r = post(null, message(0, "initialize", params));
      String id =
          r.headers()
              .firstValue("Mcp-Session-Id")
              .orElseThrow(() -> new IllegalStateException("no session id: " + r.statusCode()));
      post(
          id,
          JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "notifications/initialized"));
      return id;
    }

    Listing listAll(String session) throws Exception {
      int requests = 0;
      int tools = 0;
      long bytes = 0;
      String cursor = null;
      do {
        ObjectNode params = JSON.createObjectNode();
        if (cursor != null) {
          params.put("cursor", cursor);
        }
        HttpResponse<byte[]> r = post(session, message(++requests, "tools/list", withMeta(params)));
        bytes += r.body().length;
        JsonNode result =
            McpLoadHarness.body(new String(r.body(), StandardCharsets.UTF_8)).path("result");
        if (!result.has("tools")) {
          throw new IllegalStateException(
              "tools/list failed: " + new String(r.body(), StandardCharsets.UTF_8));
        }
        tools += result.path("tools").size();
        cursor = result.path("nextCursor").asText(null);
      } while (cursor != null);
      return new Listing(tools, requests, bytes);
    }

    long[] drive(ExecutorService pool, List<String> ids, int seconds) throws Exception {
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      List<Future<long[]>> futures = new ArrayList<>();
      for (String id : ids) {
        futures.add(
            pool.submit(
                () -> {
                  long[] samples = new long[1 << 16];
                  int n = 0;
                  int requestId = 10;
                  ObjectNode params = JSON.createObjectNode().put("name", BenchFixture.ECHO);
                  params.putObject("arguments").put("text", "hello");
                  withMeta(params);
                  while (System.nanoTime() < end) {
                    long t0 = System.nanoTime();
                    HttpResponse<byte[]> r = post(id, message(requestId++, "tools/call", params));
                    long t1 = System.nanoTime();
                    requireEcho(McpLoadHarness.body(new String(r.body(), StandardCharsets.UTF_8)));
                    if (n == samples.length) {
                      samples = Arrays.copyOf(samples, n * 2);
                    }
                    samples[n++] = t1 - t0;
                  }
                  return Arrays.copyOf(samples, n);
                }));
      }
      List<long[]> all = new ArrayList<>();
      for (Future<long[]> f : futures) {
        all.add(f.get());
      }
      return all.stream().flatMapToLong(Arrays::stream).toArray();
    }

    private static ObjectNode message(int id, String method, JsonNode params) {
      ObjectNode m =
          JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
      m.set("params", params);
      return m;
    }

    /**
     * A 2026-era request's params carry its protocol version, client capabilities and client info
     * in {@code _meta}; a 2025-era request's are left as they are.
     */
    private ObjectNode withMeta(ObjectNode params) {
      if (modern) {
        ObjectNode meta = params.putObject("_meta");
        meta.put("io.modelcontextprotocol/protocolVersion", MODERN);
        meta.putObject("io.modelcontextprotocol/clientCapabilities");
        meta.putObject("io.modelcontextprotocol/clientInfo")
            .put("name", "skillport-peers")
            .put("version", "1");
      }
      return params;
    }

    private HttpResponse<byte[]> post(String session, JsonNode message) throws Exception {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(url)
              .timeout(Duration.ofSeconds(60))
              .header("Content-Type", "application/json")
              .header("Accept", "application/json, text/event-stream")
              .POST(
                  HttpRequest.BodyPublishers.ofString(message.toString(), StandardCharsets.UTF_8));
      if (session != null) {
        b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", PROTOCOL);
      } else if (modern) {
        // The headers that mirror the body, as a 2026-07-28 client sends them.
        b.header("MCP-Protocol-Version", MODERN)
            .header("Mcp-Method", message.path("method").asText());
        JsonNode name = message.path("params").path("name");
        if (name.isTextual()) {
          b.header("Mcp-Name", name.asText());
        }
      }
      return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }
  }

  // ---------------------------------------------------------------- options

  private static final class Options {
    Path jar;
    Path launcher = Path.of("bin/skillport");
    Path repo = Path.of(".");
    String serverCpu;
    List<String> peers = List.of("skillport", "java-sdk", "ts-sdk");
    List<String> workloads = List.of("calls", "list", "cold", "stdio");
    int[] sessions = {1, 16, 64};
    List<String> eras = List.of("2025");
    int warmup = 10;
    int seconds = 20;
    int runs = 3;
    int tools = 1000;
    int coldRuns = 5;
    List<String> skillportArgs = List.of();
    String javaOpts = "";
    Path beforeJar;
    Path beforeLauncher;
    List<String> beforeArgs = List.of();
    String beforeJavaOpts = "";
    String beforeJdk;
    // Peer sp-NAME to the JAVA_HOME it is launched with, in the order given.
    final Map<String, String> jdks = new LinkedHashMap<>();
    List<String> javaPeerOpts = List.of();
    private String node;
    private String tsSdk;

    static Options parse(String[] argv) {
      Options o = new Options();
      for (int i = 0; i < argv.length; i += 2) {
        String v = argv[i + 1];
        switch (argv[i]) {
          case "--jar" -> o.jar = Path.of(v);
          case "--launcher" -> o.launcher = Path.of(v);
          case "--repo" -> o.repo = Path.of(v);
          case "--server-cpu" -> o.serverCpu = v;
          case "--peers" -> o.peers = List.of(v.split(","));
          case "--workloads" -> o.workloads = List.of(v.split(","));
          case "--eras" -> {
            o.eras = List.of(v.split(","));
            for (String era : o.eras) {
              if (!era.equals("2025") && !era.equals("2026")) {
                throw new IllegalArgumentException("--eras lists 2025 and/or 2026, not " + era);
              }
            }
          }
          case "--sessions" ->
              o.sessions = Arrays.stream(v.split(",")).mapToInt(Integer::parseInt).toArray();
          case "--warmup" -> o.warmup = Integer.parseInt(v);
          case "--seconds" -> o.seconds = Integer.parseInt(v);
          case "--runs" -> o.runs = Integer.parseInt(v);
          case "--tools" -> o.tools = Integer.parseInt(v);
          case "--cold-runs" -> o.coldRuns = Integer.parseInt(v);
          case "--skillport-args" -> o.skillportArgs = words(v);
          case "--java-opts" -> o.javaOpts = v;
          case "--before-jar" -> o.beforeJar = Path.of(v);
          case "--before-launcher" -> o.beforeLauncher = Path.of(v);
          case "--before-args" -> o.beforeArgs = words(v);
          case "--before-java-opts" -> o.beforeJavaOpts = v;
          case "--before-jdk" -> o.beforeJdk = v;
          case "--jdk" -> {
            int eq = v.indexOf('=');
            if (eq < 1) {
              throw new IllegalArgumentException("--jdk wants NAME=JAVA_HOME, not " + v);
            }
            o.jdks.put("sp-" + v.substring(0, eq), v.substring(eq + 1));
          }
          case "--java-peer-opts" -> o.javaPeerOpts = words(v);
          default -> throw new IllegalArgumentException("unknown option " + argv[i]);
        }
      }
      if (o.jar == null || !Files.isRegularFile(o.jar)) {
        throw new IllegalArgumentException("--jar must name the built skillport.jar");
      }
      for (String peer : o.jdks.keySet()) {
        if (!o.peers.contains(peer)) {
          List<String> peers = new ArrayList<>(List.of(peer));
          peers.addAll(o.peers);
          o.peers = List.copyOf(peers);
        }
      }
      if (o.beforeJar != null) {
        if (o.beforeLauncher == null) {
          o.beforeLauncher = o.launcher;
        }
        if (!o.peers.contains("before")) {
          List<String> peers = new ArrayList<>(List.of("before"));
          peers.addAll(o.peers);
          o.peers = List.copyOf(peers);
        }
      }
      return o;
    }

    private static List<String> words(String v) {
      return v.isBlank() ? List.of() : List.of(v.trim().split("\\s+"));
    }

    String node() throws IOException, InterruptedException {
      if (node == null) {
        node = interop("path", "node@22");
      }
      return node;
    }

    String tsSdk() throws IOException, InterruptedException {
      if (tsSdk == null) {
        tsSdk = interop("dir", "sdk@1");
      }
      return tsSdk;
    }

    /** Asks the project's interop installer for a pinned tool (installing it on first use). */
    private String interop(String what, String tool) throws IOException, InterruptedException {
      Process p =
          new ProcessBuilder("node", repo.resolve("interop/interop.mjs").toString(), what, tool)
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (p.waitFor() != 0 || text.isEmpty()) {
        throw new IllegalStateException("interop.mjs " + what + " " + tool + " failed");
      }
      return text;
    }
  }
}

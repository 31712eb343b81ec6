package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.LaunchedServer;
import dev.skillport.testsupport.PostgresCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code bin/skillport} instances on one real PostgreSQL ({@code --store postgresql://...}): a
 * task started on A is read and cancelled through B; A killed with SIGKILL mid-task leaves its task
 * to its lease, after which B reads it interrupted (failed, saying why); an instance with another
 * state key is refused at start with both key ids.
 */
class FleetStoreIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String ALICE = "alice-token-0123456789";
  private static final String CAPS = "{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}";
  private static final int LEASE = 2;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final AtomicInteger IDS = new AtomicInteger(1);

  @TempDir static Path skills;
  @TempDir static Path work;
  private static PostgresCluster cluster;

  @BeforeAll
  static void startDatabase() throws Exception {
    FlowKit.writeTo(skills);
    cluster = PostgresCluster.start(Path.of(System.getProperty("java.io.tmpdir")));
    cluster.createDatabase("fleet");
  }

  @AfterAll
  static void stopDatabase() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static Map<String, String> environment(String key) {
    Map<String, String> env = new HashMap<>();
    env.put("SKILLPORT_STATE_KEY", key);
    env.put("PGPASSWORD", cluster.password());
    return env;
  }

  private static LaunchedServer instance(Path home, String name, String key) {
    return LaunchedServer.start(home, environment(key), args(name));
  }

  private static String[] args(String name) {
    return new String[] {
      "--no-watch",
      "--no-bundled",
      "--skills",
      skills.toString(),
      "--plugins",
      FlowKit.plugins().toString(),
      "--tool-listing",
      "all",
      "--auth-token",
      ALICE,
      "--store",
      cluster.url("fleet") + "?user=" + PostgresCluster.USER,
      "--instance",
      name,
      "--lease",
      Integer.toString(LEASE)
    };
  }

  @Test
  void taskOnA_readAndCancelledThroughB_thenAKilled_itsTaskInterruptedThroughB() throws Exception {
    Path homeA = Files.createDirectories(work.resolve("a"));
    Path homeB = Files.createDirectories(work.resolve("b"));
    Path pidsCancelled = work.resolve("cancelled.pids");
    Path pidsKilled = work.resolve("killed.pids");
    String key = "one key for the fleet";
    java.util.Set<Path> before = tempEntries();
    try (LaunchedServer a = instance(homeA, "a", key)) {
      // A's own temporary folders, which its kill leaves behind: the test removes them.
      java.util.Set<Path> ofA = tempEntries();
      ofA.removeAll(before);
      try (LaunchedServer b = instance(homeB, "b", key)) {
        fleet(a, b, ofA, pidsCancelled, pidsKilled);
      }
    }
  }

  private static void fleet(
      LaunchedServer a,
      LaunchedServer b,
      java.util.Set<Path> ofA,
      Path pidsCancelled,
      Path pidsKilled)
      throws Exception {
    String metrics =
        HTTP.send(
                HttpRequest.newBuilder(b.uri().resolve("/metrics"))
                    .header("Authorization", "Bearer " + ALICE)
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    assertThat(metrics)
        .contains("skillport_instance_info{skillport_instance=\"b\",store=\"shared\"} 1");
    String first = startTask(a.uri(), 60, pidsCancelled);
    assertThat(taskStatus(b.uri(), first)).isEqualTo("working");

    long asked = System.nanoTime();
    JsonNode cancel = call(b.uri(), "tasks/cancel", JSON.createObjectNode().put("taskId", first));
    assertThat(cancel.has("error")).as(cancel.toString()).isFalse();
    awaitStatus(b.uri(), first, "cancelled", Duration.ofSeconds(1));
    assertThat(Duration.ofNanos(System.nanoTime() - asked))
        .as("a cancel through B reaches A")
        .isLessThan(Duration.ofMillis(1500));
    EraInteropIT.assertProcessesEnd(pidsCancelled);

    String second = startTask(a.uri(), 60, pidsKilled);
    a.signal("KILL");
    a.awaitExit(Duration.ofSeconds(10));
    long killed = System.nanoTime();
    try {
      JsonNode task = awaitStatus(b.uri(), second, "failed", Duration.ofSeconds(LEASE + 5));
      assertThat(task.path("statusMessage").asText()).contains("instance a").contains("lease");
      assertThat(Duration.ofNanos(System.nanoTime() - killed))
          .isLessThan(Duration.ofSeconds(LEASE + 5));
    } finally {
      // Nothing yet kills the script tree a killed instance left: this test does.
      for (String pid : Files.readString(pidsKilled).strip().split(" ")) {
        ExternalCommand.of("kill", "-9", pid).timeout(Duration.ofSeconds(5)).run();
      }
      java.util.Set<Path> now = tempEntries();
      for (Path p : ofA) {
        if (now.contains(p) && !p.getFileName().toString().contains("pg-")) {
          ExternalCommand.of("rm", "-rf", p.toString()).timeout(Duration.ofSeconds(10)).run();
        }
      }
    }
    assertThat(b.isAlive()).isTrue();
  }

  @Test
  void instanceWithAnotherStateKey_isRefusedAtStartNamingBothKeyIds() throws Exception {
    Path home = Files.createDirectories(work.resolve("c"));
    try (LaunchedServer first = instance(home, "keyed", "one key for the fleet")) {
      ExternalCommand.Outcome other =
          LaunchedServer.command(Files.createDirectories(work.resolve("d")), serve(args("other")))
              .environment(environment("a different key"))
              .timeout(Duration.ofMinutes(1))
              .run();
      assertThat(other.exit()).as(other.toString()).isEqualTo(1);
      assertThat(other.stderr())
          .as(other.toString())
          .contains("state key id")
          .contains("differs from the fleet's")
          .doesNotContain("a different key");
      assertThat(first.isAlive()).isTrue();
    }
  }

  /** The entries of the temp folder now; an instance starting adds its own. */
  static java.util.Set<Path> tempEntries() throws java.io.IOException {
    try (var list = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return list.collect(java.util.stream.Collectors.toCollection(java.util.HashSet::new));
    }
  }

  private static String[] serve(String... args) {
    java.util.List<String> all =
        new java.util.ArrayList<>(
            java.util.List.of("serve", "--http", "--host", "127.0.0.1", "--port", "0"));
    all.addAll(java.util.List.of(args));
    return all.toArray(String[]::new);
  }

  static String startTask(URI server, int seconds, Path pids) throws Exception {
    ObjectNode params = JSON.createObjectNode().put("name", "long_job");
    params.putObject("arguments").put("seconds", seconds).put("pid_file", pids.toString());
    JsonNode reply = call(server, "tools/call", params);
    String id = reply.at("/result/taskId").asText("");
    assertThat(id).as(reply.toString()).isNotEmpty();
    long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!Files.exists(pids) || Files.readString(pids).isBlank()) {
      assertThat(System.nanoTime()).as("the script started").isLessThan(until);
      Thread.sleep(20);
    }
    return id;
  }

  private static String taskStatus(URI server, String id) throws Exception {
    return call(server, "tasks/get", JSON.createObjectNode().put("taskId", id))
        .at("/result/status")
        .asText();
  }

  static JsonNode awaitStatus(URI server, String id, String status, Duration within)
      throws Exception {
    long until = System.nanoTime() + within.toNanos();
    while (true) {
      JsonNode got = call(server, "tasks/get", JSON.createObjectNode().put("taskId", id));
      if (status.equals(got.at("/result/status").asText())) {
        return got.get("result");
      }
      assertThat(System.nanoTime()).as("task %s reads %s: %s", id, status, got).isLessThan(until);
      Thread.sleep(50);
    }
  }

  /** One 2026-07-28 request as Alice; the reply's JSON-RPC message. */
  static JsonNode call(URI server, String method, ObjectNode params) throws Exception {
    ObjectNode meta = params.putObject("_meta");
    meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
    meta.set("io.modelcontextprotocol/clientCapabilities", JSON.readTree(CAPS));
    meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "fleet").put("version", "1");
    ObjectNode message =
        JSON.createObjectNode()
            .put("jsonrpc", "2.0")
            .put("id", IDS.incrementAndGet())
            .put("method", method);
    message.set("params", params);
    String name =
        params.path("name").isTextual()
            ? params.get("name").asText()
            : params.path("taskId").asText(null);
    HttpRequest.Builder b =
        HttpRequest.newBuilder(server)
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("Authorization", "Bearer " + ALICE)
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", method)
            .POST(HttpRequest.BodyPublishers.ofString(message.toString()));
    if (name != null) {
      b.header("Mcp-Name", name);
    }
    return McpWire.parse(
        HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)).body());
  }
}

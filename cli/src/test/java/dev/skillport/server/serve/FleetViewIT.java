package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's and the client's view of a fleet: two {@code bin/skillport} instances on one real
 * PostgreSQL. A client connected to A that listens to a task B runs ({@code subscriptions/listen})
 * receives its progress and its end within a second, and {@code tasks/get} on A shows its progress;
 * the recent calls page of either instance lists the calls served by both, with their instance; the
 * jobs page and {@code /metrics} of A name the instance running each job.
 */
class FleetViewIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ALICE = "alice-token-0123456789";
  private static final String CAPS = "{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}";
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final AtomicInteger IDS = new AtomicInteger(1);

  @TempDir static Path skills;
  @TempDir static Path work;
  private static PostgresCluster cluster;

  @BeforeAll
  static void startDatabase() throws Exception {
    writeSkill(skills);
    cluster = PostgresCluster.start(Path.of(System.getProperty("java.io.tmpdir")));
    cluster.createDatabase("fleet");
  }

  @AfterAll
  static void stopDatabase() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** A script that reports a step, waits for a file, reports the next, waits for another. */
  private static void writeSkill(Path root) throws Exception {
    Path dir = Files.createDirectories(root.resolve("staged-kit").resolve("scripts"));
    Files.writeString(
        dir.getParent().resolve("SKILL.md"),
        """
        ---
        name: staged-kit
        description: Runs a job in stages, each when a file appears, and counts words
        metadata:
          dcc-mcp:
            tools: tools.yaml
        ---
        staged_job reports its stages; word_count counts words.
        """);
    Files.writeString(
        dir.getParent().resolve("tools.yaml"),
        """
        tools:
          - name: staged_job
            description: Reports stage 1, waits for DIR/advance, reports stage 2, waits for DIR/go
            execution: async
            input_schema:
              type: object
              properties: {dir: {type: string}}
              required: [dir]
          - name: word_count
            description: Counts the words of a text
            input_schema:
              type: object
              properties: {text: {type: string}}
              required: [text]
        """);
    Files.writeString(
        dir.resolve("staged_job.sh"),
        """
        #!/usr/bin/env bash
        dir=
        while [ $# -gt 0 ]; do
          case "$1" in
            --dir) dir=$2; shift 2;;
            *) shift;;
          esac
        done
        echo "::progress 1 2 stage one" >&2
        touch "$dir/started"
        for i in $(seq 1 600); do [ -e "$dir/advance" ] && break; sleep 0.05; done
        echo "::progress 2 2 stage two" >&2
        for i in $(seq 1 600); do [ -e "$dir/go" ] && break; sleep 0.05; done
        echo '{"success": true, "message": "staged"}'
        """);
    Files.writeString(
        dir.resolve("word_count.py"),
        """
        import json, sys
        args = json.load(sys.stdin)
        print(json.dumps({"words": len(args["text"].split())}))
        """);
  }

  private static LaunchedServer instance(String name) throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put("SKILLPORT_STATE_KEY", "one key for the fleet");
    env.put("PGPASSWORD", cluster.password());
    return LaunchedServer.start(
        Files.createDirectories(work.resolve(name)),
        env,
        "--no-watch",
        "--no-bundled",
        "--skills",
        skills.toString(),
        "--tool-listing",
        "all",
        "--auth-token",
        ALICE,
        "--store",
        cluster.url("fleet") + "?user=" + PostgresCluster.USER,
        "--instance",
        name);
  }

  @Test
  void aClientOnA_seesTheProgressAndEndOfATaskRunOnB_andEitherPageShowsTheFleet() throws Exception {
    try (LaunchedServer a = instance("inst-a");
        LaunchedServer b = instance("inst-b")) {
      Path stages = Files.createDirectories(work.resolve("stages"));
      ObjectNode params = JSON.createObjectNode().put("name", "staged_job");
      params.putObject("arguments").put("dir", stages.toString());
      JsonNode created = call(b.uri(), "tools/call", params);
      String task = created.at("/result/taskId").asText("");
      assertThat(task).as(created.toString()).isNotEmpty();
      awaitFile(stages.resolve("started"));

      // A client of A listens to the task B runs.
      List<Timed> heard = new CopyOnWriteArrayList<>();
      ObjectNode listen = JSON.createObjectNode();
      listen.putObject("notifications").putArray("taskIds").add(task);
      CompletableFuture<?> stream = openStream(a.uri(), listen, heard);
      // And a client of B, where it runs: what A's client hears is measured from what B's hears.
      List<Timed> heardOnB = new CopyOnWriteArrayList<>();
      ObjectNode listenB = JSON.createObjectNode();
      listenB.putObject("notifications").putArray("taskIds").add(task);
      CompletableFuture<?> streamB = openStream(b.uri(), listenB, heardOnB);
      try {
        await(heard, n -> n.method().equals("notifications/subscriptions/acknowledged"));
        await(heardOnB, n -> n.method().equals("notifications/subscriptions/acknowledged"));
        // The first stage reached A through the store: tasks/get there shows it.
        awaitTask(a.uri(), task, t -> t.path("statusMessage").asText().equals("stage one"));

        Files.writeString(stages.resolve("advance"), "");
        Timed second = await(heard, n -> n.statusMessage().equals("stage two"));
        Timed secondOnB = await(heardOnB, n -> n.statusMessage().equals("stage two"));
        assertThat(Duration.ofNanos(second.nanos() - secondOnB.nanos()))
            .as("B's progress reaches a client of A")
            .isLessThan(Duration.ofSeconds(1));
        assertThat(second.params().path("status").asText()).isEqualTo("working");

        // While it runs, A's metrics and jobs page name the instance running it.
        String metrics = get(a.uri(), "/metrics");
        assertThat(metrics)
            .contains(
                "skillport_fleet_jobs_active{skillport_instance=\"inst-b\",state=\"running\"} 1");
        String jobsPage = get(a.uri(), "/jobs");
        assertThat(jobsPage).contains("instance <code>inst-a</code>");
        assertThat(row(jobsPage, task.substring(0, 8))).contains("staged_job").contains("inst-b");

        Files.writeString(stages.resolve("go"), "");
        Predicate<Timed> completed = n -> n.params().path("status").asText().equals("completed");
        Timed done = await(heard, completed);
        Timed doneOnB = await(heardOnB, completed);
        assertThat(Duration.ofNanos(done.nanos() - doneOnB.nanos()))
            .as("B's task's end reaches a client of A")
            .isLessThan(Duration.ofSeconds(1));
        System.out.printf(
            "A's client hears after B's: progress %d ms, end %d ms%n",
            Duration.ofNanos(second.nanos() - secondOnB.nanos()).toMillis(),
            Duration.ofNanos(done.nanos() - doneOnB.nanos()).toMillis());
      } finally {
        stream.cancel(true);
        streamB.cancel(true);
      }

      // Calls on both instances; the recent calls page of each lists both, with the instance.
      ObjectNode count = JSON.createObjectNode().put("name", "word_count");
      count.putObject("arguments").put("text", "one two three");
      assertThat(call(a.uri(), "tools/call", count).has("result")).isTrue();
      for (LaunchedServer s : List.of(a, b)) {
        // The trail is written behind the call: the page shows it once it is in the store.
        awaitPage(s.uri(), "/calls", p -> hasRow(p, "word_count", "inst-a"));
        awaitPage(s.uri(), "/calls", p -> hasRow(p, "staged_job", "inst-b"));
      }
    }
  }

  /** One notification of a stream, and when it arrived. */
  private record Timed(String method, JsonNode params, long nanos) {
    String statusMessage() {
      return params.path("statusMessage").asText();
    }
  }

  /**
   * Opens a {@code subscriptions/listen} stream on {@code server}; its messages go to {@code to}.
   */
  private static CompletableFuture<?> openStream(URI server, ObjectNode params, List<Timed> to) {
    HttpRequest request = request(server, "subscriptions/listen", params, null);
    return HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofLines())
        .thenAccept(
            response -> {
              try (Stream<String> lines = response.body()) {
                lines
                    .filter(l -> l.startsWith("data:"))
                    .forEach(
                        l -> {
                          try {
                            JsonNode m = JSON.readTree(l.substring(5).strip());
                            to.add(
                                new Timed(
                                    m.path("method").asText(),
                                    m.path("params"),
                                    System.nanoTime()));
                          } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                          }
                        });
              }
            });
  }

  private static Timed await(List<Timed> heard, Predicate<Timed> which) throws Exception {
    long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (true) {
      for (Timed t : heard) {
        if (which.test(t)) {
          return t;
        }
      }
      assertThat(System.nanoTime()).as("the stream heard it: %s", heard).isLessThan(until);
      Thread.sleep(5);
    }
  }

  private static void awaitFile(Path file) throws Exception {
    long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!Files.exists(file)) {
      assertThat(System.nanoTime()).as("%s appears", file).isLessThan(until);
      Thread.sleep(20);
    }
  }

  private static void awaitTask(URI server, String id, Predicate<JsonNode> which) throws Exception {
    long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (true) {
      JsonNode got = call(server, "tasks/get", JSON.createObjectNode().put("taskId", id));
      if (which.test(got.path("result"))) {
        return;
      }
      assertThat(System.nanoTime()).as("task %s: %s", id, got).isLessThan(until);
      Thread.sleep(50);
    }
  }

  private static String awaitPage(URI server, String path, Predicate<String> which)
      throws Exception {
    long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (true) {
      String page = get(server, path);
      if (which.test(page)) {
        return page;
      }
      assertThat(System.nanoTime()).as("%s: %s", path, page).isLessThan(until);
      Thread.sleep(50);
    }
  }

  /** Whether a table row of {@code page} contains every one of {@code texts}. */
  private static boolean hasRow(String page, String... texts) {
    for (String r : page.split("<tr")) {
      String cells = r.substring(0, Math.max(0, r.indexOf("</tr>")));
      if (Stream.of(texts).allMatch(cells::contains)) {
        return true;
      }
    }
    return false;
  }

  /** The table row of {@code page} that contains {@code text}. */
  private static String row(String page, String text) {
    for (String r : page.split("<tr")) {
      if (r.contains(text)) {
        return r.substring(0, Math.max(0, r.indexOf("</tr>")));
      }
    }
    throw new AssertionError("no row with " + text + " in " + page);
  }

  private static String get(URI server, String path) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(server.resolve(path))
                .header("Authorization", "Bearer " + ALICE)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path).isEqualTo(200);
    return response.body();
  }

  private static HttpRequest request(URI server, String method, ObjectNode params, String name) {
    ObjectNode meta = params.putObject("_meta");
    meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
    meta.set("io.modelcontextprotocol/clientCapabilities", readTree(CAPS));
    meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "fleet").put("version", "1");
    ObjectNode message =
        JSON.createObjectNode()
            .put("jsonrpc", "2.0")
            .put("id", IDS.incrementAndGet())
            .put("method", method);
    message.set("params", params);
    HttpRequest.Builder b =
        HttpRequest.newBuilder(server)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("Authorization", "Bearer " + ALICE)
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", method)
            .POST(HttpRequest.BodyPublishers.ofString(message.toString()));
    if (name != null) {
      b.header("Mcp-Name", name);
    }
    return b.build();
  }

  private static JsonNode readTree(String text) {
    try {
      return JSON.readTree(text);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** One 2026-07-28 request as Alice; the reply's JSON-RPC message. */
  private static JsonNode call(URI server, String method, ObjectNode params) throws Exception {
    String name =
        params.path("name").isTextual()
            ? params.get("name").asText()
            : params.path("taskId").asText(null);
    return McpWire.parse(
        HTTP.send(
                request(server, method, params, name),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
            .body());
  }
}

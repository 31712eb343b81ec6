package dev.skillport.runtime.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.testsupport.LaunchedServer;
import dev.skillport.testsupport.SmallFileSystem;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server started by {@code bin/skillport} keeps its job store on a real file system of a few
 * megabytes, which fills up while jobs run: {@code /readyz} answers 503 naming the store, new async
 * calls are refused with {@code STORE_UNAVAILABLE}, jobs that finish meanwhile read their final
 * state, and once the space is freed the store writes again within 5 s, without a restart. A second
 * server on the same store then reads every job as it ended.
 */
class StoreFaultIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Duration RECOVERY = Duration.ofSeconds(5);
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path home;
  @TempDir Path skills;
  @TempDir Path flags;

  @Test
  void diskFullMidLoad_refusesUnreadyThenRecoversWithoutRestart_acknowledgedJobsIntact()
      throws Exception {
    writeSkill();
    try (SmallFileSystem fs = SmallFileSystem.mount(4)) {
      Path jobsDir = fs.root().resolve("jobs");
      List<String> finished = new ArrayList<>();
      List<String> held = new ArrayList<>();
      try (LaunchedServer server = start(jobsDir)) {
        RawMcpClient client = new RawMcpClient(server.uri());
        for (int i = 0; i < 5; i++) {
          finished.add(client.callAsync("work__square", JSON.createObjectNode().put("n", i)));
        }
        for (int i = 0; i < 3; i++) {
          held.add(
              client.callAsync(
                  "work__hold",
                  JSON.createObjectNode()
                      .put("release", flags.resolve("release").toString())
                      .put("n", i)));
        }
        for (String id : finished) {
          await().atMost(WAIT).until(() -> status(client, id).equals("completed"));
        }
        for (String id : held) {
          await().atMost(WAIT).until(() -> status(client, id).equals("running"));
        }
        assertThat(readyz(server).statusCode()).isEqualTo(200);

        fs.fill();
        // Calls go on until one needs the disk: that one is refused, never acknowledged. The store
        // retries at once and may still find room inside its file (MVStore reuses the space of
        // old chunks) or a page given back; so calls go on, each taking some of that room and the
        // fill taking any page again, until a refusal is followed by /readyz answering 503.
        JsonNode refused = null;
        HttpResponse<String> unready = null;
        int refusals = 0;
        int acknowledgedWhileFull = 0;
        for (int i = 0; i < 500 && unready == null; i++) {
          JsonNode result = client.call(asyncCall("work__square", i));
          if (result.path("isError").asBoolean()) {
            refused = result;
            refusals++;
            fs.fill();
            HttpResponse<String> ready = readyz(server);
            unready = ready.statusCode() == 503 ? ready : null;
          } else {
            acknowledgedWhileFull++;
            finished.add(result.path("structuredContent").path("job_id").asText());
          }
        }
        System.err.printf(
            "StoreFaultIT: on the full disk %d calls were acknowledged and %d refused before"
                + " /readyz answered 503%n",
            acknowledgedWhileFull, refusals);
        assertThat(refused).as("no async call was refused on a full disk").isNotNull();
        assertThat(refused.path("structuredContent").path("code").asText())
            .isEqualTo("STORE_UNAVAILABLE");
        assertThat(refused.path("structuredContent").path("message").asText())
            .containsIgnoringCase("no space left");
        assertThat(unready).as("/readyz never answered 503 on a full disk").isNotNull();
        JsonNode report = JSON.readTree(unready.body());
        assertThat(report.path("status").asText()).isEqualTo("unavailable");
        assertThat(report.path("store").asText()).isEqualTo("jobs");
        assertThat(report.path("error").asText()).containsIgnoringCase("no space left");
        assertThat(unready.body()).doesNotContain(fs.root().toString());

        // Jobs that finish while nothing can be written read their final state.
        Files.writeString(flags.resolve("release"), "go");
        for (String id : held) {
          await().atMost(WAIT).until(() -> status(client, id).equals("completed"));
        }

        fs.free();
        long freed = System.nanoTime();
        await().atMost(RECOVERY).until(() -> readyz(server).statusCode() == 200);
        Duration recovered = Duration.ofNanos(System.nanoTime() - freed);
        System.err.println(
            "StoreFaultIT: the store wrote again "
                + recovered.toMillis()
                + " ms after the space was freed");

        String after = client.callAsync("work__square", JSON.createObjectNode().put("n", 7));
        await().atMost(WAIT).until(() -> status(client, after).equals("completed"));
        finished.add(after);
      }

      // A new server on the same store: every acknowledged job reads as it ended.
      try (LaunchedServer again = start(jobsDir)) {
        RawMcpClient client = new RawMcpClient(again.uri());
        for (String id : finished) {
          JsonNode job = client.status(id);
          assertThat(job.path("status").asText()).as(id).isEqualTo("completed");
          assertThat(job.path("result").path("structuredContent").has("square")).as(id).isTrue();
        }
        for (int i = 0; i < held.size(); i++) {
          JsonNode job = client.status(held.get(i));
          assertThat(job.path("status").asText()).isEqualTo("completed");
          assertThat(job.path("result").path("structuredContent").path("held").asInt())
              .isEqualTo(i);
        }
      }
    }
  }

  private LaunchedServer start(Path jobsDir) {
    return LaunchedServer.start(
        home,
        "--skills",
        skills.toString(),
        "--no-watch",
        "--preload",
        "work",
        "--jobs-dir",
        jobsDir.toString());
  }

  private static ObjectNode asyncCall(String tool, int n) {
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    params.putObject("arguments").put("n", n);
    params.putObject("_meta").putObject("dcc").put("async", true);
    return params;
  }

  private static String status(RawMcpClient client, String id) throws Exception {
    return client.status(id).path("status").asText();
  }

  private static HttpResponse<String> readyz(LaunchedServer server)
      throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(server.uri().resolve("/readyz").toString()))
            .timeout(Duration.ofSeconds(10))
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private void writeSkill() throws IOException {
    Path work = Files.createDirectories(skills.resolve("work/scripts"));
    Files.writeString(
        skills.resolve("work/SKILL.md"),
        """
        ---
        name: work
        description: Work that takes a while
        metadata:
          dcc-mcp:
            tools: tools.yaml
        ---
        """);
    Files.writeString(
        skills.resolve("work/tools.yaml"),
        """
        tools:
          - name: square
            description: Squares n
          - name: hold
            description: Waits until the release file exists, then answers n
        """);
    Files.writeString(
        work.resolve("square.py"),
        """
        import json, sys
        n = json.load(sys.stdin)["n"]
        print(json.dumps({"square": n * n}))
        """);
    Files.writeString(
        work.resolve("hold.py"),
        """
        import json, os, sys, time
        args = json.load(sys.stdin)
        while not os.path.exists(args["release"]):
            time.sleep(0.05)
        print(json.dumps({"held": args["n"]}))
        """);
  }
}

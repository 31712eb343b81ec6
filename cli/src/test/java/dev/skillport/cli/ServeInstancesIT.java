package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.runtime.jobs.MvStoreJobStore;
import dev.skillport.runtime.jobs.RawMcpClient;
import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.LaunchedServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several servers of one user on one machine (a studio running one per host application) each keep
 * their own job records: a default name takes the next free numbered store, a named instance finds
 * its records again after a restart.
 */
class ServeInstancesIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path home;
  @TempDir Path skills;

  @Test
  void twoServersWithDefaultNames_eachKeepsItsJobsInAStoreOfItsOwn() throws Exception {
    writeSkill();
    try (LaunchedServer first = start();
        LaunchedServer second = start()) {
      String one = squared(new RawMcpClient(first.uri()), 3);
      String two = squared(new RawMcpClient(second.uri()), 4);

      assertThat(first.stderr()).doesNotContain("memory").doesNotContain("WARN");
      assertThat(second.stderr()).doesNotContain("memory").doesNotContain("WARN");
      assertThat(home.resolve(".skillport/jobs/http/jobs.mv.db")).isRegularFile();
      assertThat(home.resolve(".skillport/jobs/http-2/jobs.mv.db")).isRegularFile();
      assertThat(one).isNotEqualTo(two);
    }
  }

  @Test
  void twoStartsOnDifferentPortsOneAfterAnother_shareTheStoreHttp() throws Exception {
    writeSkill();
    String job;
    int firstPort;
    try (LaunchedServer first = start()) {
      firstPort = first.uri().getPort();
      job = squared(new RawMcpClient(first.uri()), 7);
    }
    // The first server's port is held, so the second one listens elsewhere.
    try (ServerSocket taken = new ServerSocket(firstPort, 1, InetAddress.getLoopbackAddress())) {
      try (LaunchedServer second = start()) {
        assertThat(second.uri().getPort()).isNotEqualTo(taken.getLocalPort());
        JsonNode found = new RawMcpClient(second.uri()).status(job);

        assertThat(found.at("/result/structuredContent/square").asInt()).isEqualTo(49);
      }
    }
    try (Stream<Path> stores = Files.list(home.resolve(".skillport/jobs"))) {
      assertThat(stores.map(p -> p.getFileName().toString())).containsExactly("http");
    }
  }

  @Test
  void startOnABusyPort_leavesNoStoreBehind() throws Exception {
    writeSkill();
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      ExternalCommand.Outcome outcome =
          LaunchedServer.command(
                  home,
                  "serve",
                  "--http",
                  "--host",
                  "127.0.0.1",
                  "--port",
                  String.valueOf(taken.getLocalPort()),
                  "--no-watch",
                  "--no-bundled",
                  "--skills",
                  skills.toString())
              .run();

      assertThat(outcome.exit()).as(outcome.toString()).isEqualTo(1);
      assertThat(outcome.stderr()).contains("is in use");
    }
    assertThat(home.resolve(".skillport")).doesNotExist();
  }

  @Test
  void namedInstancesSideBySide_eachFindsItsJobsAfterARestart() throws Exception {
    writeSkill();
    String mayaJob;
    String blenderJob;
    try (LaunchedServer maya = start("--instance", "maya");
        LaunchedServer blender = start("--instance", "blender")) {
      mayaJob = squared(new RawMcpClient(maya.uri()), 5);
      blenderJob = squared(new RawMcpClient(blender.uri()), 6);
    }

    try (LaunchedServer maya = start("--instance", "maya");
        LaunchedServer blender = start("--instance", "blender")) {
      JsonNode fromMaya = new RawMcpClient(maya.uri()).status(mayaJob);
      JsonNode fromBlender = new RawMcpClient(blender.uri()).status(blenderJob);

      assertThat(fromMaya.path("status").asText()).isEqualTo("completed");
      assertThat(fromMaya.at("/result/structuredContent/square").asInt()).isEqualTo(25);
      assertThat(fromBlender.path("status").asText()).isEqualTo("completed");
      assertThat(fromBlender.at("/result/structuredContent/square").asInt()).isEqualTo(36);
    }
  }

  @Test
  void twoStdioServers_takeStdioAndStdio2() throws Exception {
    List<Process> servers = new ArrayList<>();
    try {
      for (String store : List.of("stdio", "stdio-2")) {
        ProcessBuilder builder =
            new ProcessBuilder(
                    LaunchedServer.launcher().toString(),
                    "serve",
                    "--stdio",
                    "--no-watch",
                    "--no-bundled")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().putAll(LaunchedServer.environment(home));
        servers.add(builder.start());
        Path file = home.resolve(".skillport/jobs").resolve(store).resolve("jobs.mv.db");
        await().atMost(WAIT).until(() -> Files.isRegularFile(file));
      }
      for (Process server : servers) {
        assertThat(server.isAlive()).isTrue();
        // End of input ends a stdio server normally.
        server.getOutputStream().close();
        assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(server.exitValue()).isZero();
      }
    } finally {
      servers.forEach(Process::destroyForcibly);
    }
  }

  @Test
  void aStdioSessionThatRanAJob_keepsItsStore_oneThatRanNone_leavesNothing() throws Exception {
    writeSkill();
    Path store = home.resolve(".skillport/jobs/stdio");

    stdioSession(false);
    assertThat(home.resolve(".skillport")).doesNotExist();

    stdioSession(true);
    try (MvStoreJobStore kept = MvStoreJobStore.open(store)) {
      assertThat(kept.all()).hasSize(1);
      assertThat(kept.all().get(0).status().terminal()).isTrue();
    }
  }

  /** One stdio session to its end of input: initialize, then (if asked) a job run to its end. */
  private void stdioSession(boolean runAJob) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(
                LaunchedServer.launcher().toString(),
                "serve",
                "--stdio",
                "--no-watch",
                "--no-bundled",
                "--skills",
                skills.toString(),
                "--preload",
                "work")
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().putAll(LaunchedServer.environment(home));
    Process server = builder.start();
    try (var in = new java.io.PrintStream(server.getOutputStream(), true, "UTF-8");
        var out =
            new java.io.BufferedReader(
                new java.io.InputStreamReader(
                    server.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))) {
      in.println(
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
              + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
              + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
      answer(out, 1);
      in.println("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      if (runAJob) {
        in.println(
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{"
                + "\"name\":\"work__square\",\"arguments\":{\"n\":3},"
                + "\"_meta\":{\"dcc\":{\"async\":true}}}}");
        String job = answer(out, 2).at("/result/structuredContent/job_id").asText();
        assertThat(job).isNotEmpty();
        long deadline = System.nanoTime() + WAIT.toNanos();
        for (int id = 3; ; id++) {
          in.println(
              "{\"jsonrpc\":\"2.0\",\"id\":"
                  + id
                  + ",\"method\":\"tools/call\",\"params\":{\"name\":\"jobs_get_status\","
                  + "\"arguments\":{\"job_id\":\""
                  + job
                  + "\"}}}");
          String status = answer(out, id).at("/result/structuredContent/status").asText();
          if (status.equals("completed")) {
            break;
          }
          assertThat(System.nanoTime()).as("job done in time").isLessThan(deadline);
          Thread.sleep(100);
        }
      }
    }
    assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(server.exitValue()).isZero();
  }

  /** Reads messages until the answer to request {@code id}. */
  private static JsonNode answer(java.io.BufferedReader out, int id) throws IOException {
    for (String line; (line = out.readLine()) != null; ) {
      JsonNode message = JSON.readTree(line);
      if (message.path("id").asInt(-1) == id) {
        return message;
      }
    }
    throw new IOException("the server ended before answering request " + id);
  }

  private LaunchedServer start(String... args) {
    List<String> all =
        new ArrayList<>(
            List.of(
                "--no-watch", "--no-bundled", "--skills", skills.toString(), "--preload", "work"));
    all.addAll(List.of(args));
    return LaunchedServer.start(home, all.toArray(String[]::new));
  }

  /** Runs {@code work__square} as a job to its end and returns the job id. */
  private static String squared(RawMcpClient client, int n) throws Exception {
    String id = client.callAsync("work__square", JSON.createObjectNode().put("n", n));
    await().atMost(WAIT).until(() -> client.status(id).path("status").asText().equals("completed"));
    return id;
  }

  private void writeSkill() throws IOException {
    Path scripts = Files.createDirectories(skills.resolve("work/scripts"));
    Files.writeString(
        skills.resolve("work/SKILL.md"),
        """
        ---
        name: work
        description: Squares numbers
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
        """);
    Files.writeString(
        scripts.resolve("square.py"),
        """
        import json, sys
        n = json.load(sys.stdin)["n"]
        print(json.dumps({"square": n * n}))
        """);
  }
}

package dev.skillport.runtime.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.testsupport.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills the real server (the shaded jar) with SIGKILL while jobs run, restarts it on the same job
 * store, and checks every record: running ones read interrupted, finished ones keep their results.
 */
class JobsCrashIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path skills;
  @TempDir Path store;
  @TempDir Path pids;
  // A killed server cannot remove its unpacked bundled skills; they go here, not to the test's
  // temp.
  @TempDir Path serverTemp;
  private final List<Process> servers = new ArrayList<>();

  @AfterEach
  void tearDown() throws IOException {
    servers.forEach(Process::destroyForcibly);
    // Scripts of a killed server are orphans; end them here so they do not outlive the test.
    try (Stream<Path> files = Files.list(pids)) {
      for (Path f : files.toList()) {
        ProcessHandle.of(Long.parseLong(Files.readString(f).strip()))
            .ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  @Test
  void killedServer_restartedOnSameStore_runningJobsInterruptedFinishedJobsKeepResults()
      throws Exception {
    writeSkill();
    RawMcpClient first = new RawMcpClient(start());
    List<String> finished = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      finished.add(first.callAsync("work__square", JSON.createObjectNode().put("n", i)));
    }
    List<String> running = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      running.add(
          first.callAsync(
              "work__nap",
              JSON.createObjectNode().put("pidfile", pids.resolve("nap" + i).toString())));
    }
    for (String id : finished) {
      await()
          .atMost(WAIT)
          .until(() -> first.status(id).path("status").asText().equals("completed"));
    }
    for (String id : running) {
      await().atMost(WAIT).until(() -> first.status(id).path("status").asText().equals("running"));
    }

    Process crashed = servers.get(0);
    crashed.destroyForcibly();
    assertThat(crashed.waitFor(20, TimeUnit.SECONDS)).isTrue();

    RawMcpClient second = new RawMcpClient(start());
    for (int i = 0; i < finished.size(); i++) {
      JsonNode job = second.status(finished.get(i));
      assertThat(job.path("status").asText()).isEqualTo("completed");
      assertThat(job.path("result").path("structuredContent").path("square").asInt())
          .isEqualTo(i * i);
    }
    for (String id : running) {
      JsonNode job = second.status(id);
      assertThat(job.path("status").asText()).isEqualTo("interrupted");
      assertThat(job.path("error").asText()).contains("running");
    }
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
          - name: nap
            description: Sleeps for a long time
        """);
    Files.writeString(
        work.resolve("square.py"),
        """
        import json, sys
        n = json.load(sys.stdin)["n"]
        print(json.dumps({"square": n * n}))
        """);
    Files.writeString(work.resolve("nap.sh"), "echo $$ > \"$2\"\nexec sleep 300\n");
  }

  private URI start() throws Exception {
    Path jar = Path.of(System.getProperty("skillport.jar", "target/skillport.jar"));
    assertThat(jar).isRegularFile();
    List<String> command =
        ChildJvm.command(
            "-Djava.io.tmpdir=" + serverTemp,
            "-jar",
            jar.toString(),
            "serve",
            "--http",
            "--port",
            "0",
            "--no-watch",
            "--skills",
            skills.toString(),
            "--preload",
            "work",
            "--jobs-dir",
            store.toString());
    Process server =
        new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    servers.add(server);
    server.getOutputStream().close();
    CompletableFuture<URI> url = new CompletableFuture<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader err =
                  new BufferedReader(
                      new InputStreamReader(server.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = err.readLine()) != null) {
                  int at = line.indexOf("serving MCP at ");
                  if (at >= 0) {
                    url.complete(
                        URI.create(line.substring(at + "serving MCP at ".length()).strip()));
                  }
                }
              } catch (IOException e) {
                url.completeExceptionally(e);
              }
              url.completeExceptionally(new IOException("the server ended before serving"));
            },
            "server-stderr");
    reader.setDaemon(true);
    reader.start();
    return url.get(60, TimeUnit.SECONDS);
  }
}

package dev.skillport.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.server.jobs.JobRecord;
import dev.skillport.server.jobs.JobStatus;
import dev.skillport.server.jobs.MvStoreJobStore;
import dev.skillport.server.jobs.RawMcpClient;
import dev.skillport.testsupport.LaunchedServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A server started with {@code bin/skillport} and stopped the way people stop it: SIGTERM (a
 * service manager, {@code kill}) or SIGINT (Ctrl-C). It must end within 5 s with the running job
 * marked interrupted in a closed store and its temporary folders (unpacked bundled skills and
 * plugins) removed.
 */
class ServeLifecycleIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  @TempDir Path tmp;
  @TempDir Path skills;
  @TempDir Path pids;

  @AfterEach
  void endStrayScripts() throws IOException {
    try (Stream<Path> files = Files.list(pids)) {
      for (Path f : files.toList()) {
        ProcessHandle.of(Long.parseLong(Files.readString(f).strip()))
            .ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  @ParameterizedTest(name = "SIG{0}")
  @CsvSource({"TERM, 143", "INT, 130"})
  void signal_whileAJobRuns_stopsWithinFiveSecondsJobMarkedStoreClosedTempFoldersGone(
      String signal, int exitCode) throws Exception {
    writeSkill();
    Path plugins =
        Path.of(System.getProperty("skillport.conformancePlugins", "../samples/target/plugins"));
    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            Map.of("TMPDIR", tmp.toString()),
            "--no-watch",
            "--skills",
            skills.toString(),
            "--plugins",
            plugins.toAbsolutePath().toString(),
            "--preload",
            "work")) {
      assertThat(names(tmp))
          .as("what the running server unpacked")
          .anyMatch(n -> n.startsWith("skillport-bundled"))
          .anyMatch(n -> n.startsWith("skillport-plugins"));
      RawMcpClient client = new RawMcpClient(server.uri());
      String job =
          client.callAsync(
              "work__nap", JSON.createObjectNode().put("pidfile", pids.resolve("nap").toString()));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> client.status(job).path("status").asText().equals("running"));

      long start = System.nanoTime();
      server.signal(signal);
      int exit = server.awaitExit(Duration.ofSeconds(5));
      Duration took = Duration.ofNanos(System.nanoTime() - start);

      assertThat(took).isLessThan(Duration.ofSeconds(5));
      assertThat(exit).as(server.stderr()).isEqualTo(exitCode);
      assertThat(names(tmp)).as("left in the temp folder").isEmpty();
      assertThat(server.stderr()).doesNotContain("Exception").doesNotContain("WARN");
      // The store was closed: it opens again at once, and holds the job as interrupted.
      try (MvStoreJobStore store = MvStoreJobStore.open(home.resolve(".skillport/jobs/http-0"))) {
        JobRecord record = store.find(job).orElseThrow();
        assertThat(record.status()).isEqualTo(JobStatus.INTERRUPTED);
        assertThat(record.error()).contains("stopped");
      }
    }
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.map(p -> p.getFileName().toString()).toList();
    }
  }

  private void writeSkill() throws IOException {
    Path scripts = Files.createDirectories(skills.resolve("work/scripts"));
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
          - name: nap
            description: Sleeps for a long time
        """);
    Files.writeString(scripts.resolve("nap.sh"), "echo $$ > \"$2\"\nexec sleep 300\n");
  }
}

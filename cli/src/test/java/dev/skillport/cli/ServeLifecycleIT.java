package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.runtime.jobs.JobRecord;
import dev.skillport.runtime.jobs.JobStatus;
import dev.skillport.runtime.jobs.MvStoreJobStore;
import dev.skillport.runtime.jobs.RawMcpClient;
import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.LaunchedServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A server started with {@code bin/skillport} and stopped the way people stop it: SIGTERM (a
 * service manager, {@code kill}, an MCP host closing a stdio server) or SIGINT (Ctrl-C). It must
 * end within 5 s with the running job marked interrupted in a closed store and its temporary
 * folders (unpacked bundled skills and plugins) removed.
 */
class ServeLifecycleIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  @TempDir Path tmp;
  @TempDir Path skills;
  @TempDir Path pids;
  @TempDir Path shipping;

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
    // A plugin that ships skills: they are unpacked into the temp folder while the server runs.
    Files.copy(
        Path.of(System.getProperty("skillport.pythonHostPlugin")),
        shipping.resolve("adapter-python-host.jar"));
    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            Map.of("TMPDIR", tmp.toString()),
            "--no-watch",
            "--skills",
            skills.toString(),
            "--plugins",
            plugins.toAbsolutePath().toString(),
            "--plugins",
            shipping.toString(),
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
      try (MvStoreJobStore store = MvStoreJobStore.open(home.resolve(".skillport/jobs/http"))) {
        JobRecord record = store.find(job).orElseThrow();
        assertThat(record.status()).isEqualTo(JobStatus.INTERRUPTED);
        assertThat(record.error()).contains("stopped");
      }
    }
  }

  @ParameterizedTest(name = "SIG{0}")
  @CsvSource({"TERM, 143", "INT, 130"})
  void signal_toAStdioServerWaitingForInput_stopsWithinFiveSecondsTempFoldersGone(
      String signal, int exitCode) throws Exception {
    writeSkill();
    ProcessBuilder builder =
        new ProcessBuilder(
                LaunchedServer.launcher().toString(),
                "serve",
                "--stdio",
                "--no-watch",
                "--skills",
                skills.toString())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().putAll(LaunchedServer.environment(home));
    builder.environment().put("TMPDIR", tmp.toString());
    Process server = builder.start();
    try {
      Path store = home.resolve(".skillport/jobs/stdio/jobs.mv.db");
      await().atMost(Duration.ofSeconds(60)).until(() -> Files.isRegularFile(store));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> names(tmp).stream().anyMatch(n -> n.startsWith("skillport-bundled")));

      long start = System.nanoTime();
      assertThat(ExternalCommand.of("kill", "-" + signal, Long.toString(server.pid())).run().exit())
          .isZero();
      boolean ended = server.waitFor(5, TimeUnit.SECONDS);
      Duration took = Duration.ofNanos(System.nanoTime() - start);

      assertThat(ended).as("ended within 5 s").isTrue();
      assertThat(took).isLessThan(Duration.ofSeconds(5));
      assertThat(server.exitValue()).isEqualTo(exitCode);
      assertThat(names(tmp)).as("left in the temp folder").isEmpty();
      // No job ran: the store folder the start created went with it.
      assertThat(store.getParent()).doesNotExist();
    } finally {
      server.destroyForcibly();
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

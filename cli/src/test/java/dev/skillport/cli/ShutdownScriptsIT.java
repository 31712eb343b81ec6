package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.runtime.jobs.JobRecord;
import dev.skillport.runtime.jobs.JobStatus;
import dev.skillport.runtime.jobs.MvStoreJobStore;
import dev.skillport.runtime.jobs.RawMcpClient;
import dev.skillport.testsupport.LaunchedServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM to a server started with {@code bin/skillport} while scripts run: two jobs (one whose
 * script started a {@code setsid} daemon and a fan of children), a call answered synchronously, and
 * a daemon an earlier call detached. Within 5 s the server is gone and so is every one of those
 * processes (found by a token in their command lines), its temp folder is empty and the jobs are
 * marked interrupted.
 */
@EnabledOnOs(OS.LINUX)
class ShutdownScriptsIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  @TempDir Path tmp;
  @TempDir Path skills;

  private final String token = "skillport-shutdown-" + UUID.randomUUID();

  @AfterEach
  void endStrays() {
    for (long pid : withToken()) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  @Test
  void sigterm_withScriptsRunning_leavesNoProcessNoTempFolderAndMarksTheJobs() throws Exception {
    writeSkill();
    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            Map.of("TMPDIR", tmp.toString()),
            "--no-watch",
            "--skills",
            skills.toString(),
            "--preload",
            "work")) {
      RawMcpClient client = new RawMcpClient(server.uri());
      JsonNode detached = client.call(call("work__detach"));
      assertThat(detached.path("isError").asBoolean()).as(detached.toString()).isFalse();
      String fanJob = client.callAsync("work__fan", args());
      String napJob = client.callAsync("work__nap", args());
      Thread sync =
          new Thread(
              () -> {
                try {
                  new RawMcpClient(server.uri()).call(call("work__nap"));
                } catch (Exception | AssertionError e) {
                  // The server goes away while this call runs.
                }
              });
      sync.setDaemon(true);
      sync.start();
      // 1 + 10 fan children and the fan script's own, and 2 naps.
      await().atMost(Duration.ofSeconds(30)).until(() -> withToken().size() >= 14);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> client.status(napJob).path("status").asText().equals("running"));

      long start = System.nanoTime();
      server.signal("TERM");
      int exit = server.awaitExit(Duration.ofSeconds(5));
      Duration took = Duration.ofNanos(System.nanoTime() - start);

      assertThat(took).isLessThan(Duration.ofSeconds(5));
      assertThat(exit).as(server.stderr()).isEqualTo(143);
      assertThat(withToken()).as("script processes left running").isEmpty();
      assertThat(names(tmp)).as("left in the temp folder").isEmpty();
      try (MvStoreJobStore store = MvStoreJobStore.open(home.resolve(".skillport/jobs/http"))) {
        for (String job : List.of(fanJob, napJob)) {
          JobRecord record = store.find(job).orElseThrow();
          assertThat(record.status()).as(job).isEqualTo(JobStatus.INTERRUPTED);
        }
      }
    }
  }

  private ObjectNode args() {
    return JSON.createObjectNode().put("token", token);
  }

  private ObjectNode call(String tool) {
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    params.set("arguments", args());
    return params;
  }

  private void writeSkill() throws IOException {
    Path scripts = Files.createDirectories(skills.resolve("work/scripts"));
    Files.writeString(
        skills.resolve("work/SKILL.md"),
        "---\nname: work\ndescription: Scripts that leave processes\n"
            + "metadata:\n  dcc-mcp:\n    tools: tools.yaml\n---\n");
    Files.writeString(
        skills.resolve("work/tools.yaml"),
        """
        tools:
          - name: detach
            description: Starts a daemon that lets go of the call
            input_schema: {type: object, properties: {token: {type: string}}}
          - name: fan
            description: Starts a daemon and ten children, then waits
            input_schema: {type: object, properties: {token: {type: string}}}
          - name: nap
            description: Sleeps
            input_schema: {type: object, properties: {token: {type: string}}}
        """);
    // $2 is the token (arguments arrive as --token TOKEN).
    Files.writeString(
        scripts.resolve("detach.sh"),
        "( setsid sh -c 'sleep 600' \"$2\" </dev/null >/dev/null 2>&1 & )\n"
            + "echo '{\"success\": true}'\n");
    Files.writeString(
        scripts.resolve("fan.sh"),
        "( setsid sh -c 'sleep 600' \"$2\" </dev/null >/dev/null 2>&1 & )\n"
            + "for i in 1 2 3 4 5 6 7 8 9 10; do sh -c 'sleep 600' \"$2\" & done\n"
            + "exec sh -c 'sleep 600' \"$2\"\n");
    Files.writeString(scripts.resolve("nap.sh"), "exec sh -c 'sleep 600' \"$2\"\n");
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.map(p -> p.getFileName().toString()).toList();
    }
  }

  /** Live processes whose command line holds the token. */
  private List<Long> withToken() {
    List<Long> out = new ArrayList<>();
    byte[] wanted = token.getBytes(StandardCharsets.UTF_8);
    try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"))) {
      for (Path p : procs) {
        String name = p.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          String cmdline =
              new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8);
          if (cmdline.contains(new String(wanted, StandardCharsets.UTF_8))) {
            out.add(Long.parseLong(name));
          }
        } catch (IOException e) {
          // gone
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return out;
  }
}

package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.LaunchedServer;
import dev.skillport.testsupport.PostgresCluster;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fleet's queue (decision 0054), with {@code bin/skillport}: two instances on one real
 * PostgreSQL, one worker each; tasks all accepted by A run on B's worker too while A's is busy (the
 * store records which instance ran each). And a restart: an instance killed with SIGKILL leaves its
 * script running; started again under the same {@code --instance}, it kills that script's tree
 * before it serves.
 */
class FleetQueueIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path skills;
  @TempDir static Path work;
  private static PostgresCluster cluster;

  @BeforeAll
  static void startDatabase() throws Exception {
    FlowKit.writeTo(skills);
    cluster = PostgresCluster.start(Path.of(System.getProperty("java.io.tmpdir")));
    cluster.createDatabase("queue");
  }

  @AfterAll
  static void stopDatabase() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static String[] args(String... more) {
    List<String> all =
        new ArrayList<>(
            List.of(
                "--no-watch",
                "--no-bundled",
                "--skills",
                skills.toString(),
                "--plugins",
                FlowKit.plugins().toString(),
                "--tool-listing",
                "all",
                "--auth-token",
                FleetStoreIT.ALICE));
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  private static LaunchedServer onTheStore(Path home, String name) {
    Map<String, String> env = new HashMap<>();
    env.put("SKILLPORT_STATE_KEY", "one key for the queue");
    env.put("PGPASSWORD", cluster.password());
    return LaunchedServer.start(
        home,
        env,
        args(
            "--store",
            cluster.url("queue") + "?user=" + PostgresCluster.USER,
            "--instance",
            name,
            "--job-workers",
            "1"));
  }

  @Test
  void tasksAcceptedByA_runOnBsWorkerTooWhileAsIsBusy() throws Exception {
    Path homeA = Files.createDirectories(work.resolve("a"));
    Path homeB = Files.createDirectories(work.resolve("b"));
    try (LaunchedServer a = onTheStore(homeA, "a");
        LaunchedServer b = onTheStore(homeB, "b")) {
      List<String> tasks = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        tasks.add(queueTask(a.uri(), 2, work.resolve("queued-" + i + ".pids")));
      }
      for (String task : tasks) {
        FleetStoreIT.awaitStatus(a.uri(), task, "completed", Duration.ofSeconds(60));
      }
      Map<String, String> ranBy = instances(tasks);
      assertThat(ranBy).hasSize(4);
      // A's one worker was busy with the first: B's worker ran some of the others.
      assertThat(ranBy.values()).as("the instance each task ran on").contains("a", "b");
      for (String task : tasks) {
        assertThat(FleetStoreIT.awaitStatus(b.uri(), task, "completed", Duration.ofSeconds(5)))
            .isNotNull();
      }
    }
  }

  @Test
  void restartUnderTheSameName_killsTheScriptTreeItsKilledRunLeft_beforeItServes()
      throws Exception {
    Path home = Files.createDirectories(work.resolve("r"));
    Path pidFile = work.resolve("left.pids");
    Set<Path> before = FleetStoreIT.tempEntries();
    List<Long> pids = List.of();
    try {
      try (LaunchedServer first = LaunchedServer.start(home, args("--instance", "r"))) {
        FleetStoreIT.startTask(first.uri(), 600, pidFile);
        first.signal("KILL");
        first.awaitExit(Duration.ofSeconds(10));
      }
      pids = pids(pidFile);
      assertThat(pids).hasSize(2);
      assertThat(pids)
          .as("the killed server's script and its helper")
          .allMatch(FleetQueueIT::alive);

      try (LaunchedServer second = LaunchedServer.start(home, args("--instance", "r"))) {
        List<Long> left = pids;
        // Killed before the server served; the kernel may take a moment to show them gone.
        await()
            .atMost(Duration.ofSeconds(2))
            .untilAsserted(() -> assertThat(left).noneMatch(FleetQueueIT::alive));
        // The script, its helper and the sleep it waits on.
        assertThat(second.stderr()).containsPattern("killed [23] script processes");
        assertThat(second.isAlive()).isTrue();
      }
    } finally {
      for (long pid : pids) {
        if (alive(pid)) {
          ExternalCommand.of("kill", "-9", Long.toString(pid)).timeout(Duration.ofSeconds(5)).run();
        }
      }
      Set<Path> now = FleetStoreIT.tempEntries();
      now.removeAll(before);
      for (Path p : now) {
        if (!p.getFileName().toString().contains("pg-")) {
          ExternalCommand.of("rm", "-rf", p.toString()).timeout(Duration.ofSeconds(10)).run();
        }
      }
    }
  }

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  private static List<Long> pids(Path file) throws Exception {
    return List.of(Files.readString(file).strip().split("\\s+")).stream()
        .map(Long::valueOf)
        .toList();
  }

  /** Starts long_job as a task through {@code server} without waiting for it to run. */
  private static String queueTask(URI server, int seconds, Path pids) throws Exception {
    ObjectNode params = JSON.createObjectNode().put("name", "long_job");
    params.putObject("arguments").put("seconds", seconds).put("pid_file", pids.toString());
    JsonNode reply = FleetStoreIT.call(server, "tools/call", params);
    String id = reply.at("/result/taskId").asText("");
    assertThat(id).as(reply.toString()).isNotEmpty();
    return id;
  }

  /** The instance the store records for each task (the one that ran it). */
  private static Map<String, String> instances(List<String> tasks) throws Exception {
    Properties login = new Properties();
    login.setProperty("user", PostgresCluster.USER);
    login.setProperty("password", cluster.password());
    Map<String, String> out = new HashMap<>();
    try (Connection c = DriverManager.getConnection(cluster.jdbcUrl("queue"), login);
        PreparedStatement s =
            c.prepareStatement("SELECT instance FROM skillport_jobs WHERE id = ?")) {
      for (String task : tasks) {
        s.setString(1, task);
        try (ResultSet rs = s.executeQuery()) {
          if (rs.next()) {
            out.put(task, rs.getString(1));
          }
        }
      }
    }
    return out;
  }
}

package dev.skillport.server.hostile;

import static dev.skillport.server.hostile.JsonRpcClient.JSON;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.testsupport.LaunchedServer;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP limits of a server started with {@code bin/skillport}, on loopback: slow-loris clients, the
 * session cap and its flag, and what reaches the log at debug level.
 */
@EnabledOnOs(OS.LINUX)
class HttpLimitsIT {
  private static final int TRICKLING = 2_000;

  @TempDir Path home;
  @TempDir Path skills;

  /**
   * 2,000 connections trickle a header byte at a time, against a server whose descriptor limit is
   * 1,024 (set with {@code ulimit} before the launcher starts it, as on the machine the probe found
   * the hole): a new client is still answered within a second, and the trickling connections are
   * closed at the header deadline.
   */
  @Test
  void slowLoris_twoThousandTricklingConnections_newClientAnsweredWithinOneSecond()
      throws Exception {
    long descriptors =
        ((com.sun.management.UnixOperatingSystemMXBean)
                ManagementFactory.getOperatingSystemMXBean())
            .getMaxFileDescriptorCount();
    assertThat(descriptors)
        .as("this JVM's descriptor limit (raise it with ulimit -n: the test must run, not skip)")
        .isGreaterThan(TRICKLING + 500L);
    skill();
    try (LaunchedServer server = launchWithDescriptorLimit(1024, "--header-timeout", "3")) {
      List<Socket> sockets = new ArrayList<>();
      AtomicBoolean trickle = new AtomicBoolean(true);
      Thread trickler = null;
      try {
        for (int i = 0; i < TRICKLING; i++) {
          Socket s = new Socket("127.0.0.1", server.uri().getPort());
          s.getOutputStream()
              .write(
                  "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
          sockets.add(s);
        }
        trickler =
            new Thread(
                () -> {
                  while (trickle.get()) {
                    for (Socket s : sockets) {
                      try {
                        OutputStream out = s.getOutputStream();
                        out.write('X');
                        out.flush();
                      } catch (IOException e) {
                        // closed by the server
                      }
                    }
                    sleep(500);
                  }
                });
        trickler.setDaemon(true);
        trickler.start();

        long start = System.nanoTime();
        JsonRpcClient client = new JsonRpcClient(server.uri());
        JsonNode ping = client.request("ping", JSON.createObjectNode());
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(ping.has("result")).as(ping.toString()).isTrue();
        assertThat(took)
            .as("initialize and ping of a new client")
            .isLessThan(Duration.ofSeconds(1));

        // Past the header deadline every trickling connection has been closed by the server.
        sleep(4_500);
        int open = 0;
        for (Socket s : sockets) {
          s.setSoTimeout(1);
          try {
            if (s.getInputStream().read() >= 0) {
              open++;
            }
          } catch (java.net.SocketTimeoutException e) {
            open++;
          } catch (IOException e) {
            // reset: closed
          }
        }
        assertThat(open).as("trickling connections still open").isZero();
        assertThat(server.isAlive()).isTrue();
      } finally {
        trickle.set(false);
        if (trickler != null) {
          trickler.join(5_000);
        }
        for (Socket s : sockets) {
          s.close();
        }
      }
    }
  }

  /** {@code --max-sessions} and {@code --session-idle-timeout} are honoured. */
  @Test
  void sessionFlags_capAndExpiry() throws Exception {
    skill();
    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--skills",
            skills.toString(),
            "--max-sessions",
            "2",
            "--session-idle-timeout",
            "1")) {
      JsonRpcClient first = new JsonRpcClient(server.uri());
      JsonRpcClient second = new JsonRpcClient(server.uri());
      second.request("ping", JSON.createObjectNode());
      JsonRpcClient third = new JsonRpcClient(server.uri());

      assertThat(third.request("ping", JSON.createObjectNode()).has("result")).isTrue();
      assertThat(second.request("ping", JSON.createObjectNode()).has("result")).isTrue();
      assertThat(first.status("ping"))
          .as("the least recently used session made room")
          .isEqualTo(404);

      // Idle sessions are swept every 15 s; any request would count as use, so none is sent.
      sleep(17_000);
      int status = third.status("tools/list");
      assertThat(status).as("an idle session expired").isEqualTo(404);
    }
  }

  /** At debug level the log holds no request bytes: not the token, not the arguments. */
  @Test
  void debugLogging_keepsRequestBytesOut() throws Exception {
    skill();
    String token = "tok-" + "9f8e7d6c5b4a".repeat(3);
    String secret = "secret-argument-" + System.nanoTime();
    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            Map.of("SKILLPORT_LOG_LEVEL", "debug"),
            "--no-watch",
            "--skills",
            skills.toString(),
            "--auth-token",
            token)) {
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      // The secret travels where a client puts its own data: capabilities and arguments.
      String body =
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
              + "\"2025-11-25\",\"capabilities\":{\"experimental\":{\"x\":{\"key\":\""
              + secret
              + "\"}}},\"clientInfo\":{\"name\":\"debug-test\",\"version\":\"1\"}}}";
      for (String auth : List.of("Bearer " + token, "Bearer wrong-" + secret)) {
        http.send(
            HttpRequest.newBuilder(server.uri())
                .header("Authorization", auth)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
      }
      try (Socket s = new Socket("127.0.0.1", server.uri().getPort())) {
        s.getOutputStream()
            .write(
                ("GARBAGE " + secret + "\r\nX-Key: " + token + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
        s.getInputStream().readNBytes(1);
      }
      sleep(500);
      String log = server.stderr();

      assertThat(log).contains("DEBUG");
      assertThat(log).doesNotContain(secret).doesNotContain(token);
    }
  }

  private LaunchedServer launchWithDescriptorLimit(int limit, String... args) throws IOException {
    // The launcher is started from a shell that lowers the limit first; exec keeps the JVM's pid.
    Path wrapper =
        Files.writeString(
            home.resolve("limited.sh"), "#!/bin/sh\nulimit -n " + limit + "\nexec \"$@\"\n");
    wrapper.toFile().setExecutable(true);
    List<String> all = new ArrayList<>(List.of("--no-watch", "--skills", skills.toString()));
    all.addAll(List.of(args));
    return LaunchedServer.startWith(wrapper, home, Map.of(), all.toArray(String[]::new));
  }

  private void skill() throws IOException {
    Path dir = Files.createDirectories(skills.resolve("one"));
    Files.writeString(
        dir.resolve("SKILL.md"), "---\nname: one\ndescription: A skill\n---\nBody.\n");
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

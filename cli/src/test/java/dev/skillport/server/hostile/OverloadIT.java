package dev.skillport.server.hostile;

import static dev.skillport.server.hostile.JsonRpcClient.JSON;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.testsupport.LaunchedServer;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ten thousand clients at once against a server started by {@code bin/skillport} with its defaults:
 * each gets an HTTP status, 200 or 503 with {@code Retry-After}, and none a reset or a connection
 * closed without an answer; a new client is answered within a second afterwards.
 */
@EnabledOnOs(OS.LINUX)
class OverloadIT {
  private static final int CLIENTS = 10_000;

  @TempDir Path home;
  @TempDir Path skills;

  @Test
  void tenThousandClientsAtOnce_everyOneGetsAStatus_newClientAnsweredWithinOneSecond()
      throws Exception {
    long descriptors =
        ((com.sun.management.UnixOperatingSystemMXBean)
                ManagementFactory.getOperatingSystemMXBean())
            .getMaxFileDescriptorCount();
    assertThat(descriptors)
        .as("this JVM's descriptor limit (raise it with ulimit -n: the test must run, not skip)")
        .isGreaterThan(CLIENTS + 1000L);
    Path dir = Files.createDirectories(skills.resolve("one"));
    Files.writeString(
        dir.resolve("SKILL.md"), "---\nname: one\ndescription: A skill\n---\nBody.\n");
    try (LaunchedServer server =
        LaunchedServer.start(home, "--no-watch", "--skills", skills.toString())) {
      int port = server.uri().getPort();
      Crowd crowd = new Crowd(new InetSocketAddress("127.0.0.1", port), toolsList(port));

      Map<Crowd.Outcome, Integer> tally = crowd.run(CLIENTS, Duration.ofSeconds(45));
      System.err.println("10,000 clients at once: " + tally);

      assertThat(tally.get(Crowd.Outcome.OK) + tally.get(Crowd.Outcome.UNAVAILABLE_RETRY_AFTER))
          .as("clients answered 200 or 503 with Retry-After: %s", tally)
          .isEqualTo(CLIENTS);
      long start = System.nanoTime();
      Map<Crowd.Outcome, Integer> next = crowd.run(1, Duration.ofSeconds(5));
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(next.get(Crowd.Outcome.OK)).as("a new client afterwards: %s", next).isEqualTo(1);
      assertThat(took).as("a new client's tools/list").isLessThan(Duration.ofSeconds(1));
      JsonNode ping = new JsonRpcClient(server.uri()).request("ping", JSON.createObjectNode());
      assertThat(ping.has("result")).as(ping.toString()).isTrue();
      assertThat(server.isAlive()).isTrue();
    }
  }

  /** A stateless (2026-07-28) {@code tools/list}: real work, no session to hold. */
  private static byte[] toolsList(int port) {
    String body =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
            + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{},"
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"crowd\",\"version\":\"1\"}}}}";
    String head =
        "POST /mcp HTTP/1.1\r\n"
            + "Host: 127.0.0.1:"
            + port
            + "\r\nContent-Type: application/json\r\n"
            + "Accept: application/json, text/event-stream\r\n"
            + "MCP-Protocol-Version: 2026-07-28\r\n"
            + "Mcp-Method: tools/list\r\n"
            + "Content-Length: "
            + body.getBytes(StandardCharsets.UTF_8).length
            + "\r\n\r\n";
    return (head + body).getBytes(StandardCharsets.UTF_8);
  }
}

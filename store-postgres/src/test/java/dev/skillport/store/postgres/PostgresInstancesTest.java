package dev.skillport.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.testsupport.PostgresCluster;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PostgresInstancesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOKEN = "registration-token-0123456789";
  private static PostgresCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = TestDatabase.cluster();
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  private static String entry(String id, String url) {
    return JSON.createObjectNode().put("instance_id", id).put("url", url).toString();
  }

  private static final Function<String, String> URL_OF =
      entry -> {
        try {
          return JSON.readTree(entry).path("url").asText(null);
        } catch (IOException e) {
          return null;
        }
      };

  private static List<String> ids(PostgresInstances registry) {
    return registry.list(URL_OF).stream().map(PostgresInstances.Row::id).toList();
  }

  @Test
  void entries_areWrittenReplacedListedAndRemoved_acrossConnections() {
    PostgresLocation location = TestDatabase.fresh(cluster);
    try (PostgresInstances a = PostgresInstances.open(location, Map.of(), null);
        PostgresInstances gateway = PostgresInstances.open(location, Map.of(), null)) {
      Instant at = Instant.parse("2026-01-01T00:00:00Z");
      a.put("maya-1", "http://10.0.0.1:8000/mcp", entry("maya-1", "http://10.0.0.1:8000/mcp"), at);
      a.put("blender-1", "http://10.0.0.2:8000/mcp", entry("blender-1", "x"), at);
      a.put(
          "maya-1",
          "http://10.0.0.1:8001/mcp",
          entry("maya-1", "http://10.0.0.1:8001/mcp"),
          at.plusSeconds(2));

      List<PostgresInstances.Row> rows = gateway.list(URL_OF);
      assertThat(rows).extracting(PostgresInstances.Row::id).containsExactly("blender-1", "maya-1");
      assertThat(rows.get(1).entry()).contains("8001");
      assertThat(rows.get(1).heartbeat()).isEqualTo(at.plusSeconds(2));

      a.remove("blender-1");
      a.remove("nobody");
      assertThat(ids(gateway)).containsExactly("maya-1");
    }
  }

  @Test
  void withAToken_aGatewayReadsOnlyEntriesThatProveIt() {
    PostgresLocation location = TestDatabase.fresh(cluster);
    try (PostgresInstances member = PostgresInstances.open(location, Map.of(), TOKEN);
        PostgresInstances stranger = PostgresInstances.open(location, Map.of(), null);
        PostgresInstances forger =
            PostgresInstances.open(location, Map.of(), "another-token-0123456789");
        PostgresInstances gateway = PostgresInstances.open(location, Map.of(), TOKEN);
        PostgresInstances open = PostgresInstances.open(location, Map.of(), null)) {
      Instant now = Instant.now();
      String url = "http://10.0.0.1:8000/mcp";
      member.put("member", url, entry("member", url), now);
      stranger.put("stranger", url, entry("stranger", url), now);
      forger.put("forged", url, entry("forged", url), now);

      assertThat(ids(gateway)).containsExactly("member");
      assertThat(ids(open)).containsExactly("forged", "member", "stranger");

      // The row rewritten by someone without the token (another address) no longer proves it.
      stranger.put("member", "http://evil:1/mcp", entry("member", "http://evil:1/mcp"), now);
      assertThat(ids(gateway)).isEmpty();
      member.put("member", url, entry("member", url), now);
      assertThat(ids(gateway)).containsExactly("member");
    }
  }
}

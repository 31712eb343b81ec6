package dev.skillport.mcp;

import static dev.skillport.mcp.InMemoryClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class McpServerReadinessTest {
  private final CompletableFuture<Void> ready = new CompletableFuture<>();
  private final AtomicInteger calls = new AtomicInteger();
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final McpServer server =
      McpServer.builder(new ServerInfo("test-server", "1", null))
          .readiness(ready)
          .sessionListener(
              new SessionListener() {
                @Override
                public void sessionOpened(McpSession session) {
                  events.add("opened");
                }

                @Override
                public void sessionClosed(McpSession session) {
                  events.add("closed");
                }
              })
          .handler(
              "tools/list",
              (ctx, params) -> {
                calls.incrementAndGet();
                events.add("tools/list");
                return json("{\"tools\":[]}");
              })
          .build();
  private final InMemoryClient client = new InMemoryClient(server);

  @AfterEach
  void tearDown() {
    server.close();
  }

  @Test
  void initializeAndPing_whileStarting_answerAtOnce() {
    JsonNode init = client.initialize("2025-11-25");
    JsonNode ping = client.call("{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}");

    assertThat(init.path("result").path("protocolVersion").asText()).isEqualTo("2025-11-25");
    assertThat(ping.path("result").isObject()).isTrue();
    assertThat(ready).isNotDone();
  }

  @Test
  void request_whileStarting_waitsAndIsAnsweredOnceReady() throws Exception {
    client.initialize("2025-11-25");

    CompletableFuture<JsonNode> pending = client.request("tools/list", json("{}"));
    Thread.sleep(100);
    assertThat(pending).isNotDone();
    assertThat(calls.get()).isZero();

    ready.complete(null);

    JsonNode response = pending.get(5, TimeUnit.SECONDS);
    assertThat(response.path("result").path("tools").isArray()).isTrue();
    assertThat(calls.get()).isEqualTo(1);
  }

  @Test
  void sessionListeners_whileStarting_openOnceReadyBeforeTheSessionsFirstRequest()
      throws Exception {
    client.initialize("2025-11-25");
    CompletableFuture<JsonNode> pending = client.request("tools/list", json("{}"));
    assertThat(events).isEmpty();

    ready.complete(null);
    pending.get(5, TimeUnit.SECONDS);

    assertThat(events).containsExactly("opened", "tools/list");
  }

  @Test
  void sessionClosed_beforeReady_isNeverAnnouncedNorOpenedLater() {
    client.initialize("2025-11-25");

    server.closeSession(client.session);
    ready.complete(null);

    assertThat(events).isEmpty();
  }

  @Test
  void request_whenStartFails_isInternalErrorNamingTheCause() throws Exception {
    client.initialize("2025-11-25");
    CompletableFuture<JsonNode> pending = client.request("tools/list", json("{}"));

    ready.completeExceptionally(new IllegalStateException("skill roots unreadable"));

    JsonNode waiting = pending.get(5, TimeUnit.SECONDS);
    JsonNode later = client.request("tools/list", json("{}")).get(5, TimeUnit.SECONDS);
    for (JsonNode response : new JsonNode[] {waiting, later}) {
      assertThat(response.path("error").path("code").asInt()).isEqualTo(-32603);
      assertThat(response.path("error").path("message").asText())
          .contains("skill roots unreadable");
    }
    assertThat(calls.get()).isZero();
  }
}

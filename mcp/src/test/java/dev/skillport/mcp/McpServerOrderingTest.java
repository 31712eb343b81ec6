package dev.skillport.mcp;

import static dev.skillport.mcp.InMemoryClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A session's requests marked as changing its listing are answered before the session's later
 * requests start; other requests still run side by side.
 */
class McpServerOrderingTest {
  private final AtomicInteger changes = new AtomicInteger();
  private final CountDownLatch release = new CountDownLatch(1);
  private final CompletableFuture<Void> ready = new CompletableFuture<>();
  private final McpServer server =
      McpServer.builder(new ServerInfo("test-server", "1", null))
          .readiness(ready)
          .changesListing(request -> "change".equals(request.params().path("name").asText(null)))
          .handler(
              "tools/call",
              (ctx, params) -> {
                switch (params.path("name").asText()) {
                  case "change" -> {
                    pause(() -> Thread.sleep(params.path("millis").asLong()));
                    return json("{\"changes\":" + changes.incrementAndGet() + "}");
                  }
                  case "block" -> {
                    pause(() -> release.await(10, TimeUnit.SECONDS));
                    return json("{\"blocked\":true}");
                  }
                  default -> {
                    return json("{\"seen\":" + changes.get() + "}");
                  }
                }
              })
          .build();
  private final InMemoryClient client = new InMemoryClient(server);

  /** Something that waits and may be interrupted. */
  private interface Wait {
    void run() throws InterruptedException;
  }

  private static void pause(Wait wait) {
    try {
      wait.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @AfterEach
  void tearDown() {
    release.countDown();
    server.close();
  }

  @Test
  void dispatch_requestBehindAListingChange_startsOnceTheChangeIsAnswered() throws Exception {
    ready.complete(null);
    client.initialize("2025-11-25");

    CompletableFuture<JsonNode> change =
        client.request("tools/call", json("{\"name\":\"change\",\"millis\":200}"));
    CompletableFuture<JsonNode> read = client.request("tools/call", json("{\"name\":\"read\"}"));

    assertThat(read.get(5, TimeUnit.SECONDS).path("result").path("seen").asInt()).isEqualTo(1);
    assertThat(change).isDone();
  }

  @Test
  void dispatch_changesQueuedWhileStarting_runInTheOrderSent() throws Exception {
    client.initialize("2025-11-25");
    List<CompletableFuture<JsonNode>> sent = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      sent.add(client.request("tools/call", json("{\"name\":\"change\",\"millis\":1}")));
      sent.add(client.request("tools/call", json("{\"name\":\"read\"}")));
    }

    ready.complete(null);

    for (int i = 0; i < 20; i++) {
      JsonNode change = sent.get(2 * i).get(5, TimeUnit.SECONDS).path("result");
      JsonNode read = sent.get(2 * i + 1).get(5, TimeUnit.SECONDS).path("result");
      assertThat(change.path("changes").asInt()).isEqualTo(i + 1);
      assertThat(read.path("seen").asInt()).isGreaterThanOrEqualTo(i + 1);
    }
  }

  @Test
  void dispatch_unmarkedRequests_stillRunSideBySide() throws Exception {
    ready.complete(null);
    client.initialize("2025-11-25");

    CompletableFuture<JsonNode> blocked =
        client.request("tools/call", json("{\"name\":\"block\"}"));
    JsonNode read =
        client.request("tools/call", json("{\"name\":\"read\"}")).get(5, TimeUnit.SECONDS);

    assertThat(read.path("result").path("seen").asInt()).isZero();
    assertThat(blocked).isNotDone();
    release.countDown();
    assertThat(blocked.get(5, TimeUnit.SECONDS).path("result").path("blocked").asBoolean())
        .isTrue();
  }
}

package dev.skillport.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.owner.Principal;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** {@code notifications/tasks} reach the streams of the task's owner that watch it, no other. */
class ChangeFeedTaskTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static List<JsonNode> watch(ChangeFeed feed, String caller, String taskId)
      throws McpException {
    ObjectNode params = NODES.objectNode();
    ObjectNode meta = params.putObject("_meta");
    meta.put(RequestMeta.PROTOCOL_VERSION, "2026-07-28");
    meta.putObject(RequestMeta.CLIENT_CAPABILITIES);
    List<JsonNode> sent = new CopyOnWriteArrayList<>();
    RequestContext ctx =
        new RequestContext(
            RequestMeta.read(params),
            new Caller(Principal.of(caller), null),
            NODES.textNode("listen-" + caller),
            "subscriptions/listen",
            params,
            sent::add);
    ChangeFeed.Listener listener =
        feed.open(
            ctx.requestId(),
            new ChangeFeed.Filter(false, false, false, Set.of(), Set.of(taskId)),
            ctx);
    listener.acknowledge(NODES.objectNode());
    return sent;
  }

  @Test
  void taskUpdated_reachesTheOwnersStreamWatchingIt_notAnotherCallersNamingTheSameId()
      throws Exception {
    ChangeFeed feed = new ChangeFeed();
    List<JsonNode> alice = watch(feed, "alice", "t1");
    List<JsonNode> bob = watch(feed, "bob", "t1");
    List<JsonNode> aliceOther = watch(feed, "alice", "t2");

    assertThat(feed.watchesTask("t1")).isTrue();
    assertThat(feed.watchesTask("t3")).isFalse();
    feed.taskUpdated(
        "t1", "alice", NODES.objectNode().put("taskId", "t1").put("status", "working"));

    assertThat(alice).hasSize(2);
    JsonNode update = alice.get(1);
    assertThat(update.path("method").asText()).isEqualTo("notifications/tasks");
    assertThat(update.at("/params/status").asText()).isEqualTo("working");
    assertThat(
            update.at("/params/_meta/" + RequestMeta.SUBSCRIPTION_ID.replace("/", "~1")).asText())
        .isEqualTo("listen-alice");
    assertThat(bob).hasSize(1);
    assertThat(aliceOther).hasSize(1);
  }
}

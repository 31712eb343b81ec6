package dev.skillport.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The open {@code subscriptions/listen} streams of the modern era and the changes the application
 * publishes to them. Each stream receives only the kinds of notification its client opted in to
 * (and the server agreed to), every one tagged with the stream's subscription id. Legacy sessions
 * are not reached from here: they get their notifications on their own session channel.
 */
public final class ChangeFeed {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final Set<Listener> listeners = ConcurrentHashMap.newKeySet();
  private final List<Runnable> watchHooks = new java.util.concurrent.CopyOnWriteArrayList<>();

  ChangeFeed() {}

  /** The tool list may have changed (a reload, a plugin). */
  public void toolsListChanged() {
    publish("notifications/tools/list_changed", null, f -> f.tools());
  }

  /** The prompt list may have changed. */
  public void promptsListChanged() {
    publish("notifications/prompts/list_changed", null, f -> f.prompts());
  }

  /** The resource list may have changed. */
  public void resourcesListChanged() {
    publish("notifications/resources/list_changed", null, f -> f.resources());
  }

  /** The content of resource {@code uri} changed. */
  public void resourceUpdated(String uri) {
    Objects.requireNonNull(uri, "uri");
    publish(
        "notifications/resources/updated",
        NODES.objectNode().put("uri", uri),
        f -> f.resourceUris().contains(uri));
  }

  /**
   * A task changed (its status, progress or questions); {@code task} is its full current state, as
   * {@code tasks/get} shows. Only streams of the task's owner ({@link
   * dev.skillport.api.owner.Principal#owns}) that watch it receive it: another caller naming the id
   * learns nothing.
   */
  public void taskUpdated(String taskId, String owner, ObjectNode task) {
    Objects.requireNonNull(taskId, "taskId");
    for (Listener listener : listeners) {
      if (listener.filter.taskIds().contains(taskId)
          && listener.ctx.caller().identity().owns(owner)) {
        listener.send("notifications/tasks", task);
      }
    }
  }

  /** Whether some open stream watches task {@code taskId}; a publisher may skip the others. */
  public boolean watchesTask(String taskId) {
    for (Listener listener : listeners) {
      if (listener.filter.taskIds().contains(taskId)) {
        return true;
      }
    }
    return false;
  }

  /** Streams open now. */
  public int openStreams() {
    return listeners.size();
  }

  /** The resource URIs some open stream watches; a publisher may skip work for the others. */
  public Set<String> watchedResources() {
    Set<String> out = new java.util.HashSet<>();
    for (Listener listener : listeners) {
      out.addAll(listener.filter.resourceUris());
    }
    return out;
  }

  /** Runs {@code hook} whenever a stream opens that watches resources (to start watching them). */
  public void onWatch(Runnable hook) {
    watchHooks.add(Objects.requireNonNull(hook, "hook"));
  }

  Listener open(JsonNode subscriptionId, Filter filter, RequestContext ctx) {
    Listener listener = new Listener(subscriptionId, filter, ctx);
    listeners.add(listener);
    if (!filter.resourceUris().isEmpty()) {
      watchHooks.forEach(Runnable::run);
    }
    return listener;
  }

  void close(Listener listener) {
    listeners.remove(listener);
  }

  /** Ends every stream gracefully (server shutdown): each gets its completion result. */
  void closeAll() {
    for (Listener listener : List.copyOf(listeners)) {
      listeners.remove(listener);
      listener.done.complete(tagged(listener.subscriptionId, NODES.objectNode()));
    }
  }

  private void publish(String method, ObjectNode params, Predicate<Filter> wants) {
    for (Listener listener : listeners) {
      if (wants.test(listener.filter)) {
        listener.send(method, params);
      }
    }
  }

  static ObjectNode tagged(JsonNode subscriptionId, ObjectNode params) {
    ObjectNode out = params.deepCopy();
    ObjectNode meta =
        out.get("_meta") instanceof ObjectNode existing ? existing : out.putObject("_meta");
    meta.set(RequestMeta.SUBSCRIPTION_ID, subscriptionId);
    return out;
  }

  /**
   * What a stream receives.
   *
   * @param tools {@code notifications/tools/list_changed}
   * @param prompts {@code notifications/prompts/list_changed}
   * @param resources {@code notifications/resources/list_changed}
   * @param resourceUris {@code notifications/resources/updated} for these URIs
   * @param taskIds {@code notifications/tasks} for these tasks
   */
  record Filter(
      boolean tools,
      boolean prompts,
      boolean resources,
      Set<String> resourceUris,
      Set<String> taskIds) {
    Filter {
      resourceUris = Set.copyOf(resourceUris);
      taskIds = Set.copyOf(taskIds);
    }
  }

  /**
   * One open stream. Notifications published before its acknowledgement went out wait, so the
   * acknowledgement is always the first message of the subscription.
   */
  static final class Listener {
    final JsonNode subscriptionId;
    final Filter filter;
    final RequestContext ctx;
    final CompletableFuture<JsonNode> done = new CompletableFuture<>();
    private ArrayDeque<Object[]> held = new ArrayDeque<>();

    Listener(JsonNode subscriptionId, Filter filter, RequestContext ctx) {
      this.subscriptionId = subscriptionId;
      this.filter = filter;
      this.ctx = ctx;
    }

    void send(String method, ObjectNode params) {
      synchronized (this) {
        if (held != null) {
          held.add(new Object[] {method, params});
          return;
        }
      }
      ctx.notify(method, tagged(subscriptionId, params == null ? NODES.objectNode() : params));
    }

    /** Sends the acknowledgement, then whatever was published meanwhile. */
    void acknowledge(ObjectNode ack) {
      ctx.notify("notifications/subscriptions/acknowledged", tagged(subscriptionId, ack));
      while (true) {
        Object[] next;
        synchronized (this) {
          next = held.poll();
          if (next == null) {
            held = null;
            return;
          }
        }
        ObjectNode params = (ObjectNode) next[1];
        ctx.notify(
            (String) next[0], tagged(subscriptionId, params == null ? NODES.objectNode() : params));
      }
    }
  }
}

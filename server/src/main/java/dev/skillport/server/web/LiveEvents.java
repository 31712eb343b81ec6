package dev.skillport.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.runtime.jobs.JobRecord;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Job and workflow-run changes for the browsers watching {@code /jobs}: each change goes to every
 * open {@link EventStream} as an event ({@code job} or {@code run}) carrying the row as shown. At
 * most {@link #MAX_STREAMS} streams are open at once; a keep-alive comment goes out every 15 s.
 */
final class LiveEvents implements AutoCloseable {
  static final int MAX_STREAMS = 64;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final CatalogViews views;
  private final Set<EventStream> streams = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService keepAlive =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "page-events");
            t.setDaemon(true);
            return t;
          });

  LiveEvents(CatalogViews views) {
    this.views = views;
    keepAlive.scheduleWithFixedDelay(
        () -> streams.forEach(EventStream::keepAlive), 15, 15, TimeUnit.SECONDS);
  }

  /** Adds a stream; false when too many are open. */
  boolean add(EventStream stream) {
    if (streams.size() >= MAX_STREAMS) {
      return false;
    }
    streams.add(stream);
    return true;
  }

  void remove(EventStream stream) {
    streams.remove(stream);
  }

  int open() {
    return streams.size();
  }

  void job(JobRecord job) {
    publish("job", JSON.valueToTree(views.job(job)));
  }

  void run(JsonNode update) {
    ObjectNode row = JSON.valueToTree(views.run(update));
    publish("run", row);
  }

  private void publish(String name, JsonNode row) {
    if (streams.isEmpty()) {
      return;
    }
    String data = row.toString();
    for (EventStream s : streams) {
      s.event(name, data);
    }
  }

  @Override
  public void close() {
    keepAlive.shutdownNow();
    for (EventStream s : List.copyOf(streams)) {
      s.end();
    }
  }
}

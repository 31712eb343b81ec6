package dev.skillport.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.runtime.jobs.JobRecord;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * Job and workflow-run changes for the browsers watching {@code /jobs}: each change goes to every
 * open {@link EventStream} as an event ({@code job} or {@code run}) carrying the row as shown. At
 * most {@link #MAX_STREAMS} streams are open at once; a keep-alive comment goes out every 15 s.
 */
final class LiveEvents implements AutoCloseable {
  static final int MAX_STREAMS = 64;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final CatalogViews views;
  private final BiPredicate<Principal, String> seesRun;
  private final Set<EventStream> streams = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService keepAlive =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "page-events");
            t.setDaemon(true);
            return t;
          });

  LiveEvents(CatalogViews views, BiPredicate<Principal, String> seesRun) {
    this.views = views;
    this.seesRun = seesRun;
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
    publish("job", JSON.valueToTree(views.job(job)), viewer -> viewer.sees(job.owner()));
  }

  void run(JsonNode update) {
    ObjectNode row = JSON.valueToTree(views.run(update));
    String id = update.path("run_id").asText();
    publish("run", row, viewer -> seesRun.test(viewer, id));
  }

  /** Sends {@code row} to the streams whose viewer {@code sees} accepts. */
  private void publish(String name, JsonNode row, Predicate<Principal> sees) {
    if (streams.isEmpty()) {
      return;
    }
    String data = row.toString();
    for (EventStream s : streams) {
      if (sees.test(s.viewer())) {
        s.event(name, data);
      }
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

package dev.skillport.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's view of its instances: it reads the registry and probes every instance each
 * interval, evicts one after {@link #MISSES_TO_EVICT} missed probes (or at once when a routed call
 * finds it gone), and rebuilds the {@link CapabilityIndex} when an instance comes, goes or
 * announces another catalog digest. It never runs a tool.
 */
public final class Gateway implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Probes missed in a row after which an instance is evicted. */
  public static final int MISSES_TO_EVICT = 3;

  /** How long an evicted instance's id still answers {@code INSTANCE_GONE}. */
  static final Duration GONE_MEMORY = Duration.ofMinutes(10);

  private static final Duration CATALOG_TIMEOUT = Duration.ofSeconds(10);

  /**
   * How the gateway routes: its policy, how long a routed request may take, how many requests one
   * instance may have in flight at once (a slow instance fills only its own), and the token of the
   * gateway's own requests (reading catalogs) to instances that require one.
   */
  public record Settings(
      GatewayPolicy policy, Duration callTimeout, int concurrency, String token) {
    /** Everything allowed, ten minutes a call, 16 requests in flight per instance, no token. */
    public static final Settings DEFAULT =
        new Settings(GatewayPolicy.OPEN, Duration.ofMinutes(10), 16, null);

    public Settings {
      policy = policy == null ? GatewayPolicy.OPEN : policy;
      if (concurrency < 1) {
        throw new IllegalArgumentException("concurrency must be 1 or more");
      }
    }
  }

  /** How long a request waits for a free slot of its instance before it answers busy. */
  static final Duration SLOT_WAIT = Duration.ofSeconds(2);

  private final InstanceRegistry registry;
  private final InstanceClient client;
  private final Settings settings;
  private final GatewayMetrics metrics;
  private final Map<String, Semaphore> slots = new ConcurrentHashMap<>();
  private final ExecutorService probeWorkers =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "gateway-probe");
            t.setDaemon(true);
            return t;
          });
  private final Duration interval;
  private final Clock clock;
  private final Map<String, Integer> misses = new ConcurrentHashMap<>();
  private final Map<String, InstanceCatalog> catalogs = new ConcurrentHashMap<>();
  private final Map<String, Instant> gone = new ConcurrentHashMap<>();
  private final Map<String, InstanceEntry> registered = new ConcurrentHashMap<>();
  private final ScheduledExecutorService probes;
  private volatile CapabilityIndex index = CapabilityIndex.empty();
  private volatile Instant emptySince;

  public Gateway(InstanceRegistry registry, InstanceClient client, Duration interval, Clock clock) {
    this(registry, client, interval, clock, Settings.DEFAULT);
  }

  public Gateway(
      InstanceRegistry registry,
      InstanceClient client,
      Duration interval,
      Clock clock,
      Settings settings) {
    this.registry = registry;
    this.client = client;
    this.settings = settings;
    this.metrics = new GatewayMetrics(this::statesNow);
    this.interval = interval;
    this.clock = clock;
    this.emptySince = clock.instant();
    this.probes =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "gateway-probes");
              t.setDaemon(true);
              return t;
            });
  }

  /** Starts probing: the first round at once, then every interval. */
  public void start() {
    probes.scheduleWithFixedDelay(
        this::probeQuietly, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The current index. */
  public CapabilityIndex index() {
    return index;
  }

  /** The client routed calls go through. */
  InstanceClient client() {
    return client;
  }

  /** Since when no instance has been registered, or null while one is. */
  public Instant emptySince() {
    return emptySince;
  }

  /** Whether {@code id} was evicted lately (its calls answer {@code INSTANCE_GONE}). */
  boolean wasEvicted(String id) {
    Instant at = gone.get(id);
    return at != null && at.plus(GONE_MEMORY).isAfter(clock.instant());
  }

  /** Missed probes in a row of {@code id}. */
  int misses(String id) {
    return misses.getOrDefault(id, 0);
  }

  private void probeQuietly() {
    try {
      probeOnce();
    } catch (RuntimeException | IOException e) {
      LOG.warn("gateway probe round failed: {}", e.toString());
    }
  }

  /** One round: read the registry, probe each instance, evict and refresh, rebuild the index. */
  void probeOnce() throws IOException {
    List<InstanceEntry> entries = registry.list();
    boolean changed = false;
    Set<String> present = new HashSet<>();
    // Every instance is probed at once: a hung one costs the round its probe's timeout, not more.
    Map<String, Future<Boolean>> health = new HashMap<>();
    for (InstanceEntry entry : entries) {
      health.put(
          entry.id(), probeWorkers.submit(() -> client.healthy(entry.url(), probeTimeout())));
    }
    for (InstanceEntry entry : entries) {
      present.add(entry.id());
      registered.put(entry.id(), entry);
      gone.remove(entry.id());
      if (!answered(health.get(entry.id()))) {
        int missed = misses.merge(entry.id(), 1, Integer::sum);
        LOG.info("instance {} missed probe {} of {}", entry.id(), missed, MISSES_TO_EVICT);
        if (missed >= MISSES_TO_EVICT) {
          evict(entry.id(), missed + " missed probes");
          present.remove(entry.id());
        }
        continue;
      }
      misses.remove(entry.id());
      InstanceCatalog known = catalogs.get(entry.id());
      if (known == null
          || !known.instance().catalogDigest().equals(entry.catalogDigest())
          || !known.instance().url().equals(entry.url())) {
        changed |= refresh(entry);
      }
    }
    for (String id : new HashSet<>(catalogs.keySet())) {
      if (!present.contains(id)) {
        // Its entry left the registry: the instance stopped and said so.
        catalogs.remove(id);
        registered.remove(id);
        misses.remove(id);
        changed = true;
      }
    }
    if (changed) {
      rebuild();
    }
    if (!present.isEmpty()) {
      emptySince = null;
    } else if (emptySince == null) {
      emptySince = clock.instant();
    }
  }

  private static boolean answered(Future<Boolean> probe) {
    try {
      return probe.get();
    } catch (ExecutionException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** A probe may take the whole interval: only an instance that stays silent that long misses. */
  private Duration probeTimeout() {
    return interval;
  }

  /** Reads the instance's catalog; false when it could not be read (retried next round). */
  private boolean refresh(InstanceEntry entry) {
    ObjectNode args = JSON.createObjectNode();
    InstanceCatalog.FIELDS.forEach(args.putArray("fields")::add);
    try {
      ObjectNode params = JSON.createObjectNode().put("name", "list_skills");
      params.set("arguments", args);
      JsonNode result =
          client.request(entry.url(), "tools/call", params, CATALOG_TIMEOUT, ownRelay());
      JsonNode listed = result.path("structuredContent");
      if (result.path("isError").asBoolean() || !listed.isObject()) {
        LOG.warn("instance {} did not list its skills: {}", entry.id(), result);
        return false;
      }
      catalogs.put(entry.id(), InstanceCatalog.read(entry, listed));
      LOG.info(
          "instance {} at {} indexed: {} skills (catalog {})",
          entry.id(),
          entry.url(),
          catalogs.get(entry.id()).skills().size(),
          entry.catalogDigest());
      return true;
    } catch (IOException e) {
      LOG.warn("instance {}: cannot read its catalog ({})", entry.id(), e.getMessage());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Removes {@code id} from the registry and the index at once. */
  public void evict(String id, String why) {
    LOG.warn("instance {} evicted: {}", id, why);
    try {
      registry.remove(id);
    } catch (IOException e) {
      LOG.warn("cannot remove instance {} from the registry: {}", id, e.getMessage());
    }
    gone.put(id, clock.instant());
    misses.remove(id);
    registered.remove(id);
    catalogs.remove(id);
    rebuild();
  }

  private synchronized void rebuild() {
    index = CapabilityIndex.of(new HashMap<>(catalogs).values());
  }

  /** The registered instances (indexed or not yet), by id. */
  Map<String, InstanceEntry> registered() {
    return Map.copyOf(registered);
  }

  /** The gateway's policy and limits. */
  public Settings settings() {
    return settings;
  }

  /** The gateway's metrics. */
  public GatewayMetrics metrics() {
    return metrics;
  }

  /** A relay for the gateway's own requests: its token, if it has one, and nothing else. */
  InstanceClient.Relay ownRelay() {
    return settings.token() == null
        ? InstanceClient.Relay.NONE
        : InstanceClient.Relay.NONE.orAs("Bearer " + settings.token());
  }

  /**
   * Sends one request to {@code instance} (at most {@link Settings#concurrency} in flight per
   * instance, each bounded by {@link Settings#callTimeout}), counts it, and evicts the instance at
   * once when nothing answers at its address.
   *
   * @throws BusyException when the instance's slots stayed full for {@link #SLOT_WAIT}
   */
  JsonNode send(
      InstanceEntry instance, String method, ObjectNode params, InstanceClient.Relay relay)
      throws IOException, InterruptedException {
    Semaphore free =
        slots.computeIfAbsent(instance.id(), id -> new Semaphore(settings.concurrency(), true));
    if (!free.tryAcquire(SLOT_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
      metrics.routed(instance.id(), GatewayMetrics.Outcome.BUSY);
      throw new BusyException(
          "instance "
              + instance.id()
              + " already has "
              + settings.concurrency()
              + " requests in flight through the gateway");
    }
    GatewayMetrics.Outcome outcome = GatewayMetrics.Outcome.FAILED;
    try {
      JsonNode result =
          client.request(instance.url(), method, params, settings.callTimeout(), relay);
      outcome = GatewayMetrics.Outcome.OK;
      return result;
    } catch (InstanceClient.InstanceGoneException e) {
      outcome = GatewayMetrics.Outcome.GONE;
      evict(instance.id(), "a routed request found it gone (" + e.getMessage() + ")");
      throw e;
    } catch (InstanceClient.InstanceTimeoutException e) {
      outcome = GatewayMetrics.Outcome.TIMEOUT;
      throw e;
    } catch (InstanceClient.CancelledException e) {
      outcome = GatewayMetrics.Outcome.CANCELLED;
      throw e;
    } catch (InstanceClient.RpcError e) {
      outcome = GatewayMetrics.Outcome.ERROR;
      throw e;
    } finally {
      free.release();
      metrics.routed(instance.id(), outcome);
    }
  }

  /** Requests to {@code id} in flight now. */
  int inFlight(String id) {
    Semaphore s = slots.get(id);
    return s == null ? 0 : settings.concurrency() - s.availablePermits();
  }

  /** An instance is up (answered its last probe), missing (missed some) or evicted lately. */
  String state(String id) {
    if (registered.containsKey(id)) {
      return misses(id) == 0 ? "up" : "missing";
    }
    return wasEvicted(id) ? "evicted" : "unknown";
  }

  private Map<String, Integer> statesNow() {
    Map<String, Integer> counts = new HashMap<>();
    registered.keySet().forEach(id -> counts.merge(state(id), 1, Integer::sum));
    Instant now = clock.instant();
    gone.values().stream()
        .filter(at -> at.plus(GONE_MEMORY).isAfter(now))
        .forEach(at -> counts.merge("evicted", 1, Integer::sum));
    return counts;
  }

  /** The instance's slots were all taken for longer than the gateway waits. */
  static final class BusyException extends IOException {
    private static final long serialVersionUID = 1L;

    BusyException(String message) {
      super(message);
    }
  }

  @Override
  public void close() {
    probes.shutdownNow();
    probeWorkers.shutdownNow();
  }
}

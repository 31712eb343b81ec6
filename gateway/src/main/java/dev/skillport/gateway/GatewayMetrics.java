package dev.skillport.gateway;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The gateway's metrics in the Prometheus text format the server's {@code /metrics} uses: requests
 * routed to instances by instance and outcome, and instances by state. The per-instance totals are
 * also kept for the page at {@code /}.
 */
public final class GatewayMetrics {
  /** The outcomes a routed request is counted under. */
  public enum Outcome {
    /** The instance answered a result (a tool's own failure included). */
    OK,
    /** The instance answered a JSON-RPC error. */
    ERROR,
    /** Nothing answered at the instance's address: it was evicted. */
    GONE,
    /** The instance did not answer within the gateway's timeout. */
    TIMEOUT,
    /** The instance already had as many requests in flight as the gateway allows. */
    BUSY,
    /** The caller cancelled the request. */
    CANCELLED,
    /** The instance answered something that is not a JSON-RPC answer. */
    FAILED;

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
  private final Counter routed;
  private final Map<String, LongAdder> perInstance = new ConcurrentHashMap<>();

  /** Metrics whose instance gauge reads {@code states} (instance counts by state) when scraped. */
  public GatewayMetrics(Supplier<Map<String, Integer>> states) {
    routed =
        Counter.builder()
            .name("skillport_gateway_routed_requests_total")
            .help(
                "Requests the gateway routed to an instance, by instance and outcome (ok, error,"
                    + " gone, timeout, busy, cancelled, failed)")
            .labelNames("instance", "outcome")
            .register(registry);
    GaugeWithCallback.builder()
        .name("skillport_gateway_instances")
        .help("Instances known to the gateway, by state (up, missing, evicted)")
        .labelNames("state")
        .callback(
            cb -> {
              Map<String, Integer> counts = new TreeMap<>();
              counts.put("up", 0);
              counts.put("missing", 0);
              counts.put("evicted", 0);
              counts.putAll(states.get());
              counts.forEach((state, n) -> cb.call(n, state));
            })
        .register(registry);
  }

  /** Counts one request routed to {@code instance}. */
  public void routed(String instance, Outcome outcome) {
    routed.labelValues(instance, outcome.label()).inc();
    perInstance.computeIfAbsent(instance, k -> new LongAdder()).increment();
  }

  /** Requests routed to {@code instance} so far, whatever their outcome. */
  public long routedTo(String instance) {
    LongAdder n = perInstance.get(instance);
    return n == null ? 0 : n.sum();
  }

  /** The {@code Content-Type} of {@link #scrape()}. */
  public String contentType() {
    return PrometheusTextFormatWriter.CONTENT_TYPE;
  }

  /** The current metrics, rendered. */
  public byte[] scrape() {
    ByteArrayOutputStream out = new ByteArrayOutputStream(2048);
    try {
      writer.write(out, registry.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}

package dev.skillport.mcp.transport;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code GET /readyz} answers: 200 when ready, else 503, with a JSON object of {@code report}
 * (a {@code status} and, when not ready, what is not and why).
 *
 * @param ready whether the server takes work
 * @param report the body's fields, in order; {@code status} first
 */
public record Readiness(boolean ready, Map<String, String> report) {
  /** Ready: {@code {"status":"ready"}}. */
  public static final Readiness READY = new Readiness(true, Map.of("status", "ready"));

  /** Not ready yet: {@code {"status":"starting"}}. */
  public static final Readiness STARTING = new Readiness(false, Map.of("status", "starting"));

  public Readiness {
    Objects.requireNonNull(report, "report");
    if (!report.containsKey("status")) {
      throw new IllegalArgumentException("a readiness report has a status");
    }
    report = Collections.unmodifiableMap(new LinkedHashMap<>(report));
  }

  /** {@link #READY} or {@link #STARTING}. */
  public static Readiness of(boolean ready) {
    return ready ? READY : STARTING;
  }

  /** Not ready for a reason: {@code {"status":"unavailable", ...fields}}. */
  public static Readiness unavailable(Map<String, String> fields) {
    Map<String, String> report = new LinkedHashMap<>();
    report.put("status", "unavailable");
    report.putAll(fields);
    return new Readiness(false, report);
  }

  /** The HTTP status: 200 or 503. */
  int httpStatus() {
    return ready ? 200 : 503;
  }

  /** The body as compact JSON. */
  String body() {
    ObjectNode body = JsonNodeFactory.instance.objectNode();
    report.forEach(body::put);
    return body.toString();
  }
}

package dev.skillport.server.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What a {@code tools/call} request says about running as a job: {@code _meta.dcc.async} and {@code
 * _meta.dcc.parentJobId} (nested under {@code dcc} or as dotted keys), the session that asked, and
 * where that session receives {@value #JOB_UPDATED} notifications.
 *
 * @param sessionId the calling session's id, or {@code null}
 * @param async whether the request asked for a job
 * @param parentJobId the parent job's id, or {@code null}
 * @param jobUpdates receives the job's status on every state change
 */
public record CallMeta(
    String sessionId, boolean async, String parentJobId, Consumer<ObjectNode> jobUpdates) {
  /** The notification a session receives when one of its jobs changes state. */
  public static final String JOB_UPDATED = "notifications/$/dcc.jobUpdated";

  /** A plain synchronous call whose job updates, if any, go nowhere. */
  public static final CallMeta NONE = new CallMeta(null, false, null, update -> {});

  public CallMeta {
    Objects.requireNonNull(jobUpdates, "jobUpdates");
  }

  /** Reads the hints from a request's {@code _meta} (an empty object when it had none). */
  public static CallMeta fromRequest(
      JsonNode meta, String sessionId, Consumer<ObjectNode> jobUpdates) {
    JsonNode dcc = meta == null ? null : meta.get("dcc");
    JsonNode async = field(meta, dcc, "async");
    JsonNode parent = field(meta, dcc, "parentJobId");
    return new CallMeta(
        sessionId,
        async != null && async.isBoolean() && async.booleanValue(),
        parent != null && parent.isTextual() && !parent.asText().isBlank() ? parent.asText() : null,
        jobUpdates);
  }

  private static JsonNode field(JsonNode meta, JsonNode dcc, String name) {
    if (dcc != null && dcc.isObject() && dcc.has(name)) {
      return dcc.get(name);
    }
    return meta == null ? null : meta.get("dcc." + name);
  }
}

package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.runtime.jobs.JobScheduler;
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
 * @param principal the authenticated caller, or {@code null}; jobs it starts are bound to it
 * @param traceparent the request's W3C trace context, or {@code null}; written to the audit trail
 * @param stateless whether the call is a 2026-07-28 (stateless) request
 * @param tasks whether the client declared the Tasks extension for this call: a job is then
 *     answered as a task
 * @param client what a task of this call may ask its client, or {@code null}
 * @param via the surface the call came through when it is not MCP ({@code rest} for the REST skill
 *     API), or {@code null}; written to the audit trail
 */
public record CallMeta(
    String sessionId,
    boolean async,
    String parentJobId,
    Consumer<ObjectNode> jobUpdates,
    String principal,
    String traceparent,
    boolean stateless,
    boolean tasks,
    JobScheduler.ClientLink client,
    String via) {
  /** The notification a session receives when one of its jobs changes state. */
  public static final String JOB_UPDATED = "notifications/$/dcc.jobUpdated";

  /** A plain synchronous call whose job updates, if any, go nowhere. */
  public static final CallMeta NONE = new CallMeta(null, false, null, update -> {});

  public CallMeta {
    Objects.requireNonNull(jobUpdates, "jobUpdates");
  }

  /** A call without an authenticated caller or trace context. */
  public CallMeta(
      String sessionId, boolean async, String parentJobId, Consumer<ObjectNode> jobUpdates) {
    this(sessionId, async, parentJobId, jobUpdates, null, null, false, false, null, null);
  }

  /** The same call, made by {@code principal} under {@code traceparent}. */
  public CallMeta withCaller(String principal, String traceparent) {
    return new CallMeta(
        sessionId,
        async,
        parentJobId,
        jobUpdates,
        principal,
        traceparent,
        stateless,
        tasks,
        client,
        via);
  }

  /** The same call, come through {@code surface} ({@code rest}) rather than MCP. */
  public CallMeta via(String surface) {
    return new CallMeta(
        sessionId,
        async,
        parentJobId,
        jobUpdates,
        principal,
        traceparent,
        stateless,
        tasks,
        client,
        surface);
  }

  /**
   * The same call, made statelessly by a client that did (or did not) declare the Tasks extension
   * and may be asked what {@code client} supports.
   */
  public CallMeta statelessly(boolean tasksDeclared, JobScheduler.ClientLink client) {
    return new CallMeta(
        sessionId,
        async,
        parentJobId,
        jobUpdates,
        principal,
        traceparent,
        true,
        tasksDeclared,
        client,
        via);
  }

  /**
   * A call the server makes on the caller's behalf and waits for (a step of a workflow): it runs at
   * once, and a tool that must become a job becomes one the server awaits, never a task.
   */
  public CallMeta synchronous() {
    return new CallMeta(
        sessionId, false, null, jobUpdates, principal, traceparent, false, false, null, via);
  }

  /** Reads the hints from a request's {@code _meta} (an empty object when it had none). */
  public static CallMeta fromRequest(
      JsonNode meta, String sessionId, Consumer<ObjectNode> jobUpdates) {
    JsonNode dcc = meta == null ? null : meta.get("dcc");
    JsonNode async = field(meta, dcc, "async", "dcc.async");
    JsonNode parent = field(meta, dcc, "parentJobId", "dcc.parentJobId");
    return new CallMeta(
        sessionId,
        async != null && async.isBoolean() && async.booleanValue(),
        parent != null && parent.isTextual() && !parent.asText().isBlank() ? parent.asText() : null,
        jobUpdates);
  }

  /** {@code _meta.dcc.<name>}, else the flat {@code _meta["dcc.<name>"]} ({@code flat}). */
  private static JsonNode field(JsonNode meta, JsonNode dcc, String name, String flat) {
    if (dcc != null && dcc.isObject() && dcc.has(name)) {
      return dcc.get(name);
    }
    return meta == null ? null : meta.get(flat);
  }
}

package dev.skillport.runtime.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Objects;

/**
 * One job as stored and reported.
 *
 * @param id the job id
 * @param tool the called tool's name
 * @param sessionId the MCP session that started it, or {@code null}
 * @param parentId the parent job's id ({@code _meta.dcc.parentJobId}), or {@code null}
 * @param updatedAt when the record last changed (state or progress)
 * @param progress the last progress report ({@code {progress, total?, message?}}), or {@code null}
 * @param error why the job failed, was cancelled or interrupted, or {@code null}
 * @param result the {@code CallToolResult} of a finished call, or {@code null} (a job that failed
 *     without one failed in the server, not in the tool)
 * @param owner the authenticated caller that started it, or {@code null}; only it may see the job
 *     as a task
 * @param inputRequests what the running job waits for the client to answer ({@code key → {method,
 *     params}}), or {@code null}
 */
public record JobRecord(
    String id,
    String tool,
    String sessionId,
    String parentId,
    JobStatus status,
    Instant createdAt,
    Instant startedAt,
    Instant completedAt,
    Instant updatedAt,
    JsonNode progress,
    String error,
    JsonNode result,
    String owner,
    JsonNode inputRequests) {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  public JobRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(createdAt, "createdAt");
    updatedAt = updatedAt == null ? latest(createdAt, startedAt, completedAt) : updatedAt;
    progress = progress == null ? null : progress.deepCopy();
    result = result == null ? null : result.deepCopy();
    inputRequests =
        inputRequests == null || inputRequests.isEmpty() ? null : inputRequests.deepCopy();
  }

  /** A new pending job without an owner. */
  static JobRecord pending(String id, String tool, String sessionId, String parentId, Instant now) {
    return pending(id, tool, sessionId, parentId, null, now);
  }

  /** A new pending job. */
  static JobRecord pending(
      String id, String tool, String sessionId, String parentId, String owner, Instant now) {
    return new JobRecord(
        id,
        tool,
        sessionId,
        parentId,
        JobStatus.PENDING,
        now,
        null,
        null,
        now,
        null,
        null,
        null,
        owner,
        null);
  }

  JobRecord running(Instant now) {
    return new JobRecord(
        id,
        tool,
        sessionId,
        parentId,
        JobStatus.RUNNING,
        createdAt,
        now,
        null,
        now,
        progress,
        null,
        null,
        owner,
        null);
  }

  /**
   * The record as a shared store marks it when the instance running it is gone (its lease expired):
   * interrupted, with {@code why}; a finished record is returned unchanged.
   */
  public JobRecord orphaned(Instant now, String why) {
    return status.terminal() ? this : finished(JobStatus.INTERRUPTED, now, why, null);
  }

  JobRecord finished(JobStatus end, Instant now, String why, JsonNode callResult) {
    return new JobRecord(
        id,
        tool,
        sessionId,
        parentId,
        end,
        createdAt,
        startedAt,
        now,
        now,
        progress,
        why,
        callResult,
        owner,
        null);
  }

  JobRecord withProgress(JsonNode report, Instant now) {
    return new JobRecord(
        id,
        tool,
        sessionId,
        parentId,
        status,
        createdAt,
        startedAt,
        completedAt,
        now,
        report,
        error,
        result,
        owner,
        inputRequests);
  }

  JobRecord withInputRequests(JsonNode pending, Instant now) {
    return new JobRecord(
        id,
        tool,
        sessionId,
        parentId,
        status,
        createdAt,
        startedAt,
        completedAt,
        now,
        progress,
        error,
        result,
        owner,
        pending);
  }

  /**
   * The wire shape of {@code jobs_get_status}: {@code {job_id, tool, status, created_at,
   * started_at, completed_at, updated_at, progress, error, parent_job_id, result?}}.
   */
  public ObjectNode toWire(boolean includeResult) {
    ObjectNode o = NODES.objectNode();
    o.put("job_id", id);
    o.put("tool", tool);
    o.put("status", status.wire());
    o.put("created_at", createdAt.toString());
    o.put("started_at", startedAt == null ? null : startedAt.toString());
    o.put("completed_at", completedAt == null ? null : completedAt.toString());
    o.put("updated_at", updatedAt.toString());
    o.set("progress", progress == null ? NODES.nullNode() : progress.deepCopy());
    o.put("error", error);
    o.put("parent_job_id", parentId);
    if (includeResult && result != null) {
      o.set("result", result.deepCopy());
    }
    return o;
  }

  /** The stored form: the wire shape with the result, the session, the owner and the inputs. */
  public ObjectNode toStored() {
    ObjectNode o = toWire(true).put("session_id", sessionId);
    o.put("owner", owner);
    if (inputRequests != null) {
      o.set("input_requests", inputRequests.deepCopy());
    }
    return o;
  }

  /** Reads {@link #toStored()}; throws {@link IllegalArgumentException} for a damaged record. */
  public static JobRecord fromStored(JsonNode o) {
    JobStatus status =
        JobStatus.fromWire(o.path("status").asText())
            .orElseThrow(() -> new IllegalArgumentException("unknown status in " + o));
    try {
      return new JobRecord(
          text(o, "job_id"),
          text(o, "tool"),
          text(o, "session_id"),
          text(o, "parent_job_id"),
          status,
          Instant.parse(text(o, "created_at")),
          instant(o, "started_at"),
          instant(o, "completed_at"),
          instant(o, "updated_at"),
          o.hasNonNull("progress") ? o.get("progress") : null,
          text(o, "error"),
          o.hasNonNull("result") ? o.get("result") : null,
          text(o, "owner"),
          o.hasNonNull("input_requests") ? o.get("input_requests") : null);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("damaged job record: " + e.getMessage(), e);
    }
  }

  private static Instant latest(Instant... times) {
    Instant out = null;
    for (Instant t : times) {
      if (t != null && (out == null || t.isAfter(out))) {
        out = t;
      }
    }
    return out;
  }

  private static String text(JsonNode o, String field) {
    JsonNode v = o.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  private static Instant instant(JsonNode o, String field) {
    String t = text(o, field);
    return t == null ? null : Instant.parse(t);
  }
}

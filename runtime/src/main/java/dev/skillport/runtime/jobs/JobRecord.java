package dev.skillport.runtime.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Objects;

/**
 * One job as stored and reported; {@link JobRecordCodec} writes and reads its stored form.
 *
 * @param id the job id
 * @param tool the called tool's name
 * @param sessionId the MCP session that started it, or {@code null}
 * @param parentId the parent job's id ({@code _meta.dcc.parentJobId}), or {@code null}
 * @param updatedAt when the record last changed (state or progress)
 * @param progress the last progress report ({@code {progress, total?, message?}}), or {@code null}
 * @param error why the job failed, was cancelled or interrupted, or {@code null}
 * @param result what a finished call produced, or {@code null} (a job that failed without one
 *     failed in the server, not in the tool)
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
    JobResult result,
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

  /** The record as the instance that claimed it from a shared queue runs it. */
  public JobRecord claimed(Instant now) {
    return running(now);
  }

  /**
   * The record of an unfinished job queued again (its instance stopped and its tool is idempotent):
   * pending, as when it was first queued, with {@code why} as its last progress message.
   */
  public JobRecord requeued(Instant now, String why) {
    return new JobRecord(
        id,
        tool,
        sessionId,
        parentId,
        JobStatus.PENDING,
        createdAt,
        null,
        null,
        now,
        NODES.objectNode().put("progress", 0).put("message", why),
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

  JobRecord finished(JobStatus end, Instant now, String why, JobResult callResult) {
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
   * The status shape of {@code jobs_get_status} without the result: {@code {job_id, tool, status,
   * created_at, started_at, completed_at, updated_at, progress, error, parent_job_id}}.
   */
  public ObjectNode toWire() {
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
    return o;
  }

  /** {@link #toWire()} with the result, once there is one, as {@code results} renders it. */
  public ObjectNode toWire(ResultRenderer results) {
    ObjectNode o = toWire();
    if (result != null) {
      o.set("result", results.render(result));
    }
    return o;
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
}

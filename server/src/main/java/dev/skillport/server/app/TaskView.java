package dev.skillport.server.app;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.runtime.jobs.JobRecord;
import java.time.Duration;

/**
 * A job as a task of the {@code io.modelcontextprotocol/tasks} extension: the task handle a call
 * answers with, and the detailed task {@code tasks/get} answers with. A tool that reported its own
 * failure ({@code isError}) is a completed task carrying that result; a task fails only when the
 * server failed (the call produced no result, or the server stopped first).
 */
public final class TaskView {
  /** The tasks extension's identifier. */
  public static final String EXTENSION = "io.modelcontextprotocol/tasks";

  /** How long a task stays readable after it was created (finished jobs are kept a day). */
  public static final Duration TTL = Duration.ofHours(24);

  /** How often a client should poll. */
  public static final Duration POLL_INTERVAL = Duration.ofMillis(500);

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private TaskView() {}

  /**
   * The {@code CreateTaskResult} of a job just started: {@code resultType: "task"} and the task.
   */
  public static ObjectNode created(JobRecord job) {
    ObjectNode out = base(job);
    out.put("resultType", "task");
    return out;
  }

  /** The detailed task: status, and the result, error or questions that status carries. */
  public static ObjectNode detailed(JobRecord job) {
    ObjectNode out = base(job);
    switch (status(job)) {
      case "completed" -> out.set("result", CallResultJson.render(job.result()));
      case "failed" -> {
        ObjectNode error = out.putObject("error");
        error.put("code", -32603);
        error.put("message", job.error() != null ? job.error() : "Internal error");
      }
      case "input_required" -> out.set("inputRequests", job.inputRequests().deepCopy());
      default -> {}
    }
    return out;
  }

  /** The task status of a job. */
  public static String status(JobRecord job) {
    return switch (job.status()) {
      case PENDING, RUNNING -> job.inputRequests() != null ? "input_required" : "working";
      case COMPLETED -> "completed";
      case FAILED -> job.result() != null ? "completed" : "failed";
      case CANCELLED -> "cancelled";
      case INTERRUPTED -> "failed";
    };
  }

  private static ObjectNode base(JobRecord job) {
    ObjectNode out = NODES.objectNode();
    out.put("taskId", job.id());
    out.put("status", status(job));
    String message = message(job);
    if (message != null) {
      out.put("statusMessage", message);
    }
    out.put("createdAt", job.createdAt().toString());
    out.put("lastUpdatedAt", job.updatedAt().toString());
    out.put("ttlMs", TTL.toMillis());
    out.put("pollIntervalMs", POLL_INTERVAL.toMillis());
    return out;
  }

  private static String message(JobRecord job) {
    if (job.status().terminal()) {
      return job.error();
    }
    if (job.inputRequests() != null) {
      return "waiting for the client's input";
    }
    if (job.progress() != null && job.progress().hasNonNull("message")) {
      return job.progress().get("message").asText();
    }
    return null;
  }
}

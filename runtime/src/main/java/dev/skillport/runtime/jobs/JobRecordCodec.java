package dev.skillport.runtime.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.skill.NextTools;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolFailure;
import dev.skillport.api.tool.ToolResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The stored form of a {@link JobRecord}, for every {@link JobStore}: the status shape of {@code
 * jobs_get_status} with the result as its {@code CallToolResult} ({@link CallResultJson}), plus the
 * session, the owner, the pending questions and the result's typed failure ({@code failure: {code,
 * message, hint?, details?}}). Records written before the typed failure was kept read back without
 * one; their {@code error} still says why they failed.
 */
public final class JobRecordCodec {
  private JobRecordCodec() {}

  /** The stored form of {@code job}. */
  public static ObjectNode write(JobRecord job) {
    ObjectNode o = job.toWire(true).put("session_id", job.sessionId());
    o.put("owner", job.owner());
    if (job.inputRequests() != null) {
      o.set("input_requests", job.inputRequests().deepCopy());
    }
    ToolFailure failure = job.result() == null ? null : job.result().result().failure();
    if (failure != null) {
      ObjectNode f = o.putObject("failure");
      f.put("code", failure.code()).put("message", failure.message());
      if (failure.hint() != null) {
        f.put("hint", failure.hint());
      }
      if (failure.details() != null) {
        f.set("details", failure.details().deepCopy());
      }
    }
    return o;
  }

  /** Reads {@link #write}; throws {@link IllegalArgumentException} for a damaged record. */
  public static JobRecord read(JsonNode o) {
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
          o.hasNonNull("result") ? result(o.get("result"), failure(o.get("failure"))) : null,
          text(o, "owner"),
          o.hasNonNull("input_requests") ? o.get("input_requests") : null);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("damaged job record: " + e.getMessage(), e);
    }
  }

  private static JobResult result(JsonNode r, ToolFailure failure) {
    List<Content> content = new ArrayList<>();
    for (JsonNode item : r.path("content")) {
      content.add(content(item));
    }
    JsonNode structured = r.get("structuredContent");
    boolean isError = r.path("isError").asBoolean(false);
    JsonNode hints = r.path("_meta").path(CallResultJson.NEXT_TOOLS);
    NextTools next = null;
    if (hints.isObject()) {
      next = new NextTools(names(hints.path("on_success")), names(hints.path("on_failure")));
    }
    return new JobResult(
        new ToolResult(
            content,
            structured != null && structured.isObject() ? structured : null,
            isError,
            isError ? failure : null),
        next);
  }

  private static Content content(JsonNode item) {
    String type = item.path("type").asText();
    return switch (type) {
      case "text" -> new Content.Text(item.path("text").asText());
      case "image" -> new Content.Image(item.path("data").asText(), item.path("mimeType").asText());
      case "audio" -> new Content.Audio(item.path("data").asText(), item.path("mimeType").asText());
      case "resource" -> {
        JsonNode r = item.path("resource");
        yield new Content.EmbeddedResource(
            r.path("uri").asText(), text(r, "mimeType"), text(r, "text"), text(r, "blob"));
      }
      default -> throw new IllegalArgumentException("unknown content type " + type);
    };
  }

  private static ToolFailure failure(JsonNode f) {
    if (f == null || !f.isObject()) {
      return null;
    }
    return new ToolFailure(
        f.path("code").asText(),
        f.path("message").asText(),
        text(f, "hint"),
        f.hasNonNull("details") ? f.get("details") : null);
  }

  private static List<String> names(JsonNode list) {
    List<String> out = new ArrayList<>();
    list.forEach(n -> out.add(n.asText()));
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

package dev.skillport.runtime.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolFailure;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.skill.NextTools;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The stored form of a {@link JobRecord}, one JSON object, for every {@link JobStore}: the status
 * fields of {@link JobRecord#toWire()}, the session, the owner, the pending questions and the
 * instance running the job, and the typed result under {@code call}:
 *
 * <pre>{@code
 * {"content": [{"type": "text", "text": ...} | {"type": "image" | "audio", "data", "mime_type"}
 *              | {"type": "resource", "uri", "mime_type"?, "text" | "blob"}],
 *  "structured": {...}?, "failed": bool,
 *  "failure": {"code", "message", "hint"?, "details"?}?,
 *  "next": {"on_success": [...], "on_failure": [...]}?}
 * }</pre>
 *
 * <p>It is not the wire shape: what a client is sent is rendered by the MCP surface from the typed
 * value. A record written before the result was kept typed reads back without one; its status and
 * {@code error} still say how it ended.
 */
public final class JobRecordCodec {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JobRecordCodec() {}

  /** The stored form of {@code job}. */
  public static ObjectNode write(JobRecord job) {
    ObjectNode o = job.toWire().put("session_id", job.sessionId());
    o.put("owner", job.owner());
    if (job.instance() != null) {
      o.put("instance", job.instance());
    }
    if (job.inputRequests() != null) {
      o.set("input_requests", job.inputRequests().deepCopy());
    }
    if (job.result() != null) {
      o.set("call", write(job.result()));
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
          o.hasNonNull("call") ? readResult(o.get("call")) : null,
          text(o, "owner"),
          o.hasNonNull("input_requests") ? o.get("input_requests") : null,
          text(o, "instance"));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("damaged job record: " + e.getMessage(), e);
    }
  }

  private static ObjectNode write(JobResult job) {
    ToolResult result = job.result();
    ObjectNode o = NODES.objectNode();
    ArrayNode content = o.putArray("content");
    result.content().forEach(c -> content.add(c.accept(CONTENT)));
    if (result.structured() != null) {
      o.set("structured", result.structured());
    }
    o.put("failed", result.isError());
    ToolFailure failure = result.failure();
    if (failure != null) {
      ObjectNode f = o.putObject("failure");
      f.put("code", failure.code()).put("message", failure.message());
      if (failure.hint() != null) {
        f.put("hint", failure.hint());
      }
      if (failure.details() != null) {
        f.set("details", failure.details());
      }
    }
    if (job.next() != null) {
      ObjectNode next = o.putObject("next");
      job.next().onSuccess().forEach(next.putArray("on_success")::add);
      job.next().onFailure().forEach(next.putArray("on_failure")::add);
    }
    return o;
  }

  private static JobResult readResult(JsonNode o) {
    List<Content> content = new ArrayList<>();
    for (JsonNode item : o.path("content")) {
      content.add(content(item));
    }
    JsonNode structured = o.hasNonNull("structured") ? o.get("structured") : null;
    boolean failed = o.path("failed").asBoolean(false);
    JsonNode f = o.get("failure");
    ToolFailure failure =
        f != null && f.isObject()
            ? new ToolFailure(
                f.path("code").asText(),
                f.path("message").asText(),
                text(f, "hint"),
                f.hasNonNull("details") ? f.get("details") : null)
            : null;
    JsonNode n = o.get("next");
    NextTools next =
        n != null && n.isObject()
            ? new NextTools(names(n.path("on_success")), names(n.path("on_failure")))
            : null;
    return new JobResult(new ToolResult(content, structured, failed, failure), next);
  }

  /** Each kind of content item as the store keeps it. */
  private static final Content.Visitor<ObjectNode> CONTENT =
      new Content.Visitor<>() {
        @Override
        public ObjectNode text(Content.Text t) {
          return NODES.objectNode().put("type", "text").put("text", t.text());
        }

        @Override
        public ObjectNode image(Content.Image i) {
          return NODES
              .objectNode()
              .put("type", "image")
              .put("data", i.base64Data())
              .put("mime_type", i.mimeType());
        }

        @Override
        public ObjectNode audio(Content.Audio a) {
          return NODES
              .objectNode()
              .put("type", "audio")
              .put("data", a.base64Data())
              .put("mime_type", a.mimeType());
        }

        @Override
        public ObjectNode embeddedResource(Content.EmbeddedResource r) {
          ObjectNode o = NODES.objectNode().put("type", "resource").put("uri", r.uri());
          o.put("mime_type", r.mimeType());
          if (r.text() != null) {
            o.put("text", r.text());
          } else {
            o.put("blob", r.blob());
          }
          return o;
        }
      };

  private static Content content(JsonNode item) {
    String type = item.path("type").asText();
    return switch (type) {
      case "text" -> new Content.Text(item.path("text").asText());
      case "image" -> new Content.Image(item.path("data").asText(), text(item, "mime_type"));
      case "audio" -> new Content.Audio(item.path("data").asText(), text(item, "mime_type"));
      case "resource" ->
          new Content.EmbeddedResource(
              item.path("uri").asText(),
              text(item, "mime_type"),
              text(item, "text"),
              text(item, "blob"));
      default -> throw new IllegalArgumentException("unknown content type " + type);
    };
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

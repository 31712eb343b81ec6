package dev.skillport.server.app;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.skill.NextTools;
import dev.skillport.runtime.jobs.JobResult;
import java.util.List;

/**
 * The MCP {@code CallToolResult} of a {@link ToolResult}: {@code {content, structuredContent?,
 * isError, _meta?}} with the follow-up hints that match the outcome under {@code
 * _meta["dcc.next_tools"]}. The one rendering of a result, for a call answered at once and for a
 * job's result ({@code tasks/result}, {@code jobs_get_status}), so both look the same.
 */
public final class CallResultJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private CallResultJson() {}

  /** {@code result} as a client is sent it, with {@code next} (or null) in its {@code _meta}. */
  public static ObjectNode render(ToolResult result, NextTools next) {
    ObjectNode out = NODES.objectNode();
    ArrayNode content = out.putArray("content");
    for (Content c : result.content()) {
      content.add(c.accept(CONTENT));
    }
    if (result.structured() != null && result.structured().isObject()) {
      out.set("structuredContent", result.structured());
    }
    out.put("isError", result.isError());
    if (next != null) {
      List<String> suggested = result.isError() ? next.onFailure() : next.onSuccess();
      if (!suggested.isEmpty()) {
        ObjectNode nt = NODES.objectNode();
        ArrayNode list = nt.putArray(result.isError() ? "on_failure" : "on_success");
        suggested.forEach(list::add);
        out.putObject("_meta").set(NEXT_TOOLS, nt);
      }
    }
    return out;
  }

  /** A job's result as a client is sent it. */
  public static ObjectNode render(JobResult result) {
    return render(result.result(), result.next());
  }

  private static final String NEXT_TOOLS = "dcc.next_tools";

  /** Each kind of content item as MCP renders it. */
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
              .put("mimeType", i.mimeType());
        }

        @Override
        public ObjectNode audio(Content.Audio a) {
          return NODES
              .objectNode()
              .put("type", "audio")
              .put("data", a.base64Data())
              .put("mimeType", a.mimeType());
        }

        @Override
        public ObjectNode embeddedResource(Content.EmbeddedResource r) {
          ObjectNode o = NODES.objectNode();
          ObjectNode res = o.put("type", "resource").putObject("resource");
          res.put("uri", r.uri());
          if (r.mimeType() != null) {
            res.put("mimeType", r.mimeType());
          }
          if (r.text() != null) {
            res.put("text", r.text());
          } else {
            res.put("blob", r.blob());
          }
          return o;
        }
      };
}

package dev.skillport.runtime.core;

import static dev.skillport.runtime.core.CoreTools.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ClientRequestException;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.registry.Catalog;
import dev.skillport.runtime.SessionState;
import java.time.Duration;

/** {@code list_roots}: the filesystem roots the client shares (MCP roots). */
final class ListRoots implements CoreToolCall {

  @Override
  public ToolResult call(Catalog catalog, SessionState session, JsonNode args, ToolContext ctx) {
    return listRoots(ctx);
  }

  private static ToolResult listRoots(ToolContext ctx) {
    ObjectNode out = NODES.objectNode();
    if (!ctx.clientSupports("roots")) {
      out.put("supports_roots", false);
      out.put("count", 0);
      out.putArray("roots");
      return ToolResult.structured(out);
    }
    out.put("supports_roots", true);
    ArrayNode roots = NODES.arrayNode();
    try {
      JsonNode result = ctx.request("roots/list", NODES.objectNode());
      result.path("roots").forEach(roots::add);
    } catch (ClientRequestException e) {
      // The client declared roots but did not give them: a failure, not an empty list of roots.
      return ToolResult.failure(
          ToolFailureCode.CLIENT_REQUEST_FAILED,
          e.getMessage(),
          e.reason() == ClientRequestException.Reason.TIMED_OUT
              ? "the client declared the roots capability but did not answer roots/list; the"
                  + " server's limit is serve --client-request-timeout"
              : null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ToolResult.failure(ToolFailureCode.CANCELLED, "the call was interrupted", null);
    }
    out.put("count", roots.size());
    out.set("roots", roots);
    return ToolResult.structured(out);
  }

  private static final Duration ROOTS_TIMEOUT = Duration.ofSeconds(30);
}

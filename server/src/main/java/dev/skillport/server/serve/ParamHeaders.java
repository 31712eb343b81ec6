package dev.skillport.server.serve;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.mcp.Caller;
import dev.skillport.mcp.McpException;
import dev.skillport.mcp.MirroredHeaders;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks the {@code Mcp-Param-{name}} headers of a stateless HTTP {@code tools/call} against its
 * arguments: every input-schema property marked {@code x-mcp-header} (reached from the root through
 * {@code properties} only) whose argument is present must be mirrored, exactly, in its header.
 */
final class ParamHeaders {
  private ParamHeaders() {}

  /**
   * @param schema the called tool's input schema, or null (an unknown tool: nothing to check)
   * @param args the call's arguments, or null
   * @throws McpException {@code HEADER_MISMATCH} for a missing, invalid or different header
   */
  static void check(JsonNode schema, JsonNode args, Caller caller) throws McpException {
    if (schema == null || !schema.isObject()) {
      return;
    }
    List<String[]> marked = new ArrayList<>();
    collect(schema, new ArrayList<>(), marked, 0);
    for (String[] entry : marked) {
      String header = entry[entry.length - 1];
      JsonNode value = args;
      for (int i = 0; i < entry.length - 1 && value != null; i++) {
        value = value.isObject() ? value.get(entry[i]) : null;
      }
      String name = MirroredHeaders.PARAM_PREFIX + header;
      MirroredHeaders.check(name, caller.header(name).orElse(null), value);
    }
  }

  /** Collects {@code [path..., headerName]} for every marked property. */
  private static void collect(JsonNode schema, List<String> path, List<String[]> out, int depth) {
    JsonNode properties = schema.get("properties");
    if (properties == null || !properties.isObject() || depth > 16) {
      return;
    }
    properties
        .properties()
        .forEach(
            e -> {
              List<String> here = new ArrayList<>(path);
              here.add(e.getKey());
              JsonNode marker = e.getValue().get("x-mcp-header");
              if (marker != null && marker.isTextual() && !marker.asText().isBlank()) {
                List<String> entry = new ArrayList<>(here);
                entry.add(marker.asText());
                out.add(entry.toArray(String[]::new));
              }
              if (e.getValue().isObject()) {
                collect(e.getValue(), here, out, depth + 1);
              }
            });
  }
}

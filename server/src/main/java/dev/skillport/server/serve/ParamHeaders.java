package dev.skillport.server.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.skillport.mcp.Caller;
import dev.skillport.mcp.McpException;
import dev.skillport.mcp.MirroredHeaders;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks the {@code Mcp-Param-{name}} headers of a stateless HTTP {@code tools/call} against its
 * arguments: every input-schema property marked {@code x-mcp-header} (reached from the root through
 * {@code properties} only) whose argument is present must be mirrored, exactly, in its header.
 *
 * <p>Which properties a schema marks is worked out once per schema: a catalog's schemas are frozen
 * trees, the same instances for every call until the catalog changes, so they are remembered by
 * identity and forgotten with the catalog that held them.
 */
final class ParamHeaders {
  private final Cache<JsonNode, List<String[]>> marked =
      Caffeine.newBuilder().weakKeys().maximumSize(100_000).build();

  /**
   * @param schema the called tool's input schema, or null (an unknown tool: nothing to check)
   * @param args the call's arguments, or null
   * @throws McpException {@code HEADER_MISMATCH} for a missing, invalid or different header
   */
  void check(JsonNode schema, JsonNode args, Caller caller) throws McpException {
    if (schema == null || !schema.isObject()) {
      return;
    }
    for (String[] entry : marked.get(schema, ParamHeaders::marked)) {
      String header = entry[entry.length - 1];
      JsonNode value = args;
      for (int i = 0; i < entry.length - 1 && value != null; i++) {
        value = value.isObject() ? value.get(entry[i]) : null;
      }
      String name = MirroredHeaders.PARAM_PREFIX + header;
      MirroredHeaders.check(name, caller.header(name).orElse(null), value);
    }
  }

  /** {@code [path..., headerName]} of every property {@code schema} marks. */
  private static List<String[]> marked(JsonNode schema) {
    List<String[]> out = new ArrayList<>();
    collect(schema, new ArrayList<>(), out, 0);
    return List.copyOf(out);
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

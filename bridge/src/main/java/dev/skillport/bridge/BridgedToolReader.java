package dev.skillport.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.model.skill.McpBridgeSpec;
import dev.skillport.model.skill.ToolAnnotations;
import dev.skillport.model.skill.ToolBinding;
import dev.skillport.model.skill.ToolSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns the tools a bridged server lists into tools of its skill. Everything the server says is
 * untrusted and normalised: a name becomes {@code [namespace_]name} with only letters, digits,
 * {@code _} and {@code -}, short enough that {@code <skill>__<name>} fits the 64 characters MCP
 * allows; a description is stripped of control characters, capped at {@value #MAX_DESCRIPTION}
 * characters and marked as third-party text; annotations keep only the specification's hints; an
 * input schema must be an object schema of at most {@value #MAX_SCHEMA_BYTES} bytes and {@value
 * #MAX_SCHEMA_DEPTH} levels (an output schema that is not is left out); {@code allow_tools} and
 * {@code deny_tools} apply to the server's own names, {@code *} matching any run of characters. At
 * most {@value #MAX_TOOLS} tools are mounted. Every tool left out is named in a message, never
 * silently.
 */
final class BridgedToolReader {
  static final int MAX_TOOLS = 1000;
  static final int MAX_DESCRIPTION = 1024;
  static final int MAX_SCHEMA_BYTES = 64 * 1024;
  static final int MAX_SCHEMA_DEPTH = 32;
  private static final int MAX_TITLE = 128;
  private static final int MAX_LISTED_NAME = 64;
  private static final Pattern UNLISTABLE = Pattern.compile("[^A-Za-z0-9_-]");

  private BridgedToolReader() {}

  /** The mounted tools, and a message for each tool (or run of tools) left out. */
  record Mounted(List<ToolSpec> tools, List<String> dropped) {
    Mounted {
      tools = List.copyOf(tools);
      dropped = List.copyOf(dropped);
    }
  }

  static Mounted mount(
      String skill, McpBridgeSpec spec, Set<String> declaredNames, List<JsonNode> listed) {
    List<ToolSpec> tools = new ArrayList<>();
    List<String> dropped = new ArrayList<>();
    Set<String> names = new HashSet<>(declaredNames);
    int overLimit = 0;
    for (JsonNode t : listed) {
      String remote = t.path("name").isTextual() ? t.get("name").asText() : null;
      if (remote == null || remote.isEmpty()) {
        dropped.add("a tool without a name was left out");
        continue;
      }
      String shown = Text.clean(remote, 80);
      if (!matches(spec.allowTools(), remote, true) || matches(spec.denyTools(), remote, false)) {
        continue;
      }
      if (tools.size() >= MAX_TOOLS) {
        overLimit++;
        continue;
      }
      String local = localName(spec.namespace(), remote);
      if (local.isEmpty() || skill.length() + 2 + local.length() > MAX_LISTED_NAME) {
        dropped.add(
            "tool '" + shown + "' was left out: its name cannot be listed within 64 characters");
        continue;
      }
      if (!names.add(local)) {
        dropped.add(
            "tool '"
                + shown
                + "' was left out: another tool of the skill is named '"
                + local
                + "'");
        continue;
      }
      JsonNode input = t.get("inputSchema");
      String problem = schemaProblem(input);
      if (problem == null && !ToolSpec.admitsOnlyObjects(input)) {
        problem = "its input schema is not an object schema";
      }
      if (problem != null) {
        dropped.add("tool '" + shown + "' was left out: " + problem);
        names.remove(local);
        continue;
      }
      JsonNode output = t.get("outputSchema");
      if (output != null
          && (schemaProblem(output) != null || !ToolSpec.admitsOnlyObjects(output))) {
        output = null;
      }
      tools.add(
          ToolSpec.builder(local, input)
              .description(description(skill, t))
              .outputSchema(output)
              .annotations(annotations(t.path("annotations")))
              .binding(new ToolBinding.Bridge(remote))
              .build());
    }
    if (overLimit > 0) {
      dropped.add(
          overLimit
              + " more tools were left out: at most "
              + MAX_TOOLS
              + " tools of one bridged server are mounted");
    }
    return new Mounted(tools, dropped);
  }

  /** {@code [namespace_]name} with every character MCP does not allow in a name as {@code _}. */
  static String localName(String namespace, String remote) {
    String name = UNLISTABLE.matcher(remote).replaceAll("_");
    return namespace == null || namespace.isEmpty() ? name : namespace + "_" + name;
  }

  /** Whether {@code name} matches one of {@code patterns}; an empty list gives {@code ifEmpty}. */
  static boolean matches(List<String> patterns, String name, boolean ifEmpty) {
    if (patterns.isEmpty()) {
      return ifEmpty;
    }
    for (String p : patterns) {
      if (p.contains("*")) {
        String re =
            Arrays.stream(p.split("\\*", -1))
                .map(Pattern::quote)
                .reduce((a, b) -> a + ".*" + b)
                .orElse("");
        if (name.matches(re)) {
          return true;
        }
      } else if (p.equals(name)) {
        return true;
      }
    }
    return false;
  }

  /** Why a schema cannot be used (too large, too deep), or null. */
  static String schemaProblem(JsonNode schema) {
    if (schema == null) {
      return "it has no input schema";
    }
    int[] budget = {MAX_SCHEMA_BYTES};
    int depth = depth(schema, 0, budget);
    if (budget[0] < 0) {
      return "its schema is larger than " + MAX_SCHEMA_BYTES / 1024 + " KiB";
    }
    if (depth > MAX_SCHEMA_DEPTH) {
      return "its schema nests deeper than " + MAX_SCHEMA_DEPTH + " levels";
    }
    return null;
  }

  /** The nesting depth of {@code node}, charging an estimate of its size to {@code budget}. */
  private static int depth(JsonNode node, int level, int[] budget) {
    if (budget[0] < 0 || level > MAX_SCHEMA_DEPTH) {
      return level;
    }
    if (node.isValueNode()) {
      budget[0] -= node.isTextual() ? node.asText().length() + 2 : 8;
      return level;
    }
    int deepest = level;
    for (var e : node.properties()) {
      budget[0] -= e.getKey().length() + 4;
      deepest = Math.max(deepest, depth(e.getValue(), level + 1, budget));
      if (budget[0] < 0 || deepest > MAX_SCHEMA_DEPTH) {
        return deepest;
      }
    }
    if (node.isArray()) {
      for (JsonNode item : node) {
        budget[0] -= 1;
        deepest = Math.max(deepest, depth(item, level + 1, budget));
        if (budget[0] < 0 || deepest > MAX_SCHEMA_DEPTH) {
          return deepest;
        }
      }
    }
    return deepest;
  }

  private static String description(String skill, JsonNode tool) {
    String text = tool.path("description").isTextual() ? tool.get("description").asText() : "";
    String title = tool.path("title").isTextual() ? tool.get("title").asText() : "";
    String body = Text.clean(text.isBlank() ? title : text, MAX_DESCRIPTION);
    return "[third-party: the MCP server of skill " + skill + "] " + body;
  }

  private static ToolAnnotations annotations(JsonNode a) {
    if (!a.isObject()) {
      return ToolAnnotations.NONE;
    }
    String title =
        a.path("title").isTextual() ? Text.clean(a.get("title").asText(), MAX_TITLE) : null;
    return new ToolAnnotations(
        title,
        hint(a, "readOnlyHint"),
        hint(a, "destructiveHint"),
        hint(a, "idempotentHint"),
        hint(a, "openWorldHint"),
        null);
  }

  private static Boolean hint(JsonNode a, String name) {
    JsonNode v = a.get(name);
    return v != null && v.isBoolean() ? v.booleanValue() : null;
  }
}

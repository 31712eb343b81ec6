package dev.skillport.adapters.blender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.script.ScriptResults;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import java.nio.file.Path;

/**
 * Turns what Blender answered into a tool result. A value a script's {@code main} returned, and
 * what a script without one printed before it ended, are read by the script protocol's rules
 * ({@link ScriptResults}, the same as a subprocess script's stdout and exit code); a script that
 * raised, and a failure of the host itself, are errors carrying {@code {code, message, hint}}.
 */
final class HostResults {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private HostResults() {}

  static ToolResult failure(ToolFailureCode code, String message, String hint, JsonNode details) {
    return ToolResult.failure(code, message, hint, details);
  }

  /**
   * What the host loop answered: a script that raised is {@code SCRIPT_FAILED} with its type,
   * message and traceback; a value it returned is read by the script protocol's rules.
   *
   * @param workDir the skill folder, against which content items' relative paths resolve
   */
  static ToolResult answered(JsonNode answer, Path workDir) {
    if (!answer.path("ok").asBoolean()) {
      String error = answer.path("error").asText("the script failed");
      ObjectNode details = NODES.objectNode();
      details.put("type", answer.path("type").asText("Error"));
      String trace = answer.path("traceback").asText("");
      if (!trace.isEmpty()) {
        details.put("traceback", trace);
      }
      return failure(
          ToolFailureCode.SCRIPT_FAILED,
          error + (trace.isEmpty() ? "" : "\n" + trace.strip()),
          null,
          details);
    }
    JsonNode printed = answer.path("printed");
    if (printed.isObject()) {
      // A script written as a program: what it printed and its exit code, read as if it had run
      // in a process of its own.
      return ScriptResults.interpret(
          printed.path("exit").asInt(),
          printed.path("stdout").asText(""),
          printed.path("truncated").asBoolean(),
          "",
          workDir);
    }
    return ScriptResults.ofReturnedValue(answer.path("result"), workDir);
  }
}

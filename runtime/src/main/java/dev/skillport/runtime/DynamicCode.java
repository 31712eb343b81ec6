package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Runs a dynamic tool's Python code (only on a server that allows it) as a script of its own
 * through the {@link ScriptToolRunner}: the same interpreter choice, minimal environment, timeout,
 * process-tree kill, output caps and result rules as a skill's script. The body becomes a function
 * of {@code params} (the call's arguments), so upstream's bodies that {@code return} a value work;
 * a value returned is printed as the JSON result. It runs in a temporary folder of its own, removed
 * afterwards.
 */
public final class DynamicCode implements DynamicTools.CodeRunner {
  private static final String HEAD =
      """
      import json as _skillport_json
      import sys as _skillport_sys

      params = _skillport_json.loads(_skillport_sys.stdin.read() or "{}")


      def _skillport_dynamic_tool(params):
      """;
  private static final String TAIL =
      """
          return None


      _skillport_result = _skillport_dynamic_tool(params)
      if _skillport_result is not None:
          print(_skillport_json.dumps(_skillport_result, default=str))
      """;

  private final ScriptToolRunner scripts;

  public DynamicCode(ScriptToolRunner scripts) {
    this.scripts = scripts;
  }

  /** The script that runs {@code code} as the body of a function of {@code params}. */
  static String script(String code) {
    StringBuilder out = new StringBuilder(HEAD);
    for (String line : code.split("\r?\n", -1)) {
      out.append(line.isBlank() ? "" : "    " + line).append('\n');
    }
    return out.append(TAIL).toString();
  }

  @Override
  public ToolResult run(DynamicTools.Tool tool, JsonNode arguments, ToolContext ctx) {
    Path dir = null;
    try {
      dir = Files.createTempDirectory("skillport-dyn-");
      Path file = dir.resolve(tool.original() + ".py");
      Files.writeString(file, script(tool.code()), StandardCharsets.UTF_8);
      String dcc = tool.dcc() == null ? ScriptPolicy.PLAIN_PYTHON : tool.dcc();
      return scripts.run(file, dir, arguments, tool.timeoutSecs(), ctx, dcc);
    } catch (IOException e) {
      return ToolResult.failure(
          ToolFailureCode.SCRIPT_START_FAILED,
          "could not write the dynamic tool's script: " + e.getMessage(),
          "check the temporary folder");
    } finally {
      if (dir != null) {
        delete(dir);
      }
    }
  }

  private static void delete(Path dir) {
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // A folder left in the temporary directory is harmless; the call's result stands.
    }
  }
}

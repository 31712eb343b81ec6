package dev.skillport.samples.pythonhost;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.skillport.api.host.ToolHandlerExtension;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolResult;
import java.util.Map;
import org.pf4j.Extension;

/** A Java handler shipped by the plugin: reports which Python the host would start. */
@Extension
public class PythonHostHandlers implements ToolHandlerExtension {
  @Override
  public Map<String, ToolHandler> handlers() {
    return Map.of(
        "python-host.info",
        invocation ->
            ToolResult.structured(
                JsonNodeFactory.instance
                    .objectNode()
                    .put("adapter", "python-host")
                    .put(
                        "python",
                        System.getenv().getOrDefault(PythonHostAdapter.PYTHON_ENV, "python3"))));
  }
}

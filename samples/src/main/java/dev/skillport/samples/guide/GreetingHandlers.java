package dev.skillport.samples.guide;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolHandlerProvider;
import dev.skillport.api.tool.ToolInvocation;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.sdk.Arguments;
import dev.skillport.sdk.Results;
import dev.skillport.sdk.ToolHandlers;
import java.util.Map;

// docs:begin handlers
/**
 * The Java handler of the greeting skill's {@code hello} tool ({@code handler: greeting.hello}).
 */
public final class GreetingHandlers implements ToolHandlerProvider {
  private static final ToolHandlerProvider HANDLERS =
      ToolHandlers.builder().handler("greeting.hello", GreetingHandlers::hello).build();

  @Override
  public Map<String, ToolHandler> handlers() {
    return HANDLERS.handlers();
  }

  static ToolResult hello(ToolInvocation call) {
    Arguments args = Arguments.of(call);
    String name = args.string("name").strip();
    String greeting = (args.bool("polite", false) ? "Good day, " : "Hello, ") + name + "!";
    return Results.structured(JsonNodeFactory.instance.objectNode().put("greeting", greeting));
  }
}
// docs:end handlers

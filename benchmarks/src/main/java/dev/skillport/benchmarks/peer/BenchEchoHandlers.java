package dev.skillport.benchmarks.peer;

import dev.skillport.api.host.ToolHandlerExtension;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolResult;
import java.util.Map;
import org.pf4j.Extension;

/**
 * The benchmark plugin's Java handlers: {@code bench.echo} returns its {@code text}; {@code
 * bench.nap} sleeps {@code millis} (a tool that waits on something other than the server's CPU).
 */
@Extension
public final class BenchEchoHandlers implements ToolHandlerExtension {
  /** The handler id the fixture skills' tools name. */
  public static final String ID = "bench.echo";

  /** The handler id of the fixture's {@code bench-nap} tool. */
  public static final String NAP = "bench.nap";

  @Override
  public Map<String, ToolHandler> handlers() {
    return Map.of(
        ID,
        inv -> ToolResult.text(inv.arguments().path("text").asText()),
        NAP,
        inv -> {
          try {
            Thread.sleep(inv.arguments().path("millis").asLong());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ToolResult.error("interrupted");
          }
          return ToolResult.text("napped");
        });
  }
}

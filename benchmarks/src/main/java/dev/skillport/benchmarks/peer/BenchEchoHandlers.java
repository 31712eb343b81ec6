package dev.skillport.benchmarks.peer;

import dev.skillport.api.host.ToolHandlerExtension;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolResult;
import java.util.Map;
import org.pf4j.Extension;

/** The benchmark plugin's one Java handler, {@code bench.echo}: returns its {@code text}. */
@Extension
public final class BenchEchoHandlers implements ToolHandlerExtension {
  /** The handler id the fixture skills' tools name. */
  public static final String ID = "bench.echo";

  @Override
  public Map<String, ToolHandler> handlers() {
    return Map.of(ID, inv -> ToolResult.text(inv.arguments().path("text").asText()));
  }
}

package dev.skillport.server.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.registry.Catalog;
import dev.skillport.runtime.CallMeta;
import dev.skillport.runtime.CallOutcome;
import dev.skillport.runtime.CallRouter;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.core.CoreTools;
import dev.skillport.runtime.core.StatelessTools;

/**
 * The platform tools the router hands a call to: a stateless request's own {@code load_skill} and
 * {@code activate_tool_group}, the session tools, and the core tools.
 */
final class PlatformCalls implements CallRouter.PlatformTools {
  private final CoreTools core;
  private final StatelessTools stateless;
  // Null when the service has no session tools.
  private final SessionTools sessionTools;

  PlatformCalls(CoreTools core, StatelessTools stateless, SessionTools sessionTools) {
    this.core = core;
    this.stateless = stateless;
    this.sessionTools = sessionTools;
  }

  @Override
  public CallOutcome call(
      Catalog snapshot,
      SessionState session,
      String name,
      JsonNode args,
      ToolContext ctx,
      CallMeta meta,
      CallRouter router) {
    if (session.isStateless() && stateless.has(name)) {
      return completed(stateless.call(name, snapshot, session, args, meta.principal()));
    }
    if (sessionTools != null && !core.has(name)) {
      return completed(sessionTools.call(name, session, args, ctx, meta, router::call));
    }
    return completed(core.call(name, snapshot, session, args, ctx));
  }

  private static CallOutcome completed(ToolResult result) {
    return new CallOutcome.Completed(result, null);
  }
}

package dev.skillport.model.status;

import dev.skillport.api.owner.Principal;
import dev.skillport.model.diagnostic.Diagnostic;
import java.util.List;

/**
 * What a running server tells about itself. Every method returns an immutable snapshot taken at the
 * time of the call; implementations are thread-safe and cheap enough to call per tool call.
 */
public interface ServerIntrospection {

  /** Version, uptime, transports, sessions, catalog and plugin state. */
  ServerStatus status();

  /** The diagnostics of the current catalog snapshot (every skill root's loader output). */
  List<Diagnostic> skillDiagnostics();

  /**
   * One diagnostic per plugin or host adapter that was left out ({@code PLUGIN_INVALID}, {@code
   * PLUGIN_START_FAILED}, …), with the plugin jar as the file.
   */
  List<Diagnostic> pluginDiagnostics();

  /**
   * The most recent tool calls the server kept, newest first: the same entries as its audit log,
   * argument names only. The server keeps a bounded number; older calls are dropped. Sessions
   * appear as stable labels, never as their ids: a session id lets whoever holds it act as that
   * session. {@code viewer} sees its own calls only, an operator every caller's ({@link
   * Principal#sees(String)}).
   */
  List<AuditEntry> recentCalls(Principal viewer);

  /**
   * Call counts and durations per tool name since the server started, by tool name: of {@code
   * viewer}'s own calls, or of every caller's for an operator.
   */
  List<ToolMetrics> toolMetrics(Principal viewer);
}

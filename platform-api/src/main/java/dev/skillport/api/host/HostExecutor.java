package dev.skillport.api.host;

import dev.skillport.api.stability.API;
import dev.skillport.api.tool.ToolResult;

/**
 * Runs script tools inside a host, on the host's main thread. Implementations queue calls and run
 * them one at a time on that thread; {@link #execute} blocks the calling worker until the result is
 * ready, the timeout passes or the call is cancelled.
 */
@FunctionalInterface
@API(status = API.Status.STABLE)
public interface HostExecutor {

  /**
   * Runs one call. A failure of the script itself is an error result; an exception means the host
   * could not run the call at all (it is reported to the client as a failed call).
   */
  ToolResult execute(HostCall call) throws Exception;
}

package dev.skillport.api.tool;

import dev.skillport.api.stability.API;
import java.util.Map;

/**
 * Contributes Java tool handlers by id; found with {@link java.util.ServiceLoader} (and, for
 * plugins, as an extension).
 */
@API(status = API.Status.STABLE)
public interface ToolHandlerProvider {
  /** Handler id → handler. Ids are global: prefix them with the skill or vendor name. */
  Map<String, ToolHandler> handlers();
}

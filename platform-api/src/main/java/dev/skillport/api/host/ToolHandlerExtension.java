package dev.skillport.api.host;

import dev.skillport.api.stability.API;
import dev.skillport.api.tool.ToolHandlerProvider;
import org.pf4j.ExtensionPoint;

/**
 * A {@link ToolHandlerProvider} contributed by a plugin: mark the implementation with
 * {@code @Extension} and its handlers join the server's handler registry. It is a separate
 * interface so that {@link ToolHandlerProvider} services on the class path do not need PF4J.
 */
@API(status = API.Status.STABLE)
public interface ToolHandlerExtension extends ToolHandlerProvider, ExtensionPoint {}

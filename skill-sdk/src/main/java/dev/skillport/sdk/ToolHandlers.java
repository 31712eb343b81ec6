package dev.skillport.sdk;

import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolHandlerProvider;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Registers Java tool handlers by id. A skill binds a tool to one with {@code handler: <id>} in its
 * tools file; the server finds the handlers through a {@link ToolHandlerProvider} listed in {@code
 * META-INF/services/dev.skillport.api.tool.ToolHandlerProvider}.
 *
 * <pre>{@code
 * public final class GreetingHandlers implements ToolHandlerProvider {
 *   private static final ToolHandlerProvider HANDLERS =
 *       ToolHandlers.builder()
 *           .handler("greeting.hello", inv -> Results.text("Hello, "
 *               + Arguments.of(inv).string("name", "world")))
 *           .build();
 *
 *   public Map<String, ToolHandler> handlers() {
 *     return HANDLERS.handlers();
 *   }
 * }
 * }</pre>
 */
public final class ToolHandlers {
  private ToolHandlers() {}

  /** Starts an empty set of handlers. */
  public static Builder builder() {
    return new Builder();
  }

  /** Collects handlers by id; ids are global, so prefix them with the skill or vendor name. */
  public static final class Builder {
    private final Map<String, ToolHandler> handlers = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Adds the handler for {@code id}.
     *
     * @throws IllegalArgumentException when the id is blank or already registered here
     */
    public Builder handler(String id, ToolHandler handler) {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(handler, "handler");
      if (id.isBlank()) {
        throw new IllegalArgumentException("handler id must not be blank");
      }
      if (handlers.putIfAbsent(id, handler) != null) {
        throw new IllegalArgumentException("handler id '" + id + "' is registered twice");
      }
      return this;
    }

    /** A provider of the handlers added so far, in the order they were added. */
    public ToolHandlerProvider build() {
      Map<String, ToolHandler> snapshot =
          Collections.unmodifiableMap(new LinkedHashMap<>(handlers));
      return () -> snapshot;
    }
  }
}

package dev.skillport.api.resource;

import dev.skillport.api.stability.API;

/**
 * How a {@link ResourceProvider} tells the server that its resources changed; the server passes the
 * news on to the sessions that care.
 */
@API(status = API.Status.EXPERIMENTAL)
public interface ResourceEvents {
  /** The contents behind {@code uri} changed: subscribed sessions get {@code resources/updated}. */
  void updated(String uri);

  /** Resources were added or removed: every session gets {@code resources/list_changed}. */
  void listChanged();
}

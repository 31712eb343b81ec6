package dev.skillport.web;

/**
 * What {@code GET /metrics} serves: the server's metrics in a text exposition format. The server
 * owns its metrics; the page only hands their current text to whoever scrapes.
 */
public interface MetricsExposition {
  /** The {@code Content-Type} of {@link #scrape()}. */
  String contentType();

  /** The current metrics, rendered. */
  byte[] scrape();
}

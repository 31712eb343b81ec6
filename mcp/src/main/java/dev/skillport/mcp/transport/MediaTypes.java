package dev.skillport.mcp.transport;

import java.util.Locale;

/** Reads {@code Content-Type} and {@code Accept} as the Streamable HTTP transport requires them. */
final class MediaTypes {
  private MediaTypes() {}

  /** Whether a {@code Content-Type} names JSON ({@code application/json}, parameters allowed). */
  static boolean isJson(String contentType) {
    return contentType != null && type(contentType).equals("application/json");
  }

  /**
   * Whether an {@code Accept} lists both {@code application/json} and {@code text/event-stream}, as
   * a POST must; wildcards ({@code * / *}, {@code application/*}, {@code text/*}) count.
   */
  static boolean acceptsJsonAndEventStream(String accept) {
    if (accept == null) {
      return false;
    }
    boolean json = false;
    boolean events = false;
    for (String range : accept.split(",")) {
      String type = type(range);
      json |= type.equals("application/json") || type.equals("application/*");
      events |= type.equals("text/event-stream") || type.equals("text/*");
      if (type.equals("*/*")) {
        return true;
      }
    }
    return json && events;
  }

  /** The media type of a header value without its parameters, lower case. */
  private static String type(String value) {
    int semicolon = value.indexOf(';');
    return (semicolon < 0 ? value : value.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
  }
}

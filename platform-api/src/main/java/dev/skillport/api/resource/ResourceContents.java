package dev.skillport.api.resource;

import dev.skillport.api.stability.API;
import java.util.Base64;
import java.util.Objects;

/**
 * What {@code resources/read} returns for one URI: text, or binary data as base64.
 *
 * @param text the text, or {@code null} when {@code blob} is set
 * @param blob base64 data, or {@code null} when {@code text} is set
 */
@API(status = API.Status.STABLE)
public record ResourceContents(String uri, String mimeType, String text, String blob) {
  public ResourceContents {
    Objects.requireNonNull(uri, "uri");
    if ((text == null) == (blob == null)) {
      throw new IllegalArgumentException("exactly one of text and blob must be set");
    }
  }

  /** Text contents. */
  public static ResourceContents text(String uri, String mimeType, String text) {
    return new ResourceContents(uri, mimeType, Objects.requireNonNull(text, "text"), null);
  }

  /** Binary contents; the bytes are base64-encoded here. */
  public static ResourceContents binary(String uri, String mimeType, byte[] data) {
    return new ResourceContents(
        uri, mimeType, null, Base64.getEncoder().encodeToString(Objects.requireNonNull(data)));
  }

  public boolean isText() {
    return text != null;
  }
}

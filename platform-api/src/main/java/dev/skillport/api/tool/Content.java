package dev.skillport.api.tool;

import java.util.Objects;

/** One content item of a tool result; the kinds form a closed set. */
public sealed interface Content {

  /** Plain text. */
  record Text(String text) implements Content {
    public Text {
      Objects.requireNonNull(text, "text");
    }
  }

  /** An image, base64-encoded. */
  record Image(String base64Data, String mimeType) implements Content {
    public Image {
      Objects.requireNonNull(base64Data, "base64Data");
      Objects.requireNonNull(mimeType, "mimeType");
    }
  }

  /** Audio, base64-encoded. */
  record Audio(String base64Data, String mimeType) implements Content {
    public Audio {
      Objects.requireNonNull(base64Data, "base64Data");
      Objects.requireNonNull(mimeType, "mimeType");
    }
  }

  /**
   * An embedded resource with either text or a base64 blob.
   *
   * @param text the text, or {@code null} when {@code blob} is set
   * @param blob base64 data, or {@code null} when {@code text} is set
   */
  record EmbeddedResource(String uri, String mimeType, String text, String blob)
      implements Content {
    public EmbeddedResource {
      Objects.requireNonNull(uri, "uri");
      if ((text == null) == (blob == null)) {
        throw new IllegalArgumentException("exactly one of text and blob must be set");
      }
    }
  }
}

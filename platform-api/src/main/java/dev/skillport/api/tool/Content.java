package dev.skillport.api.tool;

import dev.skillport.api.stability.API;
import java.util.Objects;

/**
 * One content item of a tool result; the kinds form a closed set, handled through {@link
 * #accept(Visitor)} so that a new kind fails to compile wherever it is not.
 */
@API(status = API.Status.STABLE)
public sealed interface Content {

  /** Calls the {@code visitor} method of this kind. */
  <R> R accept(Visitor<R> visitor);

  /**
   * One method per kind of content.
   *
   * @param <R> what the visit returns
   */
  interface Visitor<R> {
    R text(Text text);

    R image(Image image);

    R audio(Audio audio);

    R embeddedResource(EmbeddedResource resource);
  }

  /** Plain text. */
  record Text(String text) implements Content {
    public Text {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.text(this);
    }
  }

  /** An image, base64-encoded. */
  record Image(String base64Data, String mimeType) implements Content {
    public Image {
      Objects.requireNonNull(base64Data, "base64Data");
      Objects.requireNonNull(mimeType, "mimeType");
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.image(this);
    }
  }

  /** Audio, base64-encoded. */
  record Audio(String base64Data, String mimeType) implements Content {
    public Audio {
      Objects.requireNonNull(base64Data, "base64Data");
      Objects.requireNonNull(mimeType, "mimeType");
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.audio(this);
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

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.embeddedResource(this);
    }
  }
}

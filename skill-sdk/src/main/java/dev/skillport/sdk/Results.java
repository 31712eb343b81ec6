package dev.skillport.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolResult;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * Builds tool results: text, structured JSON, images, audio, embedded resources, and errors (a
 * failure the tool reports itself, {@code isError: true}, not a protocol error).
 *
 * <pre>{@code
 * return Results.builder()
 *     .text("Here is the chart")
 *     .image(pngBytes, "image/png")
 *     .resource("test://report", "text/plain", "3 rows")
 *     .build();
 * }</pre>
 */
public final class Results {
  private Results() {}

  /** One text item. */
  public static ToolResult text(String text) {
    return builder().text(text).build();
  }

  /** A failure the tool reports: one text item, {@code isError: true}. */
  public static ToolResult error(String message) {
    return builder().text(message).error().build();
  }

  /** A JSON object result; its text item is the JSON rendering. */
  public static ToolResult structured(JsonNode object) {
    return builder().structured(object).build();
  }

  /** Starts an empty result. */
  public static Builder builder() {
    return new Builder();
  }

  /** Collects content items in order; {@link #build()} makes the immutable result. */
  public static final class Builder {
    private final List<Content> content = new ArrayList<>();
    private JsonNode structured;
    private boolean error;

    private Builder() {}

    public Builder text(String text) {
      content.add(new Content.Text(text));
      return this;
    }

    /** An image from raw bytes (base64-encoded here). */
    public Builder image(byte[] data, String mimeType) {
      return imageBase64(Base64.getEncoder().encodeToString(data), mimeType);
    }

    /** An image already base64-encoded. */
    public Builder imageBase64(String base64, String mimeType) {
      content.add(new Content.Image(base64, mimeType));
      return this;
    }

    /** Audio from raw bytes (base64-encoded here), for example {@code audio/wav}. */
    public Builder audio(byte[] data, String mimeType) {
      return audioBase64(Base64.getEncoder().encodeToString(data), mimeType);
    }

    /** Audio already base64-encoded. */
    public Builder audioBase64(String base64, String mimeType) {
      content.add(new Content.Audio(base64, mimeType));
      return this;
    }

    /** An embedded text resource. */
    public Builder resource(String uri, String mimeType, String text) {
      content.add(new Content.EmbeddedResource(uri, mimeType, Objects.requireNonNull(text), null));
      return this;
    }

    /** An embedded binary resource (base64-encoded here). */
    public Builder blobResource(String uri, String mimeType, byte[] data) {
      content.add(
          new Content.EmbeddedResource(
              uri, mimeType, null, Base64.getEncoder().encodeToString(data)));
      return this;
    }

    /**
     * A JSON object as {@code structuredContent}; a text item with its JSON rendering is added too,
     * for clients that read only text.
     *
     * @throws IllegalArgumentException when {@code object} is not a JSON object
     */
    public Builder structured(JsonNode object) {
      if (object == null || !object.isObject()) {
        throw new IllegalArgumentException("structured content must be a JSON object");
      }
      structured = object;
      content.add(new Content.Text(object.toString()));
      return this;
    }

    /** Marks the result as a failure the tool reports ({@code isError: true}). */
    public Builder error() {
      error = true;
      return this;
    }

    public ToolResult build() {
      return new ToolResult(content, structured, error);
    }
  }
}

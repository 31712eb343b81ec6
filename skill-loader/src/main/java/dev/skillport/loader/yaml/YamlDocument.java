package dev.skillport.loader.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntSupplier;

/**
 * A parsed YAML document as a Jackson tree, with the source position of every value.
 *
 * <p>Positions are keyed by JSON Pointer ({@code /tools/0/name}); {@link #locate} falls back to the
 * nearest enclosing value, so a pointer reported by a schema validator always finds a position.
 */
public final class YamlDocument {
  private final JsonNode root;
  private final DocumentPositions positions;

  YamlDocument(JsonNode root, Map<String, YamlLocation> positions) {
    this.root = Objects.requireNonNull(root, "root");
    this.positions = new DocumentPositions(positions);
  }

  /**
   * A document read by {@link YamlSubsetReader} from {@code text}, whose positions are read from
   * the text again when first asked for.
   */
  YamlDocument(JsonNode root, String text, YamlLimits limits, int lineOffset) {
    this.root = Objects.requireNonNull(root, "root");
    this.positions = new DocumentPositions(text, limits, lineOffset);
  }

  /** The document's value; a {@code NullNode} for an empty document. Callers must not mutate it. */
  public JsonNode root() {
    return root;
  }

  /** The position of the value at {@code pointer}, or of its nearest ancestor. */
  public YamlLocation locate(String pointer) {
    return positions.locate(pointer);
  }

  /**
   * The line of the value at {@code pointer} (or of its nearest ancestor), found when first asked
   * for: most values load without a diagnostic, and finding any line reads the whole document's
   * positions. The supplier keeps the document's text, not its tree.
   */
  public IntSupplier lineOf(String pointer) {
    DocumentPositions where = positions;
    return () -> where.locate(pointer).line();
  }

  /** Every recorded position by JSON Pointer. */
  Map<String, YamlLocation> positions() {
    return positions.positions();
  }

  /** Escapes one JSON Pointer reference token ({@code ~} → {@code ~0}, {@code /} → {@code ~1}). */
  public static String escape(String token) {
    if (token.indexOf('~') < 0 && token.indexOf('/') < 0) {
      return token;
    }
    return token.replace("~", "~0").replace("/", "~1");
  }
}

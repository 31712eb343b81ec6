package dev.skillport.loader.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Objects;

/**
 * A parsed YAML document as a Jackson tree, with the source position of every value.
 *
 * <p>Positions are keyed by JSON Pointer ({@code /tools/0/name}); {@link #locate} falls back to the
 * nearest enclosing value, so a pointer reported by a schema validator always finds a position.
 */
public final class YamlDocument {
  /**
   * Lookups answered by walking the position table; past this many (a file with many diagnostics)
   * the table is turned into a map once instead.
   */
  private static final int TABLE_LOOKUPS = 64;

  private final JsonNode root;

  /**
   * Rows not yet turned into {@link #positions}; null once they have been, or before they are read.
   */
  private PositionTable table;

  /**
   * The text of a document whose positions are read when first asked for ({@link
   * YamlSubsetReader#positions}); null once they have been, or for a document built with them.
   */
  private String text;

  private YamlLimits limits;
  private int lineOffset;

  private Map<String, YamlLocation> positions;

  /** Lookups answered by walking {@link #table} so far. */
  private int tableLookups;

  YamlDocument(JsonNode root, Map<String, YamlLocation> positions) {
    this.root = Objects.requireNonNull(root, "root");
    this.positions = Objects.requireNonNull(positions, "positions");
  }

  /**
   * A document read by {@link YamlSubsetReader} from {@code text}, whose positions are read from
   * the text again when first asked for.
   */
  YamlDocument(JsonNode root, String text, YamlLimits limits, int lineOffset) {
    this.root = Objects.requireNonNull(root, "root");
    this.text = Objects.requireNonNull(text, "text");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.lineOffset = lineOffset;
  }

  /** The document's value; a {@code NullNode} for an empty document. Callers must not mutate it. */
  public JsonNode root() {
    return root;
  }

  /** The position of the value at {@code pointer}, or of its nearest ancestor. */
  public YamlLocation locate(String pointer) {
    String p = pointer == null ? "" : pointer;
    readPositions();
    if (table != null && ++tableLookups <= TABLE_LOOKUPS) {
      return table.locate(p);
    }
    Map<String, YamlLocation> positions = positions();
    while (true) {
      YamlLocation loc = positions.get(p);
      if (loc != null) {
        return loc;
      }
      if (p.isEmpty()) {
        return YamlLocation.UNKNOWN;
      }
      int slash = p.lastIndexOf('/');
      p = slash <= 0 ? "" : p.substring(0, slash);
    }
  }

  /**
   * Every recorded position by JSON Pointer. A document is read by one thread at a time, like the
   * Jackson tree it holds, so the table is converted without locking.
   */
  Map<String, YamlLocation> positions() {
    readPositions();
    if (positions == null) {
      positions = table.toMap();
      table = null;
    }
    return positions;
  }

  /** Reads the positions of a document whose positions were left for later. */
  private void readPositions() {
    if (text != null) {
      table = YamlSubsetReader.positions(text, limits, lineOffset);
      text = null;
      limits = null;
    }
  }

  /** Escapes one JSON Pointer reference token ({@code ~} → {@code ~0}, {@code /} → {@code ~1}). */
  public static String escape(String token) {
    if (token.indexOf('~') < 0 && token.indexOf('/') < 0) {
      return token;
    }
    return token.replace("~", "~0").replace("/", "~1");
  }
}

package dev.skillport.loader.yaml;

import java.util.Map;
import java.util.Objects;

/**
 * The source positions of one YAML document's values, by JSON Pointer, read from the document's
 * text when first asked for. Kept apart from the value tree, so a line wanted later (a diagnostic
 * about a tool that loaded without one) keeps the text alive, not the tree.
 *
 * <p>Lookups fall back to the nearest enclosing value, so a pointer reported by a schema validator
 * always finds a position. Synchronised: a line may be asked for by another thread than the one
 * that read the document.
 */
final class DocumentPositions {
  /**
   * Lookups answered by walking the position table; past this many (a file with many diagnostics)
   * the table is turned into a map once instead.
   */
  private static final int TABLE_LOOKUPS = 64;

  /**
   * Rows not yet turned into {@link #positions}; null once they have been, or before they are read.
   */
  private PositionTable table;

  /**
   * The text of a document whose positions are read when first asked for ({@link
   * YamlSubsetReader#positions}); null once they have been, or for positions given at once.
   */
  private String text;

  private YamlLimits limits;
  private final int lineOffset;

  private Map<String, YamlLocation> positions;

  /** Lookups answered by walking {@link #table} so far. */
  private int tableLookups;

  DocumentPositions(Map<String, YamlLocation> positions) {
    this.positions = Objects.requireNonNull(positions, "positions");
    this.lineOffset = 0;
  }

  DocumentPositions(String text, YamlLimits limits, int lineOffset) {
    this.text = Objects.requireNonNull(text, "text");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.lineOffset = lineOffset;
  }

  synchronized YamlLocation locate(String pointer) {
    String p = pointer == null ? "" : pointer;
    readPositions();
    if (table != null && ++tableLookups <= TABLE_LOOKUPS) {
      return table.locate(p);
    }
    Map<String, YamlLocation> all = positions();
    while (true) {
      YamlLocation loc = all.get(p);
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

  synchronized Map<String, YamlLocation> positions() {
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
}

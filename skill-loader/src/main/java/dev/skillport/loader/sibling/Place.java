package dev.skillport.loader.sibling;

import dev.skillport.loader.yaml.YamlDocument;
import dev.skillport.loader.yaml.YamlLocation;
import java.util.function.IntSupplier;

/**
 * Where a value is written: a document and a JSON Pointer into it. It becomes a line and column
 * only when a diagnostic asks ({@link #location}), since most entries load without one.
 *
 * @param doc the document, or null for a value with no place in a file
 * @param pointer the value's JSON Pointer in {@code doc}
 */
record Place(YamlDocument doc, String pointer) {
  /** The place of a value that was not read from a file. */
  static final Place NONE = new Place(null, "");

  /** The line and column; {@link YamlLocation#UNKNOWN} for {@link #NONE}. */
  YamlLocation location() {
    return doc == null ? YamlLocation.UNKNOWN : doc.locate(pointer);
  }

  /** The line, found when first asked for; 0 for {@link #NONE}. */
  IntSupplier lineLater() {
    return doc == null ? () -> 0 : doc.lineOf(pointer);
  }

  /** The place of {@code key} inside this value (the value's own place if it has no such key). */
  Place child(String key) {
    return doc == null ? this : new Place(doc, pointer + "/" + YamlDocument.escape(key));
  }
}

package dev.skillport.loader.yaml;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Source positions recorded as (parent, key or index, line, column) rows while a document is read,
 * turned into JSON Pointer keys only when a position is first asked for. Most documents load
 * without a single diagnostic, so most tables are never turned into pointers at all.
 */
final class PositionTable {
  /** The parent of the root row. */
  static final int NONE = -1;

  private int size;
  private int[] parents = new int[32];
  private String[] keys = new String[32];
  private int[] indexes = new int[32];
  private int[] lines = new int[32];
  private int[] columns = new int[32];

  /**
   * Adds the position of a value and returns its row.
   *
   * @param parent the row of the enclosing value, or {@link #NONE} for the root
   * @param key the mapping key, or null when the value is the {@code index}-th item of a sequence
   */
  int add(int parent, String key, int index, int line, int column) {
    if (size == parents.length) {
      int grown = size * 2;
      parents = Arrays.copyOf(parents, grown);
      keys = Arrays.copyOf(keys, grown);
      indexes = Arrays.copyOf(indexes, grown);
      lines = Arrays.copyOf(lines, grown);
      columns = Arrays.copyOf(columns, grown);
    }
    parents[size] = parent;
    keys[size] = key;
    indexes[size] = index;
    lines[size] = line;
    columns[size] = column;
    return size++;
  }

  /**
   * The positions keyed by JSON Pointer. A parent row always precedes its children, so one pass
   * builds every pointer from its parent's.
   */
  Map<String, YamlLocation> toMap() {
    String[] pointers = new String[size];
    Map<String, YamlLocation> map = new HashMap<>(Math.max(16, size * 2));
    for (int i = 0; i < size; i++) {
      String pointer;
      if (parents[i] == NONE) {
        pointer = "";
      } else {
        String token =
            keys[i] != null ? YamlDocument.escape(keys[i]) : Integer.toString(indexes[i]);
        pointer = pointers[parents[i]] + "/" + token;
      }
      pointers[i] = pointer;
      map.putIfAbsent(pointer, new YamlLocation(lines[i], columns[i]));
    }
    return map;
  }
}

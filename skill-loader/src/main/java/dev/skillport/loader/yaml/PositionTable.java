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
  private int[] parents;
  private String[] keys;
  private int[] indexes;
  private int[] lines;
  private int[] columns;

  /** A table with room for {@code capacity} rows before it grows. */
  PositionTable(int capacity) {
    int rows = Math.max(1, capacity);
    parents = new int[rows];
    keys = new String[rows];
    indexes = new int[rows];
    lines = new int[rows];
    columns = new int[rows];
  }

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
   * The position of the value at {@code pointer}, or of its nearest recorded ancestor, found by
   * walking the rows: exactly what a lookup in {@link #toMap} with the same fallback gives, without
   * building a pointer per row. The rows are in document order, so a row's descendants follow it
   * and end at the first row whose parent comes before it.
   */
  YamlLocation locate(String pointer) {
    if (size == 0) {
      return YamlLocation.UNKNOWN;
    }
    int row = 0;
    if (!pointer.startsWith("/")) {
      return location(row);
    }
    int from = 1;
    while (true) {
      int to = pointer.indexOf('/', from);
      if (to < 0) {
        to = pointer.length();
      }
      int child = child(row, pointer, from, to);
      if (child < 0) {
        return location(row);
      }
      row = child;
      if (to == pointer.length()) {
        return location(row);
      }
      from = to + 1;
    }
  }

  private YamlLocation location(int row) {
    return new YamlLocation(lines[row], columns[row]);
  }

  /** The child of {@code row} whose pointer token is {@code pointer[from, to)}, or -1. */
  private int child(int row, String pointer, int from, int to) {
    int index = index(pointer, from, to);
    int length = to - from;
    // Without '~' in the token, a key matches exactly when it equals the token: compared by length
    // and (cached) hash before its chars. With one, keys are escaped and compared in full.
    int tilde = pointer.indexOf('~', from);
    boolean plain = tilde < 0 || tilde >= to;
    int hash = 0;
    for (int i = from; i < to; i++) {
      hash = 31 * hash + pointer.charAt(i);
    }
    for (int j = row + 1; j < size && parents[j] >= row; j++) {
      if (parents[j] != row) {
        continue;
      }
      String key = keys[j];
      if (key == null) {
        if (indexes[j] == index) {
          return j;
        }
      } else if (plain) {
        if (key.length() == length && key.hashCode() == hash && pointer.startsWith(key, from)) {
          return j;
        }
      } else {
        String token = YamlDocument.escape(key);
        if (token.length() == length && pointer.startsWith(token, from)) {
          return j;
        }
      }
    }
    return -1;
  }

  /**
   * The sequence index a pointer token names: digits without a leading zero, as {@link
   * Integer#toString} writes them; -1 for any other token.
   */
  private static int index(String pointer, int from, int to) {
    int length = to - from;
    if (length == 0 || length > 9 || (length > 1 && pointer.charAt(from) == '0')) {
      return -1;
    }
    int value = 0;
    for (int i = from; i < to; i++) {
      char c = pointer.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
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

package dev.skillport.api.skill;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Deeply immutable, compact JSON trees, for the schemas a {@link ToolSpec} holds and the documents
 * the skill loader reads.
 *
 * <p>A catalog keeps thousands of small schemas for its whole life, so a frozen tree stores each
 * mapping as two exact-size arrays instead of a 16-slot {@link LinkedHashMap}, and {@link #freeze}
 * shares field names and short texts ({@code "type"}, {@code "string"}) between all trees. Every
 * mutator of a frozen container throws {@link UnsupportedOperationException}, which is what makes
 * sharing safe; {@link JsonNode#deepCopy()} of a frozen tree gives an ordinary mutable copy.
 *
 * <p>A reader that builds a tree bottom-up can make it frozen from the start with {@link #object}
 * and {@link #array}, so {@link ToolSpec} takes its subtrees as they are instead of copying them.
 */
public final class FrozenJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Texts at most this long are shared; longer ones are rarely repeated. */
  private static final int MAX_SHARED_LENGTH = 32;

  /** Bounds each sharing table, so unusual input cannot grow it without limit. */
  private static final int MAX_SHARED_ENTRIES = 8192;

  /** Mappings up to this size look keys up by scanning; larger ones use a hash map. */
  private static final int MAX_SCANNED_FIELDS = 12;

  private static final Map<String, String> NAMES = new ConcurrentHashMap<>();
  private static final Map<String, TextNode> TEXTS = new ConcurrentHashMap<>();

  private FrozenJson() {}

  /** {@code node} itself when it is already frozen (or a scalar), else a frozen copy. */
  public static JsonNode freeze(JsonNode node) {
    if (node instanceof FrozenObject || node instanceof FrozenArray) {
      return node;
    }
    if (node.isObject()) {
      int size = node.size();
      String[] names = new String[size];
      JsonNode[] values = new JsonNode[size];
      int i = 0;
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        names[i] = share(NAMES, field.getKey(), field.getKey());
        values[i] = freeze(field.getValue());
        i++;
      }
      return new FrozenObject(fields(names, values));
    }
    if (node.isArray()) {
      JsonNode[] elements = new JsonNode[node.size()];
      for (int i = 0; i < elements.length; i++) {
        elements[i] = freeze(node.get(i));
      }
      return array(elements);
    }
    if (node.isTextual()) {
      String text = node.textValue();
      return text.length() <= MAX_SHARED_LENGTH ? share(TEXTS, text, (TextNode) node) : node;
    }
    // Other value nodes (numbers, booleans, null, binary, POJO) are immutable already.
    return node;
  }

  /** True when {@code node} is a frozen container. */
  public static boolean isFrozen(JsonNode node) {
    return node instanceof FrozenObject || node instanceof FrozenArray;
  }

  /**
   * A frozen mapping of {@code names[i]} to {@code values[i]}, in that order. The arrays are taken
   * over, not copied: the caller must not change them afterwards. Names must be distinct and every
   * value frozen or a scalar; neither is checked, as a reader that built them already knows.
   */
  public static ObjectNode object(String[] names, JsonNode[] values) {
    if (names.length != values.length) {
      throw new IllegalArgumentException(names.length + " names for " + values.length + " values");
    }
    return new FrozenObject(fields(names, values));
  }

  /**
   * A frozen sequence of {@code elements}; every element must be frozen or a scalar, which is not
   * checked.
   */
  public static ArrayNode array(JsonNode... elements) {
    return new FrozenArray(List.of(elements));
  }

  private static <V> V share(Map<String, V> table, String key, V value) {
    if (key.length() > MAX_SHARED_LENGTH) {
      return value;
    }
    V shared = table.get(key);
    if (shared != null) {
      return shared;
    }
    if (table.size() >= MAX_SHARED_ENTRIES) {
      return value;
    }
    shared = table.putIfAbsent(key, value);
    return shared != null ? shared : value;
  }

  private static Map<String, JsonNode> fields(String[] names, JsonNode[] values) {
    if (names.length <= MAX_SCANNED_FIELDS) {
      return new ScannedFields(names, values);
    }
    Map<String, JsonNode> map = new LinkedHashMap<>(names.length, 1.0f);
    for (int i = 0; i < names.length; i++) {
      map.put(names[i], values[i]);
    }
    return Collections.unmodifiableMap(map);
  }

  /** A mapping whose field map rejects every change. */
  // Jackson's own ObjectNode.deepCopy() narrows JsonNode's generic one; javac flags that on every
  // subclass. Nothing here overrides or calls it unchecked.
  @SuppressWarnings("unchecked")
  private static final class FrozenObject extends ObjectNode {
    private static final long serialVersionUID = 1L;

    FrozenObject(Map<String, JsonNode> fields) {
      super(NODES, fields);
    }
  }

  /** A sequence whose element list rejects every change. */
  // As for FrozenObject: the flagged narrowing is Jackson's own.
  @SuppressWarnings("unchecked")
  private static final class FrozenArray extends ArrayNode {
    private static final long serialVersionUID = 1L;

    FrozenArray(List<JsonNode> elements) {
      super(NODES, elements);
    }
  }

  /**
   * An immutable, insertion-ordered map held as two parallel arrays; lookups scan, which for a
   * dozen short keys is as fast as hashing and needs no table or entry objects.
   */
  private static final class ScannedFields extends AbstractMap<String, JsonNode> {
    private final String[] names;
    private final JsonNode[] values;

    ScannedFields(String[] names, JsonNode[] values) {
      this.names = names;
      this.values = values;
    }

    private int indexOf(Object key) {
      for (int i = 0; i < names.length; i++) {
        if (names[i].equals(key)) {
          return i;
        }
      }
      return -1;
    }

    @Override
    public JsonNode get(Object key) {
      int i = indexOf(key);
      return i < 0 ? null : values[i];
    }

    @Override
    public boolean containsKey(Object key) {
      return indexOf(key) >= 0;
    }

    @Override
    public int size() {
      return names.length;
    }

    @Override
    public Set<Map.Entry<String, JsonNode>> entrySet() {
      return new AbstractSet<>() {
        @Override
        public Iterator<Map.Entry<String, JsonNode>> iterator() {
          return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
              return next < names.length;
            }

            @Override
            public Map.Entry<String, JsonNode> next() {
              if (next >= names.length) {
                throw new NoSuchElementException();
              }
              Map.Entry<String, JsonNode> entry =
                  new AbstractMap.SimpleImmutableEntry<>(names[next], values[next]);
              next++;
              return entry;
            }
          };
        }

        @Override
        public int size() {
          return names.length;
        }
      };
    }
  }
}

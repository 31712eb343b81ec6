package dev.skillport.model.skill;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * Deeply immutable, compact JSON trees, for the schemas a {@link ToolSpec} holds and the documents
 * the skill loader reads.
 *
 * <p>A catalog keeps thousands of small schemas for its whole life, so a frozen tree stores each
 * mapping as two exact-size arrays instead of a 16-slot {@link LinkedHashMap}, and {@link #freeze}
 * shares equal short texts ({@code "type"}, {@code "string"}) within the tree it freezes. Every
 * mutator of a frozen container throws {@link UnsupportedOperationException}, which is what makes
 * sharing a tree between sessions safe; {@link JsonNode#deepCopy()} of a frozen tree gives an
 * ordinary mutable copy.
 *
 * <p>A reader that builds a tree bottom-up can make it frozen from the start with {@link #object}
 * and {@link #array}, so {@link ToolSpec} takes its subtrees as they are instead of copying them.
 * Both check what they are given and copy the arrays, so no caller can make a frozen tree that
 * changes afterwards. The class holds no state of its own.
 */
public final class FrozenJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Texts at most this long are shared within a tree; longer ones are rarely repeated. */
  private static final int MAX_SHARED_LENGTH = 32;

  /** Mappings up to this size look keys up by scanning; larger ones use a hash map. */
  private static final int MAX_SCANNED_FIELDS = 12;

  private FrozenJson() {}

  /** {@code node} itself when it is already frozen (or a scalar), else a frozen copy. */
  public static JsonNode freeze(JsonNode node) {
    Objects.requireNonNull(node, "node");
    if (isFrozen(node) || !node.isContainerNode()) {
      return node;
    }
    return freeze(node, new HashMap<>());
  }

  private static JsonNode freeze(JsonNode node, Map<String, JsonNode> texts) {
    if (isFrozen(node)) {
      return node;
    }
    if (node.isObject()) {
      int size = node.size();
      String[] names = new String[size];
      JsonNode[] values = new JsonNode[size];
      int i = 0;
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        names[i] = field.getKey();
        values[i] = freeze(field.getValue(), texts);
        i++;
      }
      return new FrozenObject(fields(names, values));
    }
    if (node.isArray()) {
      JsonNode[] elements = new JsonNode[node.size()];
      for (int i = 0; i < elements.length; i++) {
        elements[i] = freeze(node.get(i), texts);
      }
      return new FrozenArray(List.of(elements));
    }
    if (node.isTextual() && node.textValue().length() <= MAX_SHARED_LENGTH) {
      return texts.computeIfAbsent(node.textValue(), t -> node);
    }
    // Other value nodes (numbers, booleans, null, binary, POJO) are immutable already.
    return node;
  }

  /** True when {@code node} is a frozen container. */
  public static boolean isFrozen(JsonNode node) {
    return node instanceof FrozenObject || node instanceof FrozenArray;
  }

  /**
   * A frozen mapping of {@code names[i]} to {@code values[i]}, in that order; the arrays are
   * copied.
   *
   * @throws IllegalArgumentException when the arrays differ in length, a name repeats, or a value
   *     is a container that is not frozen
   * @throws NullPointerException when a name or value is null
   */
  public static ObjectNode object(String[] names, JsonNode[] values) {
    if (names.length != values.length) {
      throw new IllegalArgumentException(names.length + " names for " + values.length + " values");
    }
    String[] ownNames = names.clone();
    JsonNode[] ownValues = values.clone();
    for (int i = 0; i < ownNames.length; i++) {
      if (ownNames[i] == null) {
        throw new NullPointerException("names[" + i + "]");
      }
      requireFrozenOrScalar(ownValues[i], "values", i);
    }
    requireDistinct(ownNames);
    return new FrozenObject(fields(ownNames, ownValues));
  }

  /**
   * A frozen sequence of {@code elements}; the array is copied.
   *
   * @throws IllegalArgumentException when an element is a container that is not frozen
   * @throws NullPointerException when an element is null
   */
  public static ArrayNode array(JsonNode... elements) {
    for (int i = 0; i < elements.length; i++) {
      requireFrozenOrScalar(elements[i], "elements", i);
    }
    return new FrozenArray(List.of(elements));
  }

  // The messages are made only on failure: a catalog's schemas pass here once per member.
  private static void requireFrozenOrScalar(JsonNode value, String array, int index) {
    if (value == null) {
      throw new NullPointerException(array + "[" + index + "]");
    }
    if (value.isContainerNode() && !isFrozen(value)) {
      throw new IllegalArgumentException(
          array + "[" + index + "] is a container that is not frozen");
    }
  }

  private static void requireDistinct(String[] names) {
    if (names.length <= MAX_SCANNED_FIELDS) {
      for (int i = 1; i < names.length; i++) {
        for (int j = 0; j < i; j++) {
          if (names[i].equals(names[j])) {
            throw new IllegalArgumentException("the name " + names[i] + " repeats");
          }
        }
      }
      return;
    }
    Set<String> seen = new HashSet<>(names.length * 2);
    for (String name : names) {
      if (!seen.add(name)) {
        throw new IllegalArgumentException("the name " + name + " repeats");
      }
    }
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

    // The deep hash, worked out at the first call (0 until then): a frozen schema is a cache key
    // on every tool call. The field fits the object's alignment padding.
    private int hash;

    FrozenObject(Map<String, JsonNode> fields) {
      super(NODES, fields);
    }

    @Override
    public int hashCode() {
      int h = hash;
      if (h == 0) {
        h = super.hashCode();
        hash = h;
      }
      return h;
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

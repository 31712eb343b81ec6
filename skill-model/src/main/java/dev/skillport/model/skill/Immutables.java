package dev.skillport.model.skill;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Deep, order-keeping immutable copies of YAML-shaped values (maps, lists, scalars). */
final class Immutables {
  private Immutables() {}

  static Map<String, Object> map(Map<String, ?> source) {
    if (source == null || source.isEmpty()) {
      return Map.of();
    }
    Map<String, Object> copy = new LinkedHashMap<>();
    source.forEach((k, v) -> copy.put(k, value(v)));
    return Collections.unmodifiableMap(copy);
  }

  static Object value(Object v) {
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> copy = new LinkedHashMap<>();
      m.forEach((k, x) -> copy.put(String.valueOf(k), value(x)));
      return Collections.unmodifiableMap(copy);
    }
    if (v instanceof List<?> l) {
      List<Object> copy = new ArrayList<>(l.size());
      for (Object x : l) {
        copy.add(value(x));
      }
      return Collections.unmodifiableList(copy);
    }
    return v;
  }

  static <T> List<T> list(List<T> source) {
    return source == null ? List.of() : List.copyOf(source);
  }
}

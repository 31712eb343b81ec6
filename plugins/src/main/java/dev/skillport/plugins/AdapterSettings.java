package dev.skillport.plugins;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Settings the operator gives host adapters on the command line ({@code --adapter-setting
 * ID.KEY=VALUE}), grouped by adapter id; each adapter receives its own group before it starts.
 */
public final class AdapterSettings {
  private static final AdapterSettings NONE = new AdapterSettings(Map.of());

  private final Map<String, Map<String, String>> byAdapter;

  private AdapterSettings(Map<String, Map<String, String>> byAdapter) {
    Map<String, Map<String, String>> copy = new LinkedHashMap<>();
    byAdapter.forEach((id, settings) -> copy.put(id, Map.copyOf(settings)));
    this.byAdapter = Collections.unmodifiableMap(copy);
  }

  /** No settings. */
  public static AdapterSettings none() {
    return NONE;
  }

  /**
   * Reads {@code ID.KEY=VALUE} entries; a later entry for the same key wins.
   *
   * @throws IllegalArgumentException naming the entry that is not of that form
   */
  public static AdapterSettings parse(List<String> entries) {
    Map<String, Map<String, String>> byAdapter = new LinkedHashMap<>();
    for (String entry : entries) {
      int eq = entry.indexOf('=');
      int dot = eq < 0 ? -1 : entry.lastIndexOf('.', eq);
      if (eq < 0 || dot <= 0 || dot == eq - 1) {
        throw new IllegalArgumentException(
            "adapter setting '" + entry + "' is not of the form ADAPTER.KEY=VALUE");
      }
      byAdapter
          .computeIfAbsent(entry.substring(0, dot), id -> new LinkedHashMap<>())
          .put(entry.substring(dot + 1, eq), entry.substring(eq + 1));
    }
    return new AdapterSettings(byAdapter);
  }

  /** These settings plus {@code key=value} for adapter {@code id}, replacing an earlier value. */
  public AdapterSettings with(String id, String key, String value) {
    Map<String, Map<String, String>> next = new LinkedHashMap<>();
    byAdapter.forEach((k, v) -> next.put(k, new LinkedHashMap<>(v)));
    next.computeIfAbsent(id, k -> new LinkedHashMap<>()).put(key, value);
    return new AdapterSettings(next);
  }

  /** The settings of adapter {@code id}, empty when none were given. */
  public Map<String, String> of(String id) {
    return byAdapter.getOrDefault(id, Map.of());
  }

  /** The adapter ids settings were given for. */
  public Set<String> adapterIds() {
    return byAdapter.keySet();
  }
}

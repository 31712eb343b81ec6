package dev.skillport.runtime.core;

import dev.skillport.registry.Catalog;
import java.util.List;
import java.util.Map;

/**
 * The servers that bridge skills run on: started when a load needs their tools, stopped when no
 * session has their skill loaded.
 */
public interface SkillServers {
  /**
   * Gets the bridge skills among {@code names} and their dependencies ready to load (a server whose
   * tools are not known yet is started and listed, and the catalog republished).
   *
   * @return why each bridge that may not run is refused ({@code CODE: message (hint)}), by skill
   */
  Map<String, String> prepare(List<String> names);

  /** Stops a bridge skill's server when no session has the skill loaded any more. */
  void releaseIfUnused(String skill);

  /** Whether loading {@code names} from {@code snapshot} involves a bridge skill. */
  static boolean involvesBridge(Catalog snapshot, List<String> names) {
    return names.stream()
        .flatMap(n -> snapshot.loadOrder(n).stream())
        .anyMatch(n -> snapshot.skill(n).filter(s -> s.bridge().isPresent()).isPresent());
  }
}

package dev.skillport.model.skill;

import java.util.Map;
import java.util.Objects;

/**
 * An optional runtime a skill can use, probed as available, degraded or missing.
 *
 * @param attributes the entry's other keys, verbatim
 */
public record RuntimeSpec(String name, Map<String, Object> attributes) {
  public RuntimeSpec {
    Objects.requireNonNull(name, "name");
    attributes = Immutables.map(attributes);
  }
}

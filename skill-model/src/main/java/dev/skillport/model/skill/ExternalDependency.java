package dev.skillport.model.skill;

import java.util.Map;
import java.util.Objects;

/**
 * A requirement outside the skill ({@code mcp}, {@code env_var} or {@code bin}), checked and
 * reported but never enforced at discovery.
 *
 * @param extras the entry's other keys, verbatim
 */
public record ExternalDependency(String type, String value, Map<String, Object> extras) {
  public ExternalDependency {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(value, "value");
    extras = Immutables.map(extras);
  }
}

package dev.skillport.model.skill;

import java.util.List;
import java.util.Objects;

/**
 * An argument a tool declares to be a file-system path ({@code paths:} in its tools file entry),
 * with the places it may point into. Before the tool runs, the value (a string, or each string of a
 * list) is resolved against the skill folder, its links followed, and refused unless it lies in one
 * of {@code inside}.
 *
 * @param argument the top-level argument's name
 * @param inside the places the path may lie in; at least one, no duplicates
 */
public record PathArgument(String argument, List<PathPlace> inside) {
  public PathArgument {
    Objects.requireNonNull(argument, "argument");
    if (argument.isBlank()) {
      throw new IllegalArgumentException("a path argument needs a name");
    }
    inside = List.copyOf(Objects.requireNonNull(inside, "inside"));
    if (inside.isEmpty()) {
      throw new IllegalArgumentException("path argument '" + argument + "' names no place");
    }
    if (inside.stream().distinct().count() != inside.size()) {
      throw new IllegalArgumentException("path argument '" + argument + "' names a place twice");
    }
  }

  /** The places as a tools file writes them, e.g. {@code skill, allowed:assets}. */
  public String describeInside() {
    return String.join(", ", inside.stream().map(PathPlace::label).toList());
  }
}

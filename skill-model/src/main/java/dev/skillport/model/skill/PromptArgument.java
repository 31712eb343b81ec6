package dev.skillport.model.skill;

import java.util.List;
import java.util.Objects;

/**
 * One argument of a prompt template.
 *
 * @param values what completion offers for it: the entry's {@code values} or {@code enum}, then its
 *     {@code examples}, as text, without repeats; empty when none are declared
 */
public record PromptArgument(
    String name, String description, boolean required, List<String> values) {
  public PromptArgument {
    Objects.requireNonNull(name, "name");
    description = description == null ? "" : description;
    values = Immutables.list(values);
  }

  /** An argument with no completion values. */
  public PromptArgument(String name, String description, boolean required) {
    this(name, description, required, List.of());
  }
}

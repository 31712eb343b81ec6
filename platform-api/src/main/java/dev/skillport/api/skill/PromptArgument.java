package dev.skillport.api.skill;

import java.util.Objects;

/** One argument of a prompt template. */
public record PromptArgument(String name, String description, boolean required) {
  public PromptArgument {
    Objects.requireNonNull(name, "name");
    description = description == null ? "" : description;
  }
}

package dev.skillport.api.skill;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A prompt template a skill contributes once loaded.
 *
 * @param template text with {@code {{arg}}} placeholders
 * @param source the file it was read from
 */
public record PromptSpec(
    String name, String description, List<PromptArgument> arguments, String template, Path source) {
  public PromptSpec {
    Objects.requireNonNull(name, "name");
    description = description == null ? "" : description;
    arguments = Immutables.list(arguments);
    template = template == null ? "" : template;
  }
}

package dev.skillport.model.skill;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A prompt template a skill contributes once loaded.
 *
 * @param template text with {@code {{arg}}} placeholders
 * @param source the file it was read from
 * @param messages the entry's {@code messages} (a JSON array of {@code {role, content}} items, as
 *     read and never changed), or {@code null} when it declares none
 */
public record PromptSpec(
    String name,
    String description,
    List<PromptArgument> arguments,
    String template,
    Path source,
    JsonNode messages) {
  public PromptSpec {
    Objects.requireNonNull(name, "name");
    description = description == null ? "" : description;
    arguments = Immutables.list(arguments);
    template = template == null ? "" : template;
    messages = messages != null && messages.isArray() ? messages : null;
  }

  /** A prompt without {@code messages}. */
  public PromptSpec(
      String name,
      String description,
      List<PromptArgument> arguments,
      String template,
      Path source) {
    this(name, description, arguments, template, source, null);
  }
}

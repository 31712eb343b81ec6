package dev.skillport.server.prompts;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A prompt as this package serves it: a declared one as the loader parsed it (typed messages,
 * argument values for completion), or one derived from a Markdown example or a workflow.
 *
 * @param skill the skill it comes from
 * @param template the text of the first user message; blank means none when messages are given
 * @param messages the spec's {@code messages} list, or {@code null}
 * @param baseDir where relative content paths start (the prompt file's folder)
 * @param skillDir the folder content paths must stay in
 */
record PromptDefinition(
    String name,
    String skill,
    String description,
    List<Argument> arguments,
    String template,
    JsonNode messages,
    Path baseDir,
    Path skillDir) {
  PromptDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(skill, "skill");
    description = description == null ? "" : description;
    arguments = List.copyOf(arguments);
    template = template == null ? "" : template;
    Objects.requireNonNull(skillDir, "skillDir");
    baseDir = baseDir == null ? skillDir : baseDir;
  }

  /**
   * One argument.
   *
   * @param values suggestions for {@code completion/complete}: the declared {@code values} or
   *     {@code enum}, then {@code examples}
   */
  record Argument(String name, String description, boolean required, List<String> values) {
    Argument {
      Objects.requireNonNull(name, "name");
      description = description == null ? "" : description;
      values = List.copyOf(values);
    }
  }
}

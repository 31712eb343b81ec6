package dev.skillport.loader.sibling;

import dev.skillport.api.skill.ToolSpec;
import dev.skillport.loader.yaml.YamlLocation;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A tool read from a tools file, before it is bound to code.
 *
 * @param spec the tool with an {@code Unbound} binding
 * @param handler the declared Java handler id, or null
 * @param sourceFile the declared script path relative to the skill, or null
 * @param file the tools file it came from
 * @param at where the entry starts
 * @param sourceAt where {@code source_file} is written
 */
record DeclaredTool(
    ToolSpec spec,
    String handler,
    String sourceFile,
    Path file,
    YamlLocation at,
    YamlLocation sourceAt) {
  DeclaredTool {
    Objects.requireNonNull(spec, "spec");
  }
}

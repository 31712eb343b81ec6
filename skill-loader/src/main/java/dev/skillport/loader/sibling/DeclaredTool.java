package dev.skillport.loader.sibling;

import dev.skillport.loader.yaml.YamlLocation;
import dev.skillport.model.skill.ToolSpec;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A tool read from a tools file, before it is bound to code.
 *
 * @param spec the tool with an {@code Unbound} binding
 * @param handler the declared Java handler id, or null
 * @param sourceFile the declared script path relative to the skill, or null
 * @param file the tools file it came from
 * @param place where the entry is written; {@link Place#NONE} for a tool made from a script alone
 */
record DeclaredTool(ToolSpec spec, String handler, String sourceFile, Path file, Place place) {
  DeclaredTool {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(place, "place");
  }

  /** The same tool with another spec. */
  DeclaredTool withSpec(ToolSpec other) {
    return new DeclaredTool(other, handler, sourceFile, file, place);
  }

  /** Where the entry starts. */
  YamlLocation at() {
    return place.location();
  }

  /** Where {@code source_file} is written, or null for a tool made from a script alone. */
  YamlLocation sourceAt() {
    return place.doc() == null ? null : place.child("source_file").location();
  }
}

package dev.skillport.loader.sibling;

import dev.skillport.api.skill.ToolSpec;
import dev.skillport.loader.yaml.YamlDocument;
import dev.skillport.loader.yaml.YamlLocation;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A tool read from a tools file, before it is bound to code.
 *
 * <p>Where the entry is written is looked up only when a diagnostic asks for it ({@link #at},
 * {@link #sourceAt}): most tools load without one, and the lookup walks the document's positions.
 *
 * @param spec the tool with an {@code Unbound} binding
 * @param handler the declared Java handler id, or null
 * @param sourceFile the declared script path relative to the skill, or null
 * @param file the tools file it came from
 * @param doc the document the entry is in, or null for a tool made from a script alone
 * @param pointer the entry's JSON Pointer in {@code doc}
 */
record DeclaredTool(
    ToolSpec spec, String handler, String sourceFile, Path file, YamlDocument doc, String pointer) {
  DeclaredTool {
    Objects.requireNonNull(spec, "spec");
  }

  /** The same tool with another spec. */
  DeclaredTool withSpec(ToolSpec other) {
    return new DeclaredTool(other, handler, sourceFile, file, doc, pointer);
  }

  /** Where the entry starts. */
  YamlLocation at() {
    return doc == null ? YamlLocation.UNKNOWN : doc.locate(pointer);
  }

  /** Where {@code source_file} is written, or null for a tool made from a script alone. */
  YamlLocation sourceAt() {
    return doc == null ? null : doc.locate(pointer + "/source_file");
  }
}

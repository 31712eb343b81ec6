package dev.skillport.loader.sibling;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.loader.yaml.YamlDocument;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.PathArgument;
import dev.skillport.model.skill.PathPlace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a tool entry's {@code paths:} mapping: each key an argument, each value the places it may
 * point into ({@code {inside: [skill, roots]}}, or the list alone). A declaration that cannot be
 * read whole drops its tool with {@code TOOL_PATHS_INVALID}: a tool must never run without the
 * guard its author asked for.
 */
final class PathDeclarations {
  private static final String PLACES = "skill, roots, workdir, allowed or allowed:NAME";

  private final SiblingContext ctx;

  PathDeclarations(SiblingContext ctx) {
    this.ctx = ctx;
  }

  /**
   * The declared path arguments of the entry at {@code pointer} (none when it has no {@code
   * paths}); empty when the declaration is invalid and the tool must be dropped.
   */
  Optional<List<PathArgument>> read(
      JsonNode entry,
      JsonNode inputSchema,
      YamlDocument doc,
      String pointer,
      Path file,
      String tool) {
    JsonNode paths = entry.get("paths");
    if (paths == null || paths.isNull()) {
      return Optional.of(List.of());
    }
    String at = pointer + "/paths";
    if (!paths.isObject() || paths.isEmpty()) {
      return invalid(
          doc, at, file, tool, "paths must map each path argument to the places it may point into");
    }
    JsonNode declared = inputSchema == null ? null : inputSchema.get("properties");
    List<PathArgument> out = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : paths.properties()) {
      String argument = e.getKey();
      String here = at + "/" + YamlDocument.escape(argument);
      if (argument.isBlank()) {
        return invalid(doc, here, file, tool, "a path argument needs a name");
      }
      if (declared != null && declared.isObject() && !declared.has(argument)) {
        return invalid(
            doc,
            here,
            file,
            tool,
            "'" + argument + "' is not an argument of its input_schema's properties");
      }
      JsonNode value = e.getValue();
      if (value != null && value.isObject()) {
        if (value.size() != 1 || !value.has("inside")) {
          return invalid(doc, here, file, tool, "'" + argument + "' takes one key, inside");
        }
        here = here + "/inside";
        value = value.get("inside");
      }
      Optional<List<PathPlace>> places = places(value);
      if (places.isEmpty()) {
        return invalid(
            doc,
            here,
            file,
            tool,
            "'" + argument + "' must name the places it may point into: " + PLACES);
      }
      out.add(new PathArgument(argument, places.get()));
    }
    return Optional.of(out);
  }

  /** The places a list (or one word) names; empty when it names none or a word is unknown. */
  private static Optional<List<PathPlace>> places(JsonNode value) {
    if (value == null || !(value.isArray() || value.isTextual())) {
      return Optional.empty();
    }
    Set<PathPlace> places = new LinkedHashSet<>();
    for (String word : YamlValues.stringList(value)) {
      Optional<PathPlace> place = PathPlace.parse(word);
      if (place.isEmpty()) {
        return Optional.empty();
      }
      places.add(place.get());
    }
    if (value.isArray()) {
      for (JsonNode item : value) {
        if (!item.isTextual()) {
          return Optional.empty();
        }
      }
    }
    return places.isEmpty() ? Optional.empty() : Optional.of(List.copyOf(places));
  }

  private Optional<List<PathArgument>> invalid(
      YamlDocument doc, String pointer, Path file, String tool, String why) {
    ctx.diagnostics()
        .report(
            DiagnosticCode.TOOL_PATHS_INVALID,
            "Tool '"
                + tool
                + "' has an invalid paths declaration ("
                + why
                + "); the entry was"
                + " dropped.",
            file,
            doc.locate(pointer),
            "Write paths: {ARGUMENT: {inside: [PLACE, ...]}} with places " + PLACES + ".");
    return Optional.empty();
  }
}

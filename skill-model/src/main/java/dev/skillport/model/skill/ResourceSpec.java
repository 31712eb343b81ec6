package dev.skillport.model.skill;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A static resource a skill serves.
 *
 * @param path the file behind it, confined to the skill directory
 */
public record ResourceSpec(
    String uri, String name, String description, String mimeType, Path path) {
  public ResourceSpec {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(path, "path");
    name = name == null ? path.getFileName().toString() : name;
    description = description == null ? "" : description;
  }
}

package dev.skillport.loader.sibling;

import dev.skillport.loader.yaml.YamlLocation;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A group entry as written, before membership is worked out.
 *
 * @param tools the tool names the entry lists, each with where it is written
 * @param implicit true for a group made up because a tool named it without declaring it
 * @param place where the entry is written
 */
record DeclaredGroup(
    String name,
    String description,
    List<Member> tools,
    boolean defaultActive,
    boolean implicit,
    Path file,
    Place place) {
  DeclaredGroup {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(place, "place");
    tools = List.copyOf(tools);
  }

  /** Where the entry starts. */
  YamlLocation at() {
    return place.location();
  }

  /** One tool name listed by a group entry, and where it is written. */
  record Member(String tool, Place place) {
    /** Where the name is written. */
    YamlLocation at() {
      return place.location();
    }
  }
}

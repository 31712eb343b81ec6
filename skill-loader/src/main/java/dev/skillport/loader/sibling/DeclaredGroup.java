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
 */
record DeclaredGroup(
    String name,
    String description,
    List<Member> tools,
    boolean defaultActive,
    boolean implicit,
    Path file,
    YamlLocation at) {
  DeclaredGroup {
    Objects.requireNonNull(name, "name");
    tools = List.copyOf(tools);
  }

  /** One tool name listed by a group entry. */
  record Member(String tool, YamlLocation at) {}
}

package dev.skillport.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.model.skill.ToolSpec;
import java.util.Objects;

/**
 * One entry of a session's {@code tools/list}.
 *
 * @param name the listed name
 * @param kind what the entry stands for
 * @param skill the skill it belongs to, or {@code null} for core tools
 * @param group the group (for group stubs and grouped tools), or {@code null}
 * @param spec the tool's declaration for loaded tools, else {@code null}
 * @param wire the tool object as served; shared between calls, so callers must not mutate it
 */
public record ListedTool(
    String name, Kind kind, String skill, String group, ToolSpec spec, ObjectNode wire) {
  public ListedTool {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(wire, "wire");
  }

  /** The kinds of entries, in listing order. */
  public enum Kind {
    CORE,
    TOOL,
    GROUP_STUB,
    SKILL_STUB
  }
}

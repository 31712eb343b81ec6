package dev.skillport.registry;

import dev.skillport.api.skill.Skill;
import dev.skillport.api.skill.ToolSpec;

/** What a {@code tools/call} name stands for in a session; the variants form a closed set. */
public sealed interface ToolResolution {

  /** A platform tool. */
  record Core(CoreTool tool) implements ToolResolution {}

  /** A loaded, active tool of a skill. */
  record Tool(Skill skill, ToolSpec tool) implements ToolResolution {}

  /** A group stub, or a tool whose group is not active. {@code tool} is null for the stub. */
  record GroupNotActive(Skill skill, String group, ToolSpec tool) implements ToolResolution {}

  /** A skill stub, or a qualified name of a skill the session has not loaded. */
  record SkillNotLoaded(Skill skill) implements ToolResolution {}

  /** Nothing by that name. */
  record NotFound(String name) implements ToolResolution {}
}

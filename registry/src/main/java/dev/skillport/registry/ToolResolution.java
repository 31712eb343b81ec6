package dev.skillport.registry;

import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.ToolSpec;
import java.util.Optional;

/**
 * What a {@code tools/call} name stands for in a session; the variants form a closed set, handled
 * through {@link #accept(Visitor)} so that a new variant fails to compile wherever it is not.
 */
public sealed interface ToolResolution {

  /** Calls the {@code visitor} method of this variant. */
  <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X;

  /** The skill tool the name stands for, active or not; empty for core tools, stubs, nothing. */
  Optional<ToolSpec> declared();

  /** The skill the name belongs to; empty for core tools and nothing. */
  Optional<Skill> owner();

  /**
   * One method per variant.
   *
   * @param <R> what the visit returns
   * @param <X> the checked exception a visit may throw ({@link RuntimeException} for none)
   */
  interface Visitor<R, X extends Exception> {
    R core(Core core) throws X;

    R tool(Tool tool) throws X;

    R groupNotActive(GroupNotActive group) throws X;

    R skillNotLoaded(SkillNotLoaded skill) throws X;

    R notFound(NotFound notFound) throws X;
  }

  /** A platform tool. */
  record Core(CoreTool tool) implements ToolResolution {
    @Override
    public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
      return visitor.core(this);
    }

    @Override
    public Optional<ToolSpec> declared() {
      return Optional.empty();
    }

    @Override
    public Optional<Skill> owner() {
      return Optional.empty();
    }
  }

  /** A loaded, active tool of a skill. */
  record Tool(Skill skill, ToolSpec tool) implements ToolResolution {
    @Override
    public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
      return visitor.tool(this);
    }

    @Override
    public Optional<ToolSpec> declared() {
      return Optional.of(tool);
    }

    @Override
    public Optional<Skill> owner() {
      return Optional.of(skill);
    }
  }

  /** A group stub, or a tool whose group is not active. {@code tool} is null for the stub. */
  record GroupNotActive(Skill skill, String group, ToolSpec tool) implements ToolResolution {
    @Override
    public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
      return visitor.groupNotActive(this);
    }

    @Override
    public Optional<ToolSpec> declared() {
      return Optional.ofNullable(tool);
    }

    @Override
    public Optional<Skill> owner() {
      return Optional.of(skill);
    }
  }

  /** A skill stub, or a qualified name of a skill the session has not loaded. */
  record SkillNotLoaded(Skill skill) implements ToolResolution {
    @Override
    public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
      return visitor.skillNotLoaded(this);
    }

    @Override
    public Optional<ToolSpec> declared() {
      return Optional.empty();
    }

    @Override
    public Optional<Skill> owner() {
      return Optional.of(skill);
    }
  }

  /** Nothing by that name. */
  record NotFound(String name) implements ToolResolution {
    @Override
    public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
      return visitor.notFound(this);
    }

    @Override
    public Optional<ToolSpec> declared() {
      return Optional.empty();
    }

    @Override
    public Optional<Skill> owner() {
      return Optional.empty();
    }
  }
}

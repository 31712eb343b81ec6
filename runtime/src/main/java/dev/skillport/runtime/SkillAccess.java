package dev.skillport.runtime;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The operator's allow and deny lists of skills and tools ({@code serve --allow-skill}, {@code
 * --deny-skill}, {@code --allow-tool}, {@code --deny-tool}). A deny list wins over an allow list;
 * an empty allow list allows everything, a non-empty one only what it names. Tools are named {@code
 * SKILL/TOOL}; a non-empty {@code --allow-tool} also denies every skill it names no tool of. The
 * core tools are never affected.
 *
 * @param allowSkills the skills that may be served; empty for all
 * @param denySkills the skills that may not
 * @param allowTools the tools ({@code SKILL/TOOL}) that may be served; empty for all
 * @param denyTools the tools ({@code SKILL/TOOL}) that may not
 */
public record SkillAccess(
    Set<String> allowSkills,
    Set<String> denySkills,
    Set<String> allowTools,
    Set<String> denyTools) {

  /** Every skill and tool allowed. */
  public static final SkillAccess OPEN = new SkillAccess(Set.of(), Set.of(), Set.of(), Set.of());

  public SkillAccess {
    allowSkills = Set.copyOf(Objects.requireNonNull(allowSkills, "allowSkills"));
    denySkills = Set.copyOf(Objects.requireNonNull(denySkills, "denySkills"));
    allowTools = Set.copyOf(Objects.requireNonNull(allowTools, "allowTools"));
    denyTools = Set.copyOf(Objects.requireNonNull(denyTools, "denyTools"));
    for (String tool : allowTools) {
      checkToolName(tool, "--allow-tool");
    }
    for (String tool : denyTools) {
      checkToolName(tool, "--deny-tool");
    }
  }

  /**
   * Lists of skills alone: {@code deny} denied, and when {@code allow} is not empty, all others.
   */
  public static SkillAccess ofSkills(List<String> allow, List<String> deny) {
    return new SkillAccess(Set.copyOf(allow), Set.copyOf(deny), Set.of(), Set.of());
  }

  /** These lists with the tool lists {@code allow} and {@code deny} ({@code SKILL/TOOL}). */
  public SkillAccess withTools(List<String> allow, List<String> deny) {
    return new SkillAccess(allowSkills, denySkills, Set.copyOf(allow), Set.copyOf(deny));
  }

  private static void checkToolName(String tool, String flag) {
    int slash = tool.indexOf('/');
    if (slash <= 0 || slash == tool.length() - 1 || tool.indexOf('/', slash + 1) >= 0) {
      throw new IllegalArgumentException(
          flag
              + " "
              + tool
              + " does not name a tool: give SKILL/TOOL, e.g. maya-geometry/create_cube");
    }
  }

  /** Whether nothing is denied. */
  public boolean isOpen() {
    return allowSkills.isEmpty()
        && denySkills.isEmpty()
        && allowTools.isEmpty()
        && denyTools.isEmpty();
  }

  /** Why skill {@code skill} may not be served, naming the list; empty when it may. */
  public Optional<String> skillDenial(String skill) {
    if (denySkills.contains(skill)) {
      return Optional.of(
          "skill '" + skill + "' is denied by the server's configuration (serve --deny-skill)");
    }
    if (!allowSkills.isEmpty() && !allowSkills.contains(skill)) {
      return Optional.of(
          "skill '" + skill + "' is not among the skills the server allows (serve --allow-skill)");
    }
    if (!allowTools.isEmpty() && allowTools.stream().noneMatch(t -> t.startsWith(skill + "/"))) {
      return Optional.of(
          "none of the tools of skill '"
              + skill
              + "' is among the tools the server allows (serve --allow-tool)");
    }
    return Optional.empty();
  }

  /**
   * Why tool {@code tool} of an allowed skill {@code skill} may not be served; empty when it may.
   */
  public Optional<String> toolDenial(String skill, String tool) {
    String named = skill + "/" + tool;
    if (denyTools.contains(named)) {
      return Optional.of(
          "tool '" + named + "' is denied by the server's configuration (serve --deny-tool)");
    }
    if (!allowTools.isEmpty() && !allowTools.contains(named)) {
      return Optional.of(
          "tool '" + named + "' is not among the tools the server allows (serve --allow-tool)");
    }
    return Optional.empty();
  }
}

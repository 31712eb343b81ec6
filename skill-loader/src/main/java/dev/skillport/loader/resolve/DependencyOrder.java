package dev.skillport.loader.resolve;

import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Orders skills so that dependencies come before the skills that need them, for loading a skill
 * together with what it depends on.
 *
 * <p>Only skills that answer to their name take part (not {@link SkillState#SHADOWED}, not {@link
 * SkillState#SKIPPED}); a dependency that is not among them is left out. Dependencies are visited
 * in the order they are declared, so the order is deterministic; a cycle cannot make it loop.
 */
public final class DependencyOrder {
  private DependencyOrder() {}

  /**
   * The skill named {@code name} preceded by everything it depends on, transitively, dependencies
   * first; empty when no usable skill has that name.
   */
  public static List<Skill> of(Collection<Skill> skills, String name) {
    Objects.requireNonNull(name, "name");
    Map<String, Skill> byName = usable(skills);
    if (!byName.containsKey(name)) {
      return List.of();
    }
    List<Skill> out = new ArrayList<>();
    visit(byName, name, new HashSet<>(), out);
    return out;
  }

  /** Every usable skill, dependencies first; independent skills by name. */
  public static List<Skill> all(Collection<Skill> skills) {
    Map<String, Skill> byName = usable(skills);
    List<String> names = new ArrayList<>(byName.keySet());
    names.sort(null);
    Set<String> done = new HashSet<>();
    List<Skill> out = new ArrayList<>();
    for (String n : names) {
      visit(byName, n, done, out);
    }
    return out;
  }

  private static Map<String, Skill> usable(Collection<Skill> skills) {
    Objects.requireNonNull(skills, "skills");
    Map<String, Skill> byName = new HashMap<>();
    for (Skill s : skills) {
      if (s.state() != SkillState.SHADOWED && s.state() != SkillState.SKIPPED) {
        byName.putIfAbsent(s.name(), s);
      }
    }
    return byName;
  }

  /** Iterative post-order walk from {@code start}, appending each skill after its dependencies. */
  private static void visit(
      Map<String, Skill> byName, String start, Set<String> done, List<Skill> out) {
    if (!done.add(start)) {
      return;
    }
    Deque<Frame> stack = new ArrayDeque<>();
    stack.push(new Frame(byName.get(start)));
    while (!stack.isEmpty()) {
      Frame frame = stack.peek();
      List<String> deps = frame.skill.manifest().extensions().depends();
      if (frame.next < deps.size()) {
        String dep = deps.get(frame.next++);
        if (byName.containsKey(dep) && done.add(dep)) {
          stack.push(new Frame(byName.get(dep)));
        }
        continue;
      }
      stack.pop();
      out.add(frame.skill);
    }
  }

  /** A skill being visited and the position of its next dependency. */
  private static final class Frame {
    final Skill skill;
    int next;

    Frame(Skill skill) {
      this.skill = skill;
    }
  }
}

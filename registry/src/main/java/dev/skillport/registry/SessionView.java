package dev.skillport.registry;

import dev.skillport.model.skill.GroupSpec;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * One session's view of the catalog: which skills it loaded and which of their groups are active.
 * Changes touch only this session. Thread-safe; {@link #version()} increases with every change so
 * caches can tell a stale entry.
 */
public final class SessionView {
  private final Map<String, Set<String>> loaded = new LinkedHashMap<>();
  private long version;

  /** A view with nothing loaded. */
  public SessionView() {}

  /** A view that starts with {@code preload} loaded (dependencies first, default groups active). */
  public static SessionView preloaded(Catalog catalog, Collection<String> preload) {
    SessionView view = new SessionView();
    if (!preload.isEmpty()) {
      view.load(catalog, List.copyOf(preload), true);
    }
    return view;
  }

  public synchronized long version() {
    return version;
  }

  /** Names of loaded skills, in load order. */
  public synchronized List<String> loadedSkills() {
    return List.copyOf(loaded.keySet());
  }

  public synchronized boolean isLoaded(String skill) {
    return loaded.containsKey(skill);
  }

  /** The active groups of a loaded skill (empty when not loaded). */
  public synchronized Set<String> activeGroups(String skill) {
    Set<String> groups = loaded.get(skill);
    return groups == null ? Set.of() : Set.copyOf(groups);
  }

  /** Every active group as {@code skill/group}, sorted. */
  public synchronized List<String> activeGroupKeys() {
    Set<String> keys = new TreeSet<>();
    loaded.forEach((skill, groups) -> groups.forEach(g -> keys.add(skill + "/" + g)));
    return List.copyOf(keys);
  }

  /**
   * Loads skills and their dependencies (dependencies first). Idempotent: already loaded skills are
   * reported as such and left unchanged.
   */
  public synchronized LoadOutcome load(
      Catalog catalog, List<String> names, boolean activateGroups) {
    return load(catalog, names, activateGroups, skill -> Optional.empty());
  }

  /**
   * Loads skills like {@link #load(Catalog, List, boolean)}, refusing every skill (dependencies
   * included) for which {@code admission} gives a reason; the reason becomes the failure message.
   */
  public synchronized LoadOutcome load(
      Catalog catalog,
      List<String> names,
      boolean activateGroups,
      Function<Skill, Optional<String>> admission) {
    List<String> newlyLoaded = new ArrayList<>();
    List<String> alreadyLoaded = new ArrayList<>();
    Map<String, String> failures = new LinkedHashMap<>();
    for (String requested : names) {
      Skill skill = catalog.skill(requested).orElse(null);
      String problem = problem(requested, skill);
      if (problem == null) {
        problem = admission.apply(skill).orElse(null);
      }
      if (problem != null) {
        failures.put(requested, problem);
        continue;
      }
      List<String> order = catalog.loadOrder(skill.name());
      for (String name : order) {
        Skill s = catalog.skill(name).orElseThrow();
        String depProblem = problem(name, s);
        if (depProblem == null) {
          depProblem = admission.apply(s).orElse(null);
        }
        if (depProblem != null) {
          failures.put(requested, "dependency " + name + ": " + depProblem);
          break;
        }
      }
      if (failures.containsKey(requested)) {
        continue;
      }
      for (String name : order) {
        if (loaded.containsKey(name)) {
          if (name.equals(skill.name())) {
            alreadyLoaded.add(name);
          }
          continue;
        }
        Set<String> groups = new LinkedHashSet<>();
        if (activateGroups) {
          for (GroupSpec g : catalog.skill(name).orElseThrow().groups()) {
            if (g.defaultActive()) {
              groups.add(g.name());
            }
          }
        }
        loaded.put(name, groups);
        newlyLoaded.add(name);
      }
    }
    if (!newlyLoaded.isEmpty()) {
      version++;
    }
    return new LoadOutcome(newlyLoaded, alreadyLoaded, failures);
  }

  private static String problem(String requested, Skill skill) {
    if (skill == null) {
      return "no skill named '" + requested + "'";
    }
    if (skill.state() == SkillState.PENDING_DEPS) {
      return "skill '" + skill.name() + "' is waiting for a missing dependency";
    }
    if (skill.state() == SkillState.DENIED) {
      return denied(skill.name());
    }
    if (skill.state() != SkillState.AVAILABLE) {
      return "skill '" + skill.name() + "' is " + skill.state().label();
    }
    return null;
  }

  /** Why a {@link SkillState#DENIED} skill cannot be loaded, as load_skill says it. */
  public static String denied(String skill) {
    return "skill '"
        + skill
        + "' is denied by the server's configuration and cannot be loaded (get_skill_info says"
        + " why)";
  }

  /** Unloads a skill; unloading one that is not loaded is a no-op (returns false). */
  public synchronized boolean unload(String skill) {
    if (loaded.remove(skill) == null) {
      return false;
    }
    version++;
    return true;
  }

  /**
   * Activates or deactivates a group of a loaded skill.
   *
   * @return whether anything changed
   * @throws IllegalStateException when the skill is not loaded
   */
  public synchronized boolean setGroupActive(String skill, String group, boolean active) {
    Set<String> groups = loaded.get(skill);
    if (groups == null) {
      throw new IllegalStateException("skill '" + skill + "' is not loaded");
    }
    boolean changed = active ? groups.add(group) : groups.remove(group);
    if (changed) {
      version++;
    }
    return changed;
  }

  /**
   * What a load request did.
   *
   * @param loaded skills loaded by this request, dependencies first
   * @param alreadyLoaded requested skills that were loaded before
   * @param failures requested name → why it could not be loaded
   */
  public record LoadOutcome(
      List<String> loaded, List<String> alreadyLoaded, Map<String, String> failures) {
    public LoadOutcome {
      loaded = List.copyOf(loaded);
      alreadyLoaded = List.copyOf(alreadyLoaded);
      failures = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(failures));
    }
  }
}

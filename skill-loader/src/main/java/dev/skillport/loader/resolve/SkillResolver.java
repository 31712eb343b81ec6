package dev.skillport.loader.resolve;

import dev.skillport.loader.skillmd.ManifestKeys;
import dev.skillport.loader.skillmd.SkillMdParser;
import dev.skillport.loader.yaml.YamlLimits;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Decides the final state of every skill: shadowing first, then dependencies among the winners.
 *
 * <p><b>Shadowing.</b> Among skills that share a name and were not rejected, the one in the higher
 * {@link dev.skillport.model.skill.Scope} wins; within a scope the root earlier in priority order
 * (lower {@code rootOrder}); within one root the directory whose path sorts first. Losers become
 * {@link SkillState#SHADOWED} with {@code shadowedBy} = the winner's directory and a {@code
 * SHADOWED} diagnostic naming it. A rejected ({@link SkillState#SKIPPED}) skill takes no part: a
 * broken skill in a higher scope does not hide a valid one below it, because hiding a working skill
 * behind one that cannot load helps nobody; the broken one stays listed with its errors.
 *
 * <p><b>Dependencies.</b> A winner whose dependency is not an available winner becomes {@link
 * SkillState#PENDING_DEPS} with {@code DEPENDENCY_MISSING}; this propagates (depending on a pending
 * skill makes a skill pending). The members of a dependency cycle (a strongly connected component
 * of two or more skills, or a skill depending on itself) and only they are rejected with {@code
 * DEPENDENCY_CYCLE}; a skill that depends on a cycle member waits ({@code PENDING_DEPS}).
 */
public final class SkillResolver {
  /** Which of two same-named skills wins: the one that sorts first. */
  public static final Comparator<Skill> PRECEDENCE =
      Comparator.comparing((Skill s) -> s.scope().ordinal(), Comparator.reverseOrder())
          .thenComparingInt(s -> s.location().rootOrder())
          .thenComparing(s -> s.location().directory().toString());

  private SkillResolver() {}

  /**
   * Resolves {@code skills}, whose states are {@link SkillState#AVAILABLE} or {@link
   * SkillState#SKIPPED} as read. Returns them in the same order with their final states.
   */
  public static Resolution resolve(List<Skill> skills) {
    return resolve(skills, YamlLimits.FRONTMATTER, Long.MAX_VALUE);
  }

  /**
   * {@link #resolve(List)}; a diagnostic points at the line that causes it (the shadowed skill's
   * {@code name}, the dependency's entry), found by reading that skill's SKILL.md again within
   * {@code limits} and {@code maxFileBytes}.
   */
  public static Resolution resolve(List<Skill> skills, YamlLimits limits, long maxFileBytes) {
    Objects.requireNonNull(skills, "skills");
    Objects.requireNonNull(limits, "limits");
    List<Skill> out = new ArrayList<>(skills);
    List<Diagnostic> diagnostics = new ArrayList<>();
    Lines lines = new Lines(limits, maxFileBytes);
    Map<String, Integer> winners = shadow(out, diagnostics, lines);
    depend(out, winners, diagnostics, lines);
    return new Resolution(out, diagnostics);
  }

  /** SKILL.md positions, read again once per skill that needs one. */
  private static final class Lines {
    private final YamlLimits limits;
    private final long maxFileBytes;
    private final Map<Path, ManifestKeys> read = new HashMap<>();

    Lines(YamlLimits limits, long maxFileBytes) {
      this.limits = limits;
      this.maxFileBytes = maxFileBytes;
    }

    private ManifestKeys keys(Skill s) {
      return read.computeIfAbsent(
          s.location().skillFile(), f -> ManifestKeys.reread(f, limits, maxFileBytes));
    }

    Diagnostic atName(Diagnostic d, Skill s) {
      return at(d, new ManifestKeys.Located(s.location().skillFile(), keys(s).topLevel("name")));
    }

    Diagnostic atDependency(Diagnostic d, Skill s, String dependency) {
      return keys(s)
          .dependency(s.location().skillFile(), s.location().directory(), dependency)
          .map(located -> at(d, located))
          .orElse(d);
    }

    private static Diagnostic at(Diagnostic d, ManifestKeys.Located where) {
      return new Diagnostic(
          d.severity(),
          d.code(),
          d.message(),
          where.file(),
          where.at().line(),
          where.at().column(),
          d.skill(),
          d.hint());
    }
  }

  /** Marks losers SHADOWED; returns the index of each name's winner. */
  private static Map<String, Integer> shadow(
      List<Skill> skills, List<Diagnostic> diagnostics, Lines lines) {
    Map<String, List<Integer>> byName = new LinkedHashMap<>();
    for (int i = 0; i < skills.size(); i++) {
      Skill s = skills.get(i);
      if (s.state() != SkillState.SKIPPED) {
        byName.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(i);
      }
    }
    Map<String, Integer> winners = new HashMap<>();
    for (Map.Entry<String, List<Integer>> e : byName.entrySet()) {
      List<Integer> group = e.getValue();
      group.sort(Comparator.comparing(skills::get, PRECEDENCE));
      int winnerIndex = group.get(0);
      Skill winner = skills.get(winnerIndex);
      winners.put(e.getKey(), winnerIndex);
      String winnerDir = winner.location().directory().toString();
      for (int k = 1; k < group.size(); k++) {
        int i = group.get(k);
        Skill loser = skills.get(i);
        skills.set(i, loser.withState(SkillState.SHADOWED, winnerDir));
        diagnostics.add(
            lines.atName(
                diagnostic(
                        DiagnosticCode.SHADOWED,
                        loser,
                        "skill '"
                            + loser.name()
                            + "' is shadowed by "
                            + winnerDir
                            + " ("
                            + why(winner, loser)
                            + ")")
                    .withHint("rename one of them if both are needed"),
                loser));
      }
    }
    return winners;
  }

  private static String why(Skill winner, Skill loser) {
    if (winner.scope() != loser.scope()) {
      return "scope " + winner.scope().label() + " is above " + loser.scope().label();
    }
    if (winner.location().rootOrder() != loser.location().rootOrder()) {
      return "its root " + winner.location().root() + " comes first in priority order";
    }
    return "both are under root " + winner.location().root() + " and its path sorts first";
  }

  private static void depend(
      List<Skill> skills, Map<String, Integer> winners, List<Diagnostic> diagnostics, Lines lines) {
    // Nodes are the winners, numbered in the order of the skills list.
    List<Integer> nodes = new ArrayList<>();
    Map<Integer, Integer> nodeOf = new HashMap<>();
    for (int i = 0; i < skills.size(); i++) {
      Skill s = skills.get(i);
      if (s.state() == SkillState.AVAILABLE && winners.get(s.name()) == i) {
        nodeOf.put(i, nodes.size());
        nodes.add(i);
      }
    }
    Set<String> rejectedNames = new HashSet<>();
    for (Skill s : skills) {
      if (s.state() == SkillState.SKIPPED) {
        rejectedNames.add(s.name());
      }
    }
    List<List<Integer>> edges = new ArrayList<>();
    for (int index : nodes) {
      List<Integer> next = new ArrayList<>();
      for (String dep : skills.get(index).manifest().extensions().depends()) {
        Integer target = winners.get(dep);
        if (target != null && nodeOf.containsKey(target)) {
          next.add(nodeOf.get(target));
        }
      }
      edges.add(next);
    }
    boolean[] inCycle = new boolean[nodes.size()];
    boolean[] pending = new boolean[nodes.size()];
    for (List<Integer> component : StronglyConnected.components(edges)) {
      int only = component.get(0);
      boolean cycle = component.size() > 1 || edges.get(only).contains(only);
      if (cycle) {
        List<String> names = new ArrayList<>();
        for (int node : component) {
          names.add(skills.get(nodes.get(node)).name());
        }
        names.sort(null);
        for (int node : component) {
          inCycle[node] = true;
          int index = nodes.get(node);
          Skill s = skills.get(index);
          skills.set(index, s.withState(SkillState.SKIPPED, null));
          Diagnostic cycleDiagnostic =
              diagnostic(
                      DiagnosticCode.DEPENDENCY_CYCLE,
                      s,
                      names.size() == 1
                          ? "skill '" + s.name() + "' depends on itself"
                          : "skills " + String.join(", ", names) + " depend on each other")
                  .withHint("remove one dependency to break the cycle");
          // Points at this skill's dependency on a member of the cycle.
          String inCycleDep =
              s.manifest().extensions().depends().stream()
                  .filter(names::contains)
                  .findFirst()
                  .orElse(null);
          diagnostics.add(
              inCycleDep == null
                  ? cycleDiagnostic
                  : lines.atDependency(cycleDiagnostic, s, inCycleDep));
        }
        continue;
      }
      // Components come dependencies first, so every dependency's verdict is already known.
      int index = nodes.get(only);
      Skill s = skills.get(index);
      for (String dep : s.manifest().extensions().depends()) {
        Integer target = winners.get(dep);
        Integer node = target == null ? null : nodeOf.get(target);
        String reason;
        if (node == null) {
          if (rejectedNames.contains(dep)) {
            reason = "which is rejected (see its diagnostics)";
          } else if (!possibleName(dep)) {
            reason =
                "which no skill can be named: a skill name is 1-"
                    + SkillMdParser.MAX_NAME
                    + " lowercase letters, digits and single hyphens";
          } else {
            reason = "which is not available";
          }
        } else if (inCycle[node]) {
          reason = "which is rejected for a dependency cycle";
        } else if (pending[node]) {
          reason = "which waits for its own dependencies";
        } else {
          continue;
        }
        pending[only] = true;
        diagnostics.add(
            lines.atDependency(
                diagnostic(
                    DiagnosticCode.DEPENDENCY_MISSING,
                    s,
                    "skill '" + s.name() + "' depends on '" + dep + "', " + reason),
                s,
                dep));
      }
      if (pending[only]) {
        skills.set(index, s.withState(SkillState.PENDING_DEPS, null));
      }
    }
  }

  /** Whether a skill could have {@code name}: one that breaks the naming rules is rejected. */
  private static boolean possibleName(String name) {
    return name.length() <= SkillMdParser.MAX_NAME
        && SkillMdParser.NAME_PATTERN.matcher(name).matches();
  }

  private static Diagnostic diagnostic(DiagnosticCode code, Skill skill, String message) {
    return Diagnostic.of(code, message, skill.location().skillFile(), 0, 0).withSkill(skill.name());
  }
}

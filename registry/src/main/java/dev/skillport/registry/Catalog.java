package dev.skillport.registry;

import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.registry.search.SemanticSearch;
import dev.skillport.registry.search.SkillSearchIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An immutable snapshot of every discovered skill. A reload builds a new snapshot and swaps one
 * reference ({@link CatalogHolder}); readers never lock, and a call finishes on the snapshot it
 * started with.
 */
public final class Catalog {
  private final long generation;
  private final List<Skill> skills;
  private final List<Diagnostic> diagnostics;
  private final Map<String, Skill> byName;
  private final SemanticSearch semantic;
  // Built on first use: a catalog is published (and its first tools/list answered) without it.
  private volatile SkillSearchIndex searchIndex;

  private Catalog(
      long generation, List<Skill> skills, List<Diagnostic> diagnostics, SemanticSearch semantic) {
    this.generation = generation;
    this.semantic = Objects.requireNonNull(semantic, "semantic");
    this.skills = List.copyOf(skills);
    this.diagnostics = List.copyOf(diagnostics);
    Map<String, Skill> index = new HashMap<>();
    for (Skill s : this.skills) {
      if (s.state() != SkillState.SHADOWED) {
        index.putIfAbsent(s.name(), s);
      }
    }
    this.byName = Map.copyOf(index);
  }

  /**
   * A snapshot of {@code skills} (as the loader returned them, shadowed and skipped ones included).
   */
  public static Catalog of(long generation, List<Skill> skills, List<Diagnostic> diagnostics) {
    return new Catalog(generation, skills, diagnostics, SemanticSearch.off());
  }

  /** A snapshot whose search ranks by meaning too, through {@code semantic}. */
  public static Catalog of(
      long generation, List<Skill> skills, List<Diagnostic> diagnostics, SemanticSearch semantic) {
    return new Catalog(generation, skills, diagnostics, semantic);
  }

  /** An empty snapshot, before discovery finished. */
  public static Catalog empty() {
    return new Catalog(0, List.of(), List.of(), SemanticSearch.off());
  }

  /** The semantic side of this snapshot's search (shared by every snapshot of one server). */
  public SemanticSearch semantic() {
    return semantic;
  }

  /** Increases with every reload; caches compare it. */
  public long generation() {
    return generation;
  }

  public List<Skill> skills() {
    return skills;
  }

  public List<Diagnostic> diagnostics() {
    return diagnostics;
  }

  /** The skill answering to {@code name} (never a shadowed one), in any other state. */
  public Optional<Skill> skill(String name) {
    Skill s = byName.get(name);
    if (s == null && name.indexOf('_') >= 0) {
      s = byName.get(name.replace('_', '-'));
    }
    return Optional.ofNullable(s);
  }

  /** Whether {@code name} is a skill that a session may load now. */
  public boolean isLoadable(String name) {
    return skill(name).map(s -> s.state() == SkillState.AVAILABLE).orElse(false);
  }

  /** The search index over this snapshot, built by the first caller and shared afterwards. */
  public SkillSearchIndex searchIndex() {
    SkillSearchIndex index = searchIndex;
    if (index == null) {
      synchronized (this) {
        index = searchIndex;
        if (index == null) {
          index = SkillSearchIndex.build(skills, semantic);
          searchIndex = index;
        }
      }
    }
    return index;
  }

  /**
   * The skills to load for {@code name}, dependencies first. Unknown dependencies are left out; the
   * loader has already marked skills with missing dependencies as pending.
   */
  public List<String> loadOrder(String name) {
    Set<String> ordered = new LinkedHashSet<>();
    visit(name, ordered, new HashSet<>());
    return new ArrayList<>(ordered);
  }

  private void visit(String name, Set<String> ordered, Set<String> visiting) {
    Optional<Skill> skill = skill(name);
    if (skill.isEmpty() || ordered.contains(skill.get().name())) {
      return;
    }
    String canonical = skill.get().name();
    if (!visiting.add(canonical)) {
      return;
    }
    for (String dep : skill.get().manifest().extensions().depends()) {
      visit(dep, ordered, visiting);
    }
    ordered.add(canonical);
  }
}

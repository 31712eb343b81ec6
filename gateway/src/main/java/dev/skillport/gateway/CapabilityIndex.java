package dev.skillport.gateway;

import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.registry.search.SkillHit;
import dev.skillport.registry.search.SkillQuery;
import dev.skillport.registry.search.SkillSearchIndex;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Every instance's skills and tools at one moment, immutable: one search index over all of them
 * (the ranking of {@code search_skills}) and, for routing, who owns which skill and tool. A new
 * index is built when an instance comes, goes or changes its catalog.
 */
public final class CapabilityIndex {
  /** A skill of an instance. */
  public record OwnedSkill(InstanceEntry instance, Skill skill) {}

  /** A tool of a skill of an instance. */
  public record OwnedTool(InstanceEntry instance, String skill, String tool) {
    /** {@code instance/skill__tool}: the name that routes to it alone. */
    public String qualifiedName() {
      return instance.id() + "/" + skill + "__" + tool;
    }
  }

  /** A ranked skill and its instance. */
  public record Hit(OwnedSkill owned, double score) {}

  private static final CapabilityIndex EMPTY = new CapabilityIndex(List.of());

  private final Map<String, InstanceCatalog> catalogs = new LinkedHashMap<>();
  private final SkillSearchIndex search;
  private final Map<Skill, InstanceEntry> owners = new IdentityHashMap<>();
  private final List<OwnedTool> tools = new ArrayList<>();

  private CapabilityIndex(Collection<InstanceCatalog> all) {
    List<Skill> skills = new ArrayList<>();
    for (InstanceCatalog c : all) {
      catalogs.put(c.instance().id(), c);
      for (Skill s : c.skills()) {
        skills.add(s);
        owners.put(s, c.instance());
        for (ToolSpec t : s.tools()) {
          tools.add(new OwnedTool(c.instance(), s.name(), t.name()));
        }
      }
    }
    this.search = SkillSearchIndex.build(skills);
  }

  public static CapabilityIndex empty() {
    return EMPTY;
  }

  /** The index of {@code catalogs}, ordered by instance id. */
  public static CapabilityIndex of(Collection<InstanceCatalog> catalogs) {
    List<InstanceCatalog> sorted = new ArrayList<>(catalogs);
    sorted.sort((a, b) -> a.instance().id().compareTo(b.instance().id()));
    return new CapabilityIndex(sorted);
  }

  /** The instances indexed, by id. */
  public Map<String, InstanceCatalog> catalogs() {
    return java.util.Collections.unmodifiableMap(catalogs);
  }

  /**
   * Ranks every instance's skills for {@code query} as {@code search_skills} does, keeping those
   * {@code accepts} lets through; answers the best {@code limit} and how many matched in all.
   */
  public Ranked search(String query, Predicate<OwnedSkill> accepts, int limit) {
    List<SkillHit> hits = search.search(new SkillQuery(query, List.of(), null, null, 100, false));
    List<Hit> kept = new ArrayList<>();
    for (SkillHit h : hits) {
      OwnedSkill owned = new OwnedSkill(owners.get(h.skill()), h.skill());
      if (accepts.test(owned)) {
        kept.add(new Hit(owned, h.score()));
      }
    }
    return new Ranked(List.copyOf(kept.subList(0, Math.min(limit, kept.size()))), kept.size());
  }

  /** A page of hits and the number of matches. */
  public record Ranked(List<Hit> hits, int total) {}

  /** The skills named {@code name}, one per instance that has it. */
  public List<OwnedSkill> skills(String name) {
    List<OwnedSkill> out = new ArrayList<>();
    for (InstanceCatalog c : catalogs.values()) {
      for (Skill s : c.skills()) {
        if (s.name().equals(name)) {
          out.add(new OwnedSkill(c.instance(), s));
        }
      }
    }
    return out;
  }

  /**
   * The tools a name can mean: {@code skill__tool} (the skill's hyphens may be underscores) or a
   * bare tool name, on any instance.
   */
  public List<OwnedTool> tools(String name) {
    List<OwnedTool> out = new ArrayList<>();
    for (OwnedTool t : tools) {
      if (t.tool().equals(name) || matchesQualified(t, name)) {
        out.add(t);
      }
    }
    return out;
  }

  private static boolean matchesQualified(OwnedTool t, String name) {
    String suffix = "__" + t.tool();
    if (!name.endsWith(suffix)) {
      return false;
    }
    String skill = name.substring(0, name.length() - suffix.length());
    return skill.equals(t.skill()) || skill.equals(t.skill().replace('-', '_'));
  }

  /** The instance {@code id}, when indexed. */
  public Optional<InstanceEntry> instance(String id) {
    return Optional.ofNullable(catalogs.get(id)).map(InstanceCatalog::instance);
  }
}

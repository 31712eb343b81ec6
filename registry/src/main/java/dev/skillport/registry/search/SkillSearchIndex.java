package dev.skillport.registry.search;

import dev.skillport.model.skill.DccExtensions;
import dev.skillport.model.skill.Layer;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Searches the skills of one catalog snapshot (immutable, built with the snapshot). Only skills
 * that can be loaded now or later (available or waiting for a dependency) are searchable.
 */
public final class SkillSearchIndex {
  private final List<Skill> skills;
  private final Bm25Index skillIndex;
  private final List<ToolEntry> tools;
  private final Bm25Index toolIndex;

  /** A tool with the skill that declares it. */
  public record ToolEntry(Skill skill, ToolSpec tool) {}

  /** A ranked tool hit. */
  public record ToolHit(Skill skill, ToolSpec tool, double score) {}

  private SkillSearchIndex(List<Skill> skills, List<ToolEntry> tools) {
    this.skills = skills;
    this.tools = tools;
    List<Map<Field, String>> skillDocs = new ArrayList<>(skills.size());
    for (Skill s : skills) {
      DccExtensions ext = s.manifest().extensions();
      Map<Field, String> f = Bm25Index.fields();
      f.put(Field.NAME, s.name());
      f.put(Field.TAGS, String.join(" ", ext.discovery().tags()));
      f.put(Field.HINT, ext.discovery().searchHint() == null ? "" : ext.discovery().searchHint());
      f.put(Field.ALIASES, String.join(" ", ext.discovery().searchAliases()));
      f.put(Field.DESCRIPTION, s.manifest().description());
      f.put(
          Field.TOOL_NAMES,
          s.tools().stream().map(ToolSpec::name).collect(Collectors.joining(" ")));
      skillDocs.add(f);
    }
    this.skillIndex = Bm25Index.build(skillDocs);
    List<Map<Field, String>> toolDocs = new ArrayList<>(tools.size());
    for (ToolEntry t : tools) {
      Map<Field, String> f = Bm25Index.fields();
      f.put(Field.NAME, t.tool().name());
      f.put(Field.ALIASES, String.join(" ", t.tool().searchAliases()));
      f.put(Field.DESCRIPTION, t.tool().description());
      f.put(Field.TAGS, t.skill().name());
      toolDocs.add(f);
    }
    this.toolIndex = Bm25Index.build(toolDocs);
  }

  /** Indexes the searchable skills among {@code all}. */
  public static SkillSearchIndex build(List<Skill> all) {
    List<Skill> searchable =
        all.stream()
            .filter(s -> s.state() == SkillState.AVAILABLE || s.state() == SkillState.PENDING_DEPS)
            .toList();
    List<ToolEntry> tools = new ArrayList<>();
    searchable.forEach(s -> s.tools().forEach(t -> tools.add(new ToolEntry(s, t))));
    return new SkillSearchIndex(searchable, List.copyOf(tools));
  }

  /** Ranked skills for a query; a blank query browses by scope (highest first) then name. */
  public List<SkillHit> search(SkillQuery q) {
    List<SkillHit> hits = new ArrayList<>();
    if (q.query().isBlank()) {
      for (Skill s : skills) {
        if (accepts(s, q)) {
          hits.add(new SkillHit(s, 0));
        }
      }
      hits.sort(
          Comparator.comparing((SkillHit h) -> h.skill().scope())
              .reversed()
              .thenComparing(h -> h.skill().name()));
    } else {
      skillIndex
          .score(q.query())
          .forEach(
              (doc, score) -> {
                Skill s = skills.get(doc);
                if (accepts(s, q)) {
                  hits.add(
                      new SkillHit(
                          s, score * layerWeight(s.manifest().extensions().discovery().layer())));
                }
              });
      hits.sort(
          Comparator.comparingDouble(SkillHit::score)
              .reversed()
              .thenComparing(h -> h.skill().name()));
    }
    return hits.size() > q.limit() ? List.copyOf(hits.subList(0, q.limit())) : hits;
  }

  /** How many skills match the filters and query, before the limit. */
  public int count(SkillQuery q) {
    if (q.query().isBlank()) {
      return (int) skills.stream().filter(s -> accepts(s, q)).count();
    }
    return (int)
        skillIndex.score(q.query()).keySet().stream()
            .filter(d -> accepts(skills.get(d), q))
            .count();
  }

  /** Ranked tools across searchable skills, best first. */
  public List<ToolHit> searchTools(String query, int limit) {
    List<ToolHit> hits = new ArrayList<>();
    toolIndex
        .score(query)
        .forEach(
            (doc, score) -> {
              ToolEntry t = tools.get(doc);
              if (t.skill().manifest().extensions().discovery().allowImplicitInvocation()) {
                hits.add(new ToolHit(t.skill(), t.tool(), score));
              }
            });
    hits.sort(
        Comparator.comparingDouble(ToolHit::score)
            .reversed()
            .thenComparing(h -> h.skill().name())
            .thenComparing(h -> h.tool().name()));
    return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : hits;
  }

  private static boolean accepts(Skill s, SkillQuery q) {
    DccExtensions ext = s.manifest().extensions();
    if (!q.includeHidden() && !ext.discovery().allowImplicitInvocation()) {
      return false;
    }
    if (q.dcc() != null && !q.dcc().isBlank() && !ext.dcc().equalsIgnoreCase(q.dcc())) {
      return false;
    }
    if (q.scope() != null && s.scope() != q.scope()) {
      return false;
    }
    for (String tag : q.tags()) {
      String want = tag.toLowerCase(Locale.ROOT);
      if (ext.discovery().tags().stream().noneMatch(t -> t.toLowerCase(Locale.ROOT).equals(want))) {
        return false;
      }
    }
    return true;
  }

  /** Domain skills rank above infrastructure, harness and example skills of equal relevance. */
  static double layerWeight(Layer layer) {
    return switch (layer) {
      case DOMAIN -> 1.0;
      case INFRASTRUCTURE -> 0.85;
      case THIN_HARNESS -> 0.7;
      case EXAMPLE -> 0.5;
    };
  }
}

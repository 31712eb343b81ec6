package dev.skillport.server.prompts;

import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Every available skill's prompt definitions, built once per catalog generation on the thread that
 * swaps the catalog in: declared prompts come parsed in the snapshot, and the Markdown files a
 * skill's {@code examples}/{@code recipes} name are read then, so {@code prompts/list} and {@code
 * prompts/get} read no skill file.
 */
final class PromptCatalog {
  private record Built(Catalog catalog, Map<String, List<PromptDefinition>> bySkill) {}

  private final AtomicReference<Built> built;

  private PromptCatalog(Catalog first) {
    this.built = new AtomicReference<>(build(first));
  }

  /** A catalog of prompts that follows {@code holder}'s swaps from now on. */
  static PromptCatalog following(CatalogHolder holder) {
    PromptCatalog prompts = new PromptCatalog(holder.current());
    holder.onSwap((before, after) -> prompts.built.set(build(after)));
    // A swap between reading the current catalog and listening would otherwise go unseen.
    Catalog now = holder.current();
    prompts.built.updateAndGet(b -> b.catalog().generation() < now.generation() ? build(now) : b);
    return prompts;
  }

  /** {@code skill}'s prompts as of {@code catalog}, the snapshot its request works on. */
  List<PromptDefinition> of(Catalog catalog, Skill skill) {
    Built b = built.get();
    if (b.catalog() == catalog) {
      return b.bySkill().getOrDefault(skill.name(), List.of());
    }
    // A request still on a snapshot replaced since: its own definitions, built for it alone.
    return SessionPrompts.definitions(skill);
  }

  private static Built build(Catalog catalog) {
    Map<String, List<PromptDefinition>> bySkill = new HashMap<>();
    for (Skill skill : catalog.skills()) {
      if (skill.state() == SkillState.AVAILABLE) {
        bySkill.putIfAbsent(skill.name(), SessionPrompts.definitions(skill));
      }
    }
    return new Built(catalog, Map.copyOf(bySkill));
  }
}

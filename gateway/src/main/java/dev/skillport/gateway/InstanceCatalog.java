package dev.skillport.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.model.skill.DccExtensions;
import dev.skillport.model.skill.Layer;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillLocation;
import dev.skillport.model.skill.SkillManifest;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What one instance serves, as its {@code list_skills} told it: each searchable skill rebuilt as a
 * model {@link Skill} (name, description, search fields, tool names) so that the gateway ranks them
 * with the instance's own search index. Schemas are not kept: {@code describe} and {@code
 * load_skill} ask the instance.
 */
public record InstanceCatalog(InstanceEntry instance, List<Skill> skills) {
  /** The {@code list_skills} fields the index is made of. */
  static final List<String> FIELDS =
      List.of(
          "status",
          "scope",
          "dcc",
          "version",
          "layer",
          "implicit_invocation",
          "description",
          "search_hint",
          "tags",
          "tool_names");

  public InstanceCatalog {
    skills = List.copyOf(skills);
  }

  /** Reads the structured result of {@code list_skills} with {@link #FIELDS}. */
  static InstanceCatalog read(InstanceEntry instance, JsonNode listed) {
    List<Skill> skills = new ArrayList<>();
    Path nowhere = Path.of("/").resolve(instance.id());
    for (JsonNode item : listed.path("skills")) {
      SkillState state =
          switch (item.path("status").asText()) {
            case "loaded", "unloaded" -> SkillState.AVAILABLE;
            case "pending_deps" -> SkillState.PENDING_DEPS;
            default -> null;
          };
      String name = item.path("name").asText("");
      if (state == null || name.isEmpty()) {
        continue;
      }
      List<String> tags = new ArrayList<>();
      item.path("tags").forEach(t -> tags.add(t.asText()));
      String hint = item.path("search_hint").asText(null);
      DccExtensions ext =
          DccExtensions.builder()
              .dcc(item.path("dcc").asText(instance.dcc()))
              .version(item.path("version").asText(null))
              .tags(tags)
              .searchHint(hint == null || hint.isBlank() ? null : hint)
              .allowImplicitInvocation(item.path("implicit_invocation").asBoolean(true))
              .layer(Layer.parse(item.path("layer").asText("")).orElse(Layer.DOMAIN))
              .build();
      SkillManifest manifest =
          new SkillManifest(
              name,
              item.path("description").asText(""),
              null,
              null,
              List.of(),
              Map.of(),
              Map.of(),
              "",
              ext);
      Scope scope = Scope.parse(item.path("scope").asText("repo")).orElse(Scope.REPO);
      Path dir = nowhere.resolve(name);
      SkillLocation location = new SkillLocation(dir, dir.resolve("SKILL.md"), nowhere, scope, 0);
      List<ToolSpec> tools = new ArrayList<>();
      for (String tool : item.path("tool_names").asText("").split(",")) {
        if (!tool.isBlank()) {
          tools.add(ToolSpec.builder(tool.strip(), ToolSpec.defaultInputSchema()).build());
        }
      }
      skills.add(
          new Skill(
              manifest, location, state, tools, List.of(), List.of(), List.of(), List.of(),
              List.of(), List.of(), null, null));
    }
    return new InstanceCatalog(instance, skills);
  }
}

package dev.skillport.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.model.skill.DccExtensions;
import dev.skillport.model.skill.GroupSpec;
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

/** Builds {@link Skill} records for registry tests without touching the disk. */
public final class TestSkills {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String name;
  private String description = "A skill for tests";
  private String dcc = "python";
  private List<String> tags = List.of();
  private String hint;
  private List<String> depends = List.of();
  private boolean implicit = true;
  private Layer layer = Layer.DOMAIN;
  private Scope scope = Scope.REPO;
  private SkillState state = SkillState.AVAILABLE;
  private Path directory;
  private final List<ToolSpec> tools = new ArrayList<>();
  private final List<GroupSpec> groups = new ArrayList<>();

  private TestSkills(String name) {
    this.name = name;
  }

  public static TestSkills named(String name) {
    return new TestSkills(name);
  }

  public static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  public TestSkills description(String value) {
    this.description = value;
    return this;
  }

  public TestSkills dcc(String value) {
    this.dcc = value;
    return this;
  }

  public TestSkills tags(String... value) {
    this.tags = List.of(value);
    return this;
  }

  public TestSkills hint(String value) {
    this.hint = value;
    return this;
  }

  public TestSkills depends(String... value) {
    this.depends = List.of(value);
    return this;
  }

  public TestSkills hidden() {
    this.implicit = false;
    return this;
  }

  public TestSkills layer(Layer value) {
    this.layer = value;
    return this;
  }

  public TestSkills scope(Scope value) {
    this.scope = value;
    return this;
  }

  public TestSkills state(SkillState value) {
    this.state = value;
    return this;
  }

  /** The skill's folder (default {@code /skills/NAME}, which does not exist). */
  public TestSkills at(Path folder) {
    this.directory = folder;
    return this;
  }

  public TestSkills tool(String toolName) {
    return tool(toolName, null);
  }

  public TestSkills tool(String toolName, String group) {
    tools.add(
        ToolSpec.builder(toolName, ToolSpec.defaultInputSchema())
            .description("Tool " + toolName)
            .group(group)
            .build());
    return this;
  }

  public TestSkills tool(ToolSpec spec) {
    tools.add(spec);
    return this;
  }

  public TestSkills group(String groupName, boolean defaultActive) {
    List<String> members =
        tools.stream().filter(t -> groupName.equals(t.group())).map(ToolSpec::name).toList();
    groups.add(new GroupSpec(groupName, "Group " + groupName, members, defaultActive));
    return this;
  }

  public Skill build() {
    DccExtensions ext =
        DccExtensions.builder()
            .dcc(dcc)
            .version("1.0.0")
            .tags(tags)
            .searchHint(hint)
            .depends(depends)
            .allowImplicitInvocation(implicit)
            .layer(layer)
            .build();
    SkillManifest manifest =
        new SkillManifest(name, description, null, null, List.of(), Map.of(), Map.of(), "", ext);
    Path dir = directory != null ? directory : Path.of("/skills", name);
    SkillLocation loc = new SkillLocation(dir, dir.resolve("SKILL.md"), dir.getParent(), scope, 0);
    return new Skill(
        manifest,
        loc,
        state,
        tools,
        groups,
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        null,
        state == SkillState.SHADOWED ? "/elsewhere" : null);
  }

  public static Catalog catalog(long generation, Skill... skills) {
    return Catalog.of(generation, List.of(skills), List.of());
  }
}

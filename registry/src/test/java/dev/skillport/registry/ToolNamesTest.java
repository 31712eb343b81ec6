package dev.skillport.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.skill.ToolSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolNamesTest {
  private static final List<CoreTool> CORE =
      List.of(
          new CoreTool("search_skills", "Search", ToolSpec.defaultInputSchema(), null),
          new CoreTool("load_skill", "Load", ToolSpec.defaultInputSchema(), null));

  private final Catalog catalog =
      TestSkills.catalog(
          1,
          TestSkills.named("alpha").tool("render").tool("shared").tool("load_skill").build(),
          TestSkills.named("beta")
              .tool("shared")
              .tool("extra", "more")
              .group("more", false)
              .build(),
          TestSkills.named("gamma").tags("geometry").tool("g1").build(),
          TestSkills.named("hidden-one").hidden().tool("h1").build());

  private static List<String> names(ToolNames.Named named) {
    return named.entries().stream().map(ToolNames.Name::name).toList();
  }

  @Test
  void named_sessionNaming_coreThenToolsThenGroupStubsThenSkillStubs() {
    ToolNames names = new ToolNames(CORE, true);
    SessionView view = new SessionView();
    view.load(catalog, List.of("alpha", "beta"), true);

    ToolNames.Named named = names.named(catalog, view);

    assertThat(names(named))
        .containsExactly(
            "search_skills",
            "load_skill",
            "render",
            "alpha__shared",
            "alpha__load_skill",
            "beta__shared",
            "__group__more",
            "__skill__gamma");
    assertThat(named.byName("load_skill").core()).isSameAs(CORE.get(1));
    assertThat(named.byName("alpha__shared").spec().name()).isEqualTo("shared");
    assertThat(named.byName("__group__more").group()).isEqualTo("more");
  }

  @Test
  void named_statelessNaming_listsNoStubs() {
    ToolNames names = new ToolNames(CORE, false);
    SessionView view = new SessionView();
    view.load(catalog, List.of("beta"), true);

    assertThat(names(names.named(catalog, view)))
        .containsExactly("search_skills", "load_skill", "shared");
  }

  @Test
  void named_keptUntilTheViewOrTheCatalogChanges() {
    ToolNames names = new ToolNames(CORE, true);
    SessionView view = new SessionView();
    ToolNames.Named first = names.named(catalog, view);

    assertThat(names.named(catalog, view)).isSameAs(first);
    view.load(catalog, List.of("gamma"), true);
    ToolNames.Named loaded = names.named(catalog, view);
    assertThat(loaded).isNotSameAs(first);
    assertThat(names(loaded)).contains("g1");
    Catalog next =
        TestSkills.catalog(2, TestSkills.named("gamma").tags("geometry").tool("g2").build());
    assertThat(names(names.named(next, view))).contains("g2").doesNotContain("g1");
  }

  @Test
  void named_twoViewsInTurn_eachKeepsItsOwnUntilForgotten() {
    ToolNames names = new ToolNames(CORE, true);
    SessionView one = new SessionView();
    SessionView two = new SessionView();
    two.load(catalog, List.of("gamma"), true);
    ToolNames.Named first = names.named(catalog, one);
    ToolNames.Named second = names.named(catalog, two);

    assertThat(names.named(catalog, one)).isSameAs(first);
    assertThat(names.named(catalog, two)).isSameAs(second);
    assertThat(names(second)).contains("g1");
    assertThat(names(first)).doesNotContain("g1");
    names.forget(two);
    ToolNames.Named rebuilt = names.named(catalog, two);
    assertThat(rebuilt).isNotSameAs(second);
    assertThat(names(rebuilt)).isEqualTo(names(second));
  }

  @Test
  void named_nameTooLong_isLeftOutAndReported() {
    String longName = "t".repeat(70);
    Catalog c = TestSkills.catalog(1, TestSkills.named("s").tool(longName).tool("ok").build());
    ToolNames names = new ToolNames(CORE, true);
    SessionView view = new SessionView();
    view.load(c, List.of("s"), true);

    ToolNames.Named named = names.named(c, view);

    assertThat(names(named)).contains("ok").doesNotContain(longName);
    assertThat(named.unlistable()).containsExactly("s/" + longName);
  }

  @Test
  void resolve_followsDocumentedOrder() {
    ToolNames names = new ToolNames(CORE, true);
    SessionView view = new SessionView();
    view.load(catalog, List.of("alpha", "beta"), true);
    assertThat(names.resolve(catalog, view, "load_skill")).isInstanceOf(ToolResolution.Core.class);
    assertThat(names.resolve(catalog, view, "render")).isInstanceOf(ToolResolution.Tool.class);
    ToolResolution qualified = names.resolve(catalog, view, "alpha__render");
    assertThat(qualified).isInstanceOf(ToolResolution.Tool.class);
    assertThat(((ToolResolution.Tool) qualified).skill().name()).isEqualTo("alpha");
    assertThat(names.resolve(catalog, view, "beta__shared"))
        .isInstanceOfSatisfying(
            ToolResolution.Tool.class, t -> assertThat(t.skill().name()).isEqualTo("beta"));
    assertThat(names.resolve(catalog, view, "shared")).isInstanceOf(ToolResolution.NotFound.class);
    assertThat(names.resolve(catalog, view, "extra"))
        .isInstanceOf(ToolResolution.GroupNotActive.class);
    assertThat(names.resolve(catalog, view, "__group__more"))
        .isInstanceOf(ToolResolution.GroupNotActive.class);
    assertThat(names.resolve(catalog, view, "__skill__gamma"))
        .isInstanceOf(ToolResolution.SkillNotLoaded.class);
    assertThat(names.resolve(catalog, view, "gamma__g1"))
        .isInstanceOf(ToolResolution.SkillNotLoaded.class);
    assertThat(names.resolve(catalog, view, "nothing")).isInstanceOf(ToolResolution.NotFound.class);
  }

  @Test
  void resolve_hyphenatedSkillInUnderscoreForm_findsTool() {
    Catalog c =
        TestSkills.catalog(
            1,
            TestSkills.named("maya-geo").tool("make").build(),
            TestSkills.named("other").tool("make").build());
    ToolNames names = new ToolNames(CORE, true);
    SessionView view = new SessionView();
    view.load(c, List.of("maya-geo", "other"), true);
    assertThat(names.resolve(c, view, "maya_geo__make"))
        .isInstanceOfSatisfying(
            ToolResolution.Tool.class, t -> assertThat(t.skill().name()).isEqualTo("maya-geo"));
  }

  @Test
  void resolveQualified_skillNotInView_isNotLoaded() {
    SessionView view = new SessionView();
    view.load(catalog, List.of("alpha"), true);

    assertThat(ToolNames.resolveQualified(catalog, view, "gamma__g1"))
        .isInstanceOf(ToolResolution.SkillNotLoaded.class);
    assertThat(ToolNames.resolveQualified(catalog, view, "alpha__render"))
        .isInstanceOf(ToolResolution.Tool.class);
    assertThat(ToolNames.resolveQualified(catalog, view, "render"))
        .isInstanceOf(ToolResolution.NotFound.class);
  }

  @Test
  void listable_isMcpsToolNamePattern() {
    java.util.regex.Pattern mcp = java.util.regex.Pattern.compile("^[A-Za-z0-9_-]{1,64}$");
    List<String> samples =
        List.of(
            "",
            "a",
            "Az09_-",
            "t".repeat(64),
            "t".repeat(65),
            "with space",
            "dot.name",
            "slash/name",
            "ümlaut",
            "tab\t",
            "__skill__x",
            "x".repeat(63) + "!");
    for (String name : samples) {
      assertThat(ToolNames.listable(name)).as(name).isEqualTo(mcp.matcher(name).matches());
    }
  }
}

package dev.skillport.server.listing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.skillport.model.skill.Execution;
import dev.skillport.model.skill.ToolAnnotations;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CoreTool;
import dev.skillport.registry.InvalidCursorException;
import dev.skillport.registry.ListedTool;
import dev.skillport.registry.SessionView;
import dev.skillport.registry.TestSkills;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolListingTest {
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

  private static List<String> names(List<ListedTool> tools) {
    return tools.stream().map(ListedTool::name).toList();
  }

  @Test
  void all_nothingLoaded_listsCoreThenSkillStubsWithoutHidden() {
    ToolListing listing = new ToolListing(CORE, 100);
    List<String> names = names(listing.all(catalog, new SessionView()));
    assertThat(names)
        .containsExactly(
            "search_skills", "load_skill", "__skill__alpha", "__skill__beta", "__skill__gamma");
  }

  @Test
  void all_loadedSkills_namesBareWhenUniqueElseQualified() {
    ToolListing listing = new ToolListing(CORE, 100);
    SessionView view = new SessionView();
    view.load(catalog, List.of("alpha", "beta"), true);
    List<String> names = names(listing.all(catalog, view));
    assertThat(names)
        .containsExactly(
            "search_skills",
            "load_skill",
            "render",
            "alpha__shared",
            "alpha__load_skill",
            "beta__shared",
            "__group__more",
            "__skill__gamma");
  }

  @Test
  void all_listsACatalogSchemaThatNeedsNoChange_asTheCatalogsOwnFrozenTree() {
    ToolSpec render =
        ToolSpec.builder(
                "render",
                TestSkills.json(
                    "{\"type\":\"object\",\"properties\":{\"frame\":{\"type\":\"integer\"}}}"))
            .build();
    Catalog plain = TestSkills.catalog(1, TestSkills.named("delta").tool(render).build());
    SessionView view = new SessionView();
    view.load(plain, List.of("delta"), true);
    for (boolean session : List.of(true, false)) {
      ListedTool listed =
          new ToolListing(CORE, 100, session)
              .all(plain, view).stream()
                  .filter(t -> t.name().equals("render"))
                  .findFirst()
                  .orElseThrow();
      // Shared, not copied per tool and generation: a frozen tree cannot be changed through it.
      assertThat(listed.wire().get("inputSchema"))
          .isSameAs(plain.skill("delta").orElseThrow().tool("render").orElseThrow().inputSchema());
    }
  }

  @Test
  void all_groupActivated_replacesStubWithTools() {
    ToolListing listing = new ToolListing(CORE, 100);
    SessionView view = new SessionView();
    view.load(catalog, List.of("beta"), true);
    view.setGroupActive("beta", "more", true);
    assertThat(names(listing.all(catalog, view))).contains("extra").doesNotContain("__group__more");
  }

  @Test
  void all_cachedUntilSessionOrCatalogChanges() {
    ToolListing listing = new ToolListing(CORE, 100);
    SessionView view = new SessionView();
    List<ListedTool> first = listing.all(catalog, view);
    assertThat(listing.all(catalog, view)).isSameAs(first);
    view.load(catalog, List.of("gamma"), true);
    List<ListedTool> second = listing.all(catalog, view);
    assertThat(second).isNotSameAs(first);
    assertThat(names(second)).contains("g1");
    Catalog reloaded =
        TestSkills.catalog(2, TestSkills.named("gamma").tool("g1").tool("g2").build());
    assertThat(names(listing.all(reloaded, view))).contains("g1", "g2");
  }

  @Test
  void all_twoSessions_shareEachEntrysWireWithinACatalogGeneration() {
    ToolListing listing = new ToolListing(CORE, 100);
    SessionView one = new SessionView();
    one.load(catalog, List.of("alpha", "beta"), true);
    SessionView other = new SessionView();
    other.load(catalog, List.of("alpha", "beta"), true);
    SessionView onlyAlpha = new SessionView();
    onlyAlpha.load(catalog, List.of("alpha"), true);

    List<ListedTool> a = listing.all(catalog, one);
    List<ListedTool> b = listing.all(catalog, other);

    assertThat(a).isNotSameAs(b).hasSameSizeAs(b);
    for (int i = 0; i < a.size(); i++) {
      assertThat(b.get(i).wire()).as(a.get(i).name()).isSameAs(a.get(i).wire());
    }
    // The same tool under another listed name is another entry; under the same name, shared.
    ListedTool shared = byName(a, "alpha__shared");
    ListedTool bare = byName(listing.all(catalog, onlyAlpha), "shared");
    assertThat(bare.wire()).isNotSameAs(shared.wire());
    assertThat(bare.wire().get("name").asText()).isEqualTo("shared");
    assertThat(byName(listing.all(catalog, onlyAlpha), "render").wire())
        .isSameAs(byName(a, "render").wire());
  }

  @Test
  void all_newCatalogGeneration_rendersItsOwnEntries() {
    ToolListing listing = new ToolListing(CORE, 100);
    SessionView view = new SessionView();
    view.load(catalog, List.of("gamma"), true);
    ListedTool before = byName(listing.all(catalog, view), "g1");

    Catalog reloaded = TestSkills.catalog(2, TestSkills.named("gamma").tool("g1", null).build());
    SessionView next = new SessionView();
    next.load(reloaded, List.of("gamma"), true);
    ListedTool after = byName(listing.all(reloaded, next), "g1");

    assertThat(after.wire()).isNotSameAs(before.wire());
    assertThat(after.spec()).isSameAs(reloaded.skill("gamma").orElseThrow().tools().get(0));
    assertThat(byName(listing.all(reloaded, next), "search_skills").wire())
        .isSameAs(byName(listing.all(catalog, view), "search_skills").wire());
  }

  private static ListedTool byName(List<ListedTool> tools, String name) {
    return tools.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void all_nameTooLong_isLeftOutAndReported() {
    String longName = "t".repeat(70);
    Catalog c = TestSkills.catalog(1, TestSkills.named("s").tool(longName).tool("ok").build());
    ToolListing listing = new ToolListing(CORE, 100);
    SessionView view = new SessionView();
    view.load(c, List.of("s"), true);
    assertThat(names(listing.all(c, view))).contains("ok").doesNotContain(longName);
    assertThat(listing.unlistable(c, view)).containsExactly("s/" + longName);
  }

  @Test
  void page_followingCursors_visitsEveryEntryOnce() throws Exception {
    List<TestSkills> many = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      many.add(TestSkills.named("skill-" + i).tool("t" + i));
    }
    Catalog c = Catalog.of(1, many.stream().map(TestSkills::build).toList(), List.of());
    ToolListing listing = new ToolListing(CORE, 10);
    SessionView view = new SessionView();
    List<String> seen = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      ToolListing.Page page = listing.page(c, view, cursor);
      seen.addAll(names(page.tools()));
      cursor = page.nextCursor();
      pages++;
    } while (cursor != null);
    assertThat(pages).isEqualTo(3);
    assertThat(seen).hasSize(27).doesNotHaveDuplicates();
  }

  @Test
  void page_malformedCursor_isRejected() {
    ToolListing listing = new ToolListing(CORE, 10);
    assertThatThrownBy(() -> listing.page(catalog, new SessionView(), "not-a-cursor!"))
        .isInstanceOf(InvalidCursorException.class);
    assertThatThrownBy(() -> listing.page(catalog, new SessionView(), "bzo5OTk5"))
        .isInstanceOf(InvalidCursorException.class);
  }

  @Test
  void all_asyncTool_carriesDeferredHintUnlessDeclared() {
    Catalog async =
        TestSkills.catalog(
            1,
            TestSkills.named("jobs")
                .tool(
                    ToolSpec.builder("bake", ToolSpec.defaultInputSchema())
                        .execution(Execution.ASYNC)
                        .build())
                .tool(
                    ToolSpec.builder("quick", ToolSpec.defaultInputSchema())
                        .execution(Execution.ASYNC)
                        .annotations(new ToolAnnotations(null, null, null, null, null, false))
                        .build())
                .tool("plain")
                .build());
    ToolListing listing = new ToolListing(CORE, 100);
    SessionView view = new SessionView();
    view.load(async, List.of("jobs"), true);

    List<ListedTool> tools = listing.all(async, view);

    assertThat(wire(tools, "bake").at("/_meta/dcc/deferred_hint").asBoolean()).isTrue();
    assertThat(wire(tools, "quick").at("/_meta/dcc/deferred_hint").isBoolean()).isTrue();
    assertThat(wire(tools, "quick").at("/_meta/dcc/deferred_hint").asBoolean()).isFalse();
    assertThat(wire(tools, "plain").at("/_meta/dcc").has("deferred_hint")).isFalse();
  }

  private static com.fasterxml.jackson.databind.JsonNode wire(List<ListedTool> tools, String name) {
    return tools.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow().wire();
  }
}

package dev.skillport.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ClientRequestException;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.model.skill.PathArgument;
import dev.skillport.model.skill.PathPlace;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.ToolBinding;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.registry.TestSkills;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.MemoryJobStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A tool's declared path arguments are checked before its script starts: the fixture script leaves
 * a marker file in its skill folder each time it runs, so a refused call is one that left none.
 */
class ArgumentPathsTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  @TempDir Path tmp;

  private Path skillDir;
  private Path outside;
  private Path work;
  private Path assets;
  private Path shared;
  private final JobScheduler jobs = new JobScheduler(new MemoryJobStore(), 1);

  @BeforeEach
  void folders() throws Exception {
    Path base = tmp.toRealPath();
    skillDir = Files.createDirectories(base.resolve("skills/guarded"));
    Files.createDirectories(skillDir.resolve("scripts"));
    Files.writeString(
        skillDir.resolve("scripts/touch.sh"),
        "echo ran >> ran.marker\necho '{\"success\": true, \"message\": \"ran\"}'\n");
    Files.createDirectories(skillDir.resolve("data"));
    Files.writeString(skillDir.resolve("data/a.txt"), "inside");
    outside = Files.createDirectories(base.resolve("outside"));
    Files.writeString(outside.resolve("secret.txt"), "secret");
    work = Files.createDirectories(base.resolve("work"));
    assets = Files.createDirectories(base.resolve("assets"));
    shared = Files.createDirectories(base.resolve("shared"));
    Files.createSymbolicLink(skillDir.resolve("link-out"), outside);
    Files.createSymbolicLink(skillDir.resolve("link-in"), skillDir.resolve("data"));
    Files.createSymbolicLink(skillDir.resolve("dangling"), base.resolve("nowhere"));
  }

  @AfterEach
  void close() {
    jobs.close();
  }

  private Skill skill(List<PathPlace> places) {
    ToolSpec tool =
        ToolSpec.builder("touch", ToolSpec.defaultInputSchema())
            .binding(
                new ToolBinding.Script(
                    skillDir.resolve("scripts/touch.sh"), ToolBinding.ScriptSource.SOURCE_FILE))
            .paths(List.of(new PathArgument("file", places)))
            .build();
    return TestSkills.named("guarded").at(skillDir).tool(tool).build();
  }

  private ToolCalls calls(PathRules rules) throws Exception {
    return new ToolCalls(
        new ToolRunner(
            new ScriptToolRunner(Duration.ofSeconds(20), 1 << 16, 1 << 16),
            HostExecutors.none("no hosts here"),
            (skill, tool, args, ctx) -> {
              throw new AssertionError("no bridges here");
            }),
        CallGuard.of(SkillAccess.OPEN, rules, null),
        jobs,
        new CallStats(16),
        "tasks");
  }

  private CallOutcome call(
      Skill skill, PathRules rules, JsonNode file, ToolContext ctx, CallMeta meta)
      throws Exception {
    ObjectNode args = NODES.objectNode();
    args.set("file", file);
    ToolSpec tool = skill.tools().get(0);
    return calls(rules).call(null, skill, tool, args, ctx, meta);
  }

  private CallOutcome call(Skill skill, PathRules rules, String file) throws Exception {
    return call(skill, rules, NODES.textNode(file), ToolContext.NONE, CallMeta.NONE);
  }

  private boolean ran() {
    return Files.exists(skillDir.resolve("ran.marker"));
  }

  private static String code(CallOutcome outcome) {
    return outcome.ranResult().orElseThrow().structured().path("code").asText();
  }

  private static String text(CallOutcome outcome) {
    return outcome.ranResult().orElseThrow().structured().toString();
  }

  static Stream<Arguments> refusedValues() {
    return Stream.of(
        Arguments.of("parent", "../../outside/secret.txt", "points outside"),
        Arguments.of("parent after a missing folder", "missing/../../../outside", "points outside"),
        Arguments.of("absolute", "/etc/passwd", "points outside"),
        Arguments.of("link out", "link-out/secret.txt", "points outside"),
        Arguments.of("link out, new file", "link-out/new.txt", "points outside"),
        Arguments.of("dangling link", "dangling/x.txt", "link that points nowhere"),
        Arguments.of("tilde", "~", "not expanded"),
        Arguments.of("tilde slash", "~/.ssh/id_rsa", "not expanded"),
        Arguments.of("tilde user", "~root/x", "not expanded"),
        Arguments.of("NUL", "data/a.txt\0../../x", "NUL"),
        Arguments.of("empty", "", "is empty"),
        Arguments.of("overlong", "data/" + "a/".repeat(2100), "longer than 4096"),
        Arguments.of("overlong name", "data/" + "n".repeat(256), "longer than 255 bytes"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusedValues")
  void call_pathOutsideOrMalformed_isRefusedAndTheScriptNeverStarts(
      String label, String value, String why) throws Exception {
    CallOutcome outcome = call(skill(List.of(PathPlace.SKILL)), PathRules.NONE, value);

    assertThat(outcome).isInstanceOf(CallOutcome.Refused.class);
    assertThat(code(outcome)).isEqualTo(ToolFailureCode.PATH_NOT_ALLOWED.name());
    assertThat(text(outcome))
        .contains(why)
        .contains("argument 'file'")
        .contains("'file' may point inside the skill folder " + skillDir);
    assertThat(ran()).as("the script ran").isFalse();
  }

  @Test
  void call_pathsInsideTheSkillFolder_runTheScript() throws Exception {
    Skill skill = skill(List.of(PathPlace.SKILL));
    for (String value :
        List.of(
            "data/a.txt",
            "new/deeper/file.txt",
            skillDir.resolve("data/a.txt").toString(),
            "link-in/a.txt",
            "missing/../data/a.txt",
            "./data")) {
      Files.deleteIfExists(skillDir.resolve("ran.marker"));

      CallOutcome outcome = call(skill, PathRules.NONE, value);

      assertThat(outcome).as(value).isInstanceOf(CallOutcome.Completed.class);
      assertThat(outcome.ranResult().orElseThrow().isError()).as(value).isFalse();
      assertThat(ran()).as(value).isTrue();
    }
  }

  @Test
  void call_listOfPaths_isRefusedWhenOneIsOutsideAndRunWhenAllAreInside() throws Exception {
    Skill skill = skill(List.of(PathPlace.SKILL));
    JsonNode oneOut = NODES.arrayNode().add("data/a.txt").add("../../outside");
    JsonNode notText = NODES.arrayNode().add("data/a.txt").add(3);
    JsonNode allIn = NODES.arrayNode().add("data/a.txt").add("link-in");

    CallOutcome refused = call(skill, PathRules.NONE, oneOut, ToolContext.NONE, CallMeta.NONE);
    CallOutcome wrongType = call(skill, PathRules.NONE, notText, ToolContext.NONE, CallMeta.NONE);
    assertThat(ran()).isFalse();
    CallOutcome ok = call(skill, PathRules.NONE, allIn, ToolContext.NONE, CallMeta.NONE);

    assertThat(code(refused)).isEqualTo("PATH_NOT_ALLOWED");
    assertThat(code(wrongType)).isEqualTo("PATH_NOT_ALLOWED");
    assertThat(text(wrongType)).contains("is not a path");
    assertThat(ok).isInstanceOf(CallOutcome.Completed.class);
    assertThat(ran()).isTrue();
  }

  @Test
  void call_asyncCallWithABadPath_isRefusedAtOnceAndNoJobIsQueued() throws Exception {
    CallMeta async = new CallMeta("s1", true, null, update -> {});

    CallOutcome outcome =
        call(
            skill(List.of(PathPlace.SKILL)),
            PathRules.NONE,
            NODES.textNode("/etc/passwd"),
            ToolContext.NONE,
            async);

    assertThat(outcome).isInstanceOf(CallOutcome.Refused.class);
    assertThat(jobs.recent(10)).isEmpty();
    assertThat(ran()).isFalse();
  }

  @Test
  void call_operatorPlaces_admitWorkdirAndTheNamedAllowedFolderOnly() throws Exception {
    PathRules rules = PathRules.of(work, List.of("assets=" + assets, shared.toString()));
    Skill named =
        skill(List.of(PathPlace.WORKDIR, new PathPlace(PathPlace.Kind.ALLOWED, "assets")));
    Skill any = skill(List.of(PathPlace.ALLOWED));

    CallOutcome inWork = call(named, rules, work.resolve("out.txt").toString());
    CallOutcome inAssets = call(named, rules, assets.resolve("a.png").toString());
    CallOutcome inShared = call(named, rules, shared.resolve("b.png").toString());
    CallOutcome inSkill = call(named, rules, "data/a.txt");
    Files.deleteIfExists(skillDir.resolve("ran.marker"));
    CallOutcome sharedForAny = call(any, rules, shared.resolve("b.png").toString());

    assertThat(inWork).isInstanceOf(CallOutcome.Completed.class);
    assertThat(inAssets).isInstanceOf(CallOutcome.Completed.class);
    assertThat(code(inShared)).isEqualTo("PATH_NOT_ALLOWED");
    assertThat(text(inShared))
        .contains("the server's working directory " + work)
        .contains("the operator's folder 'assets' [" + assets + "]");
    assertThat(code(inSkill)).isEqualTo("PATH_NOT_ALLOWED");
    assertThat(sharedForAny).isInstanceOf(CallOutcome.Completed.class);
    assertThat(ran()).isTrue();
  }

  @Test
  void call_noOperatorFolders_workdirAndAllowedAdmitNothingAndSayHowToAllow() throws Exception {
    Skill skill = skill(List.of(PathPlace.WORKDIR, PathPlace.ALLOWED));

    CallOutcome outcome = call(skill, PathRules.NONE, outside.toString());

    assertThat(code(outcome)).isEqualTo("PATH_NOT_ALLOWED");
    assertThat(text(outcome)).contains("none is configured").contains("--allow-path");
    assertThat(ran()).isFalse();
  }

  /** A 2025-era client that shares {@code roots} and counts how often it is asked. */
  private static ToolContext client(AtomicInteger asked, Path... roots) {
    return new ToolContext() {
      @Override
      public void progress(double progress, Double total, String message) {}

      @Override
      public void log(String level, String message) {}

      @Override
      public boolean isCancelled() {
        return false;
      }

      @Override
      public boolean clientSupports(String name) {
        return name.equals("roots");
      }

      @Override
      public JsonNode request(String method, JsonNode params) throws ClientRequestException {
        asked.incrementAndGet();
        assertThat(method).isEqualTo("roots/list");
        ObjectNode result = NODES.objectNode();
        for (Path root : roots) {
          result.withArray("roots").addObject().put("uri", root.toUri().toString());
        }
        result.withArray("roots").addObject().put("uri", "https://example.com/not-a-folder");
        return result;
      }
    };
  }

  @Test
  void call_roots_admitTheClientsRootsAskedOnceOnlyWhenNeeded() throws Exception {
    Skill skill = skill(List.of(PathPlace.SKILL, PathPlace.ROOTS));
    AtomicInteger asked = new AtomicInteger();
    ToolContext client = client(asked, shared);

    CallOutcome inSkill =
        call(skill, PathRules.NONE, NODES.textNode("data/a.txt"), client, CallMeta.NONE);
    int afterSkill = asked.get();
    CallOutcome inRoot =
        call(
            skill,
            PathRules.NONE,
            NODES.textNode(shared.resolve("new.txt").toString()),
            client,
            CallMeta.NONE);
    Files.deleteIfExists(skillDir.resolve("ran.marker"));
    CallOutcome outsideRoots =
        call(skill, PathRules.NONE, NODES.textNode(outside.toString()), client, CallMeta.NONE);

    assertThat(inSkill).isInstanceOf(CallOutcome.Completed.class);
    assertThat(afterSkill).isZero();
    assertThat(inRoot).isInstanceOf(CallOutcome.Completed.class);
    assertThat(code(outsideRoots)).isEqualTo("PATH_NOT_ALLOWED");
    assertThat(text(outsideRoots)).contains("the client's roots");
    assertThat(asked.get()).isEqualTo(2);
    assertThat(ran()).isFalse();
  }

  @Test
  void call_statelessCall_hasNoRootsAndNeverAsks() throws Exception {
    Skill skill = skill(List.of(PathPlace.ROOTS));
    AtomicInteger asked = new AtomicInteger();
    CallMeta stateless =
        new CallMeta(null, false, null, update -> {}, null, null, true, false, null, null);

    CallOutcome outcome =
        call(
            skill,
            PathRules.NONE,
            NODES.textNode(shared.resolve("new.txt").toString()),
            client(asked, shared),
            stateless);

    assertThat(code(outcome)).isEqualTo("PATH_NOT_ALLOWED");
    assertThat(text(outcome)).contains("a 2026-07-28 call has none");
    assertThat(asked.get()).isZero();
    assertThat(ran()).isFalse();
  }

  @Test
  void call_argumentAbsentOrNull_isNotChecked() throws Exception {
    Skill skill = skill(List.of(PathPlace.SKILL));

    CallOutcome outcome =
        calls(PathRules.NONE)
            .call(
                null,
                skill,
                skill.tools().get(0),
                NODES.objectNode().putNull("file"),
                ToolContext.NONE,
                CallMeta.NONE);

    assertThat(outcome).isInstanceOf(CallOutcome.Completed.class);
    assertThat(ran()).isTrue();
  }
}

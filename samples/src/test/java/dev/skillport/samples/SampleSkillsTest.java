package dev.skillport.samples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.Execution;
import dev.skillport.model.skill.GroupSpec;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolBinding;
import dev.skillport.model.skill.ToolSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SampleSkillsTest {
  static final Path SAMPLES = Path.of(System.getProperty("skillport.samples", "skills"));
  static final Path CONFORMANCE =
      Path.of(System.getProperty("skillport.conformance", "conformance"));

  private static LoadResult load(boolean strict) {
    return load(strict, SAMPLES);
  }

  private static LoadResult load(boolean strict, Path root) {
    return new SkillLoader(LoaderOptions.DEFAULTS.withStrict(strict))
        .load(List.of(SkillRoot.of(root, Scope.REPO)));
  }

  private static Skill skill(LoadResult result, String name) {
    return result.skill(name).orElseThrow(() -> new AssertionError("no skill " + name));
  }

  private static List<String> toolNames(Skill skill) {
    return skill.tools().stream().map(ToolSpec::name).toList();
  }

  @ParameterizedTest(name = "strict={0}")
  @ValueSource(booleans = {false, true})
  void load_samples_noDiagnosticsAndEverySkillAvailable(boolean strict) {
    LoadResult result = load(strict);

    assertThat(result.diagnostics()).isEmpty();
    assertThat(result.skills())
        .extracting(Skill::name)
        .containsExactly("file-stats", "image-report", "image-tools");
    assertThat(result.skills())
        .allSatisfy(s -> assertThat(s.state()).isEqualTo(SkillState.AVAILABLE));
    assertThat(result.skills()).allSatisfy(s -> assertThat(s.scope()).isEqualTo(Scope.REPO));
  }

  @ParameterizedTest(name = "strict={0}")
  @ValueSource(booleans = {false, true})
  void load_scriptOnlySkill_oneToolPerScriptNamedByStem(boolean strict) {
    Skill fileStats = skill(load(strict), "file-stats");

    assertThat(toolNames(fileStats)).containsExactlyInAnyOrder("count_lines", "dir_summary");
    assertThat(fileStats.tools())
        .allSatisfy(
            t ->
                assertThat(t.binding())
                    .isInstanceOfSatisfying(
                        ToolBinding.Script.class,
                        s ->
                            assertThat(s.source())
                                .isEqualTo(ToolBinding.ScriptSource.SCRIPT_ONLY)));
  }

  @ParameterizedTest(name = "strict={0}")
  @ValueSource(booleans = {false, true})
  void load_imageTools_toolsGroupsPromptsAndBindings(boolean strict) {
    Skill images = skill(load(strict), "image-tools");

    assertThat(toolNames(images)).containsExactly("image_info", "thumbnail_plan", "png_chunks");
    ToolSpec info = images.tool("image_info").orElseThrow();
    assertThat(info.binding())
        .isInstanceOfSatisfying(
            ToolBinding.Script.class,
            s -> assertThat(s.source()).isEqualTo(ToolBinding.ScriptSource.STEM));
    assertThat(info.annotations().readOnlyHint()).isTrue();
    assertThat(info.nextTools().onSuccess()).containsExactly("image_tools__thumbnail_plan");
    assertThat(info.inputSchema().path("required").get(0).asText()).isEqualTo("path");
    assertThat(images.tool("thumbnail_plan").orElseThrow().binding())
        .isInstanceOfSatisfying(
            ToolBinding.Script.class,
            s -> {
              assertThat(s.source()).isEqualTo(ToolBinding.ScriptSource.SOURCE_FILE);
              assertThat(s.script().getFileName()).hasToString("plan_thumbnail.py");
            });
    assertThat(images.groups())
        .extracting(GroupSpec::name, GroupSpec::defaultActive)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("planning", true),
            org.assertj.core.groups.Tuple.tuple("forensics", false));
    assertThat(images.groups().stream().filter(g -> g.name().equals("forensics")).findFirst())
        .hasValueSatisfying(g -> assertThat(g.tools()).containsExactly("png_chunks"));
    assertThat(images.prompts()).hasSize(1);
    assertThat(images.prompts().get(0).name()).isEqualTo("describe_image");
  }

  @ParameterizedTest(name = "strict={0}")
  @ValueSource(booleans = {false, true})
  void load_imageReport_dependsWorkflowAndResources(boolean strict) {
    Skill report = skill(load(strict), "image-report");

    assertThat(report.manifest().extensions().depends())
        .containsExactly("image-tools", "file-stats");
    assertThat(toolNames(report)).containsExactly("scan_images", "write_report");
    assertThat(report.workflows()).hasSize(1);
    assertThat(report.workflows().get(0).name()).isEqualTo("folder_report");
    assertThat(report.workflows().get(0).steps()).hasSize(2);
    assertThat(report.resources()).hasSize(1);
    assertThat(report.resources().get(0).uri())
        .isEqualTo("skill://image-report/assets/report-template.md");
  }

  @ParameterizedTest(name = "strict={0}")
  @ValueSource(booleans = {false, true})
  void load_conformanceFixture_handlerBoundToolsPromptsAndResources(boolean strict) {
    Skill fixture = skill(load(strict, CONFORMANCE), "mcp-conformance");

    assertThat(fixture.tools()).hasSize(35);
    assertThat(fixture.tools())
        .allSatisfy(
            t ->
                assertThat(t.binding())
                    .isInstanceOfSatisfying(
                        ToolBinding.Handler.class,
                        h -> assertThat(h.handlerId()).isEqualTo("mcp-conformance." + t.name())));
    JsonNode schema = fixture.tool("json_schema_2020_12_tool").orElseThrow().inputSchema();
    assertThat(schema.path("$schema").asText())
        .isEqualTo("https://json-schema.org/draft/2020-12/schema");
    assertThat(schema.at("/properties/address/$ref").asText()).isEqualTo("#/$defs/address");
    assertThat(schema.path("additionalProperties").asBoolean(true)).isFalse();
    assertThat(schema.at("/$defs/address/$anchor").asText()).isEqualTo("addressDef");
    assertThat(schema.has("allOf") && schema.has("if") && schema.has("then") && schema.has("else"))
        .isTrue();
    assertThat(fixture.tool("failing_job").orElseThrow().execution()).isEqualTo(Execution.TASK);
    assertThat(fixture.tool("slow_compute").orElseThrow().execution()).isEqualTo(Execution.ASYNC);
    assertThat(fixture.prompts())
        .extracting(p -> p.name())
        .containsExactly(
            "test_input_required_result_prompt",
            "test_simple_prompt",
            "test_prompt_with_arguments",
            "test_prompt_with_embedded_resource",
            "test_prompt_with_image");
    assertThat(fixture.resources())
        .extracting(r -> r.uri())
        .containsExactly("test://static-text", "test://static-binary", "test://watched-resource");
  }

  @ParameterizedTest(name = "strict={0}")
  @ValueSource(booleans = {false, true})
  void load_everyScriptBinding_pointsAtAnExecutableFileInTheSkill(boolean strict) {
    LoadResult result = load(strict);

    assertThat(result.skills())
        .flatExtracting(Skill::tools)
        .filteredOn(t -> !(t.binding() instanceof ToolBinding.Handler))
        .allSatisfy(
            t ->
                assertThat(t.binding())
                    .isInstanceOfSatisfying(
                        ToolBinding.Script.class,
                        s -> {
                          assertThat(s.script()).isRegularFile();
                          assertThat(Files.isExecutable(s.script()))
                              .as(s.script().toString())
                              .isTrue();
                        }));
  }
}

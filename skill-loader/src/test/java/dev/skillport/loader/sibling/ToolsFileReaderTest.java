package dev.skillport.loader.sibling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.diagnostic.Severity;
import dev.skillport.model.skill.Execution;
import dev.skillport.model.skill.ThreadAffinity;
import dev.skillport.model.skill.ToolAnnotations;
import dev.skillport.model.skill.ToolSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ToolsFileReaderTest {
  @TempDir Path tmp;

  private SkillFolder skillWithTools(String yaml) {
    SkillFolder skill = SkillFolder.in(tmp).file("tools.yaml", yaml);
    skill.tools = "tools.yaml";
    return skill;
  }

  private static List<String> names(SkillContents contents) {
    return contents.tools().stream().map(ToolSpec::name).toList();
  }

  @Test
  void read_oneInvalidEntry_isDroppedAloneAndTheRestLoads() {
    SkillFolder skill =
        skillWithTools(
            """
            tools:
              - name: first
              - name: broken
                timeout_hint_secs: soon
              - name: third
            """);

    SkillContents contents = skill.read();

    assertThat(names(contents)).containsExactly("first", "third");
    assertThat(skill.with(DiagnosticCode.TOOL_ENTRY_INVALID))
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.severity()).isEqualTo(Severity.WARNING);
              assertThat(d.line()).isEqualTo(4);
              assertThat(d.message()).contains("timeout_hint_secs");
              assertThat(d.file()).isEqualTo(skill.dir.resolve("tools.yaml"));
            });
    assertThat(skill.diagnostics.hasErrors()).isFalse();
  }

  @Test
  void read_strictMode_turnsDroppedEntryIntoError() {
    SkillFolder skill = skillWithTools("tools:\n  - name: ok\n  - {name: bad, execution: later}\n");
    SiblingContext ctx = skill.context();
    dev.skillport.loader.report.DiagnosticCollector strict =
        new dev.skillport.loader.report.DiagnosticCollector(true, "demo-skill");
    SiblingContext strictCtx =
        new SiblingContext(
            ctx.skillDir(), ctx.skillName(), "Demo.", ctx.extensions(), ctx.limits(), strict);

    SiblingFiles.read(strictCtx, HostEnvironment.of(java.util.Map.of()));

    assertThat(strict.hasErrors()).isTrue();
  }

  @Test
  void read_bareStringEntry_getsDefaultsFromTheSkill() {
    SkillFolder skill = skillWithTools("tools:\n  - export_scene\n");

    ToolSpec tool = skill.read().tools().get(0);

    assertThat(tool.name()).isEqualTo("export_scene");
    assertThat(tool.description()).isEqualTo("[demo-skill] Demo skill.");
    assertThat(tool.inputSchema()).isEqualTo(ToolSpec.defaultInputSchema());
    assertThat(tool.execution()).isEqualTo(Execution.SYNC);
    assertThat(tool.affinity()).isEqualTo(ThreadAffinity.ANY);
  }

  @Test
  void read_camelCaseInputSchema_isUsedWithAliasNotice() {
    SkillFolder skill =
        skillWithTools(
            """
            tools:
              - name: t
                inputSchema: {type: object, properties: {path: {type: string}}}
                outputSchema: {type: object}
            """);

    ToolSpec tool = skill.read().tools().get(0);

    assertThat(tool.inputSchema().at("/properties/path/type").asText()).isEqualTo("string");
    assertThat(tool.outputSchema().get("type").asText()).isEqualTo("object");
    assertThat(skill.with(DiagnosticCode.TOOL_KEY_ALIAS))
        .hasSize(2)
        .allSatisfy(d -> assertThat(d.severity()).isEqualTo(Severity.NOTICE));
  }

  @Test
  void read_nestedAnnotations_winWholeOverFlatHints() {
    SkillFolder skill =
        skillWithTools(
            """
            tools:
              - name: nested
                read_only_hint: true
                destructive_hint: true
                annotations:
                  title: Nested
                  readOnlyHint: false
                  open-world-hint: true
              - name: flat
                read_only_hint: true
                idempotent-hint: true
            """);

    List<ToolSpec> tools = skill.read().tools();

    assertThat(tools.get(0).annotations())
        .isEqualTo(new ToolAnnotations("Nested", false, null, null, true, null));
    assertThat(tools.get(1).annotations())
        .isEqualTo(new ToolAnnotations(null, true, null, true, null, null));
  }

  @Test
  void read_unknownExecution_dropsEntryWithItsCode() {
    SkillFolder skill =
        skillWithTools(
            "tools:\n  - {name: a, execution: later}\n  - {name: b, execution: async}\n");

    SkillContents contents = skill.read();

    assertThat(names(contents)).containsExactly("b");
    assertThat(contents.tools().get(0).execution()).isEqualTo(Execution.ASYNC);
    assertThat(skill.with(DiagnosticCode.TOOL_EXECUTION_INVALID)).hasSize(1);
  }

  @Test
  void read_deferredKey_dropsEntryWithAsyncHint() {
    SkillFolder skill = skillWithTools("tools:\n  - {name: a, deferred: true}\n  - b\n");

    SkillContents contents = skill.read();

    assertThat(names(contents)).containsExactly("b");
    assertThat(skill.with(DiagnosticCode.TOOL_DEFERRED))
        .singleElement()
        .satisfies(d -> assertThat(d.hint()).contains("execution: async"));
  }

  @Test
  void read_affinityAliases_acceptedAndUnknownDropped() {
    SkillFolder skill =
        skillWithTools(
            """
            tools:
              - {name: a, thread-affinity: main}
              - {name: b, thread_affinity: any}
              - {name: c, affinity: MAIN}
              - {name: d, affinity: gpu}
            """);

    List<ToolSpec> tools = skill.read().tools();

    assertThat(tools)
        .extracting(ToolSpec::affinity)
        .containsExactly(ThreadAffinity.MAIN, ThreadAffinity.ANY, ThreadAffinity.MAIN);
    assertThat(skill.with(DiagnosticCode.TOOL_AFFINITY_INVALID)).hasSize(1);
  }

  @Test
  void read_inputSchemaBreakingMetaSchema_dropsEntry() {
    SkillFolder skill =
        skillWithTools(
            """
            tools:
              - name: bad_type
                input_schema: {type: objekt}
              - name: bad_nested
                input_schema: {type: object, properties: {a: {minLength: -1}}}
              - name: not_mapping
                input_schema: true
              - name: good
                input_schema: {type: object, $ref: "https://example.invalid/never-fetched"}
            """);

    SkillContents contents = skill.read();

    assertThat(names(contents)).containsExactly("good");
    assertThat(skill.with(DiagnosticCode.TOOL_SCHEMA_INVALID))
        .extracting(d -> d.line())
        .containsExactly(3, 5, 7);
  }

  @Test
  void read_duplicateName_dropsTheLaterEntry() {
    SkillFolder skill =
        skillWithTools(
            "tools:\n  - {name: a, description: one}\n  - {name: a, description: two}\n");

    SkillContents contents = skill.read();

    assertThat(contents.tools())
        .singleElement()
        .satisfies(t -> assertThat(t.description()).isEqualTo("one"));
    assertThat(skill.with(DiagnosticCode.TOOL_DUPLICATE_NAME).get(0).line()).isEqualTo(3);
  }

  @Test
  void read_unusableNames_areDropped() {
    SkillFolder skill =
        skillWithTools(
            "tools:\n  - {name: ''}\n  - {name: 'has space'}\n  - {name: '-lead'}\n  - {name: "
                + "x".repeat(65)
                + "}\n  - {name: ok.v2-x_y}\n");

    SkillContents contents = skill.read();

    assertThat(names(contents)).containsExactly("ok.v2-x_y");
    assertThat(skill.with(DiagnosticCode.TOOL_NAME_INVALID)).hasSize(4);
  }

  @Test
  void read_allDocumentedKeys_areMapped() {
    SkillFolder skill =
        skillWithTools(
            """
            tools:
              - name: full
                description: Does it all.
                next-tools: {on_success: [demo-skill__other], on-failure: diag__explain}
                timeout-hint-secs: 30
                required_capabilities: [sampling]
                search_aliases: "export, save"
                risk: low
                call_examples: [{args: {}}]
                shiny: yes
            """);

    ToolSpec tool = skill.read().tools().get(0);

    assertThat(tool.description()).isEqualTo("Does it all.");
    assertThat(tool.nextTools().onSuccess()).containsExactly("demo-skill__other");
    assertThat(tool.nextTools().onFailure()).containsExactly("diag__explain");
    assertThat(tool.timeoutHintSecs()).isEqualTo(30);
    assertThat(tool.requiredCapabilities()).containsExactly("sampling");
    assertThat(tool.searchAliases()).containsExactly("export", "save");
    assertThat(tool.extras()).containsEntry("risk", "low").containsKey("call_examples");
    assertThat(skill.with(DiagnosticCode.TOOL_KEY_UNKNOWN))
        .singleElement()
        .satisfies(d -> assertThat(d.message()).contains("shiny"));
  }

  @Test
  void read_fileWithWrongShape_isSchemaErrorWithPosition() {
    SkillFolder skill = skillWithTools("# header\ntools:\n  name: not-a-list\n");

    SkillContents contents = skill.read();

    assertThat(contents.tools()).isEmpty();
    assertThat(skill.with(DiagnosticCode.SIBLING_SCHEMA))
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.severity()).isEqualTo(Severity.ERROR);
              // Positions of mapping values are those of their keys.
              assertThat(d.line()).isEqualTo(2);
              assertThat(d.column()).isEqualTo(1);
            });
  }

  @Test
  void read_entryOfWrongType_isDroppedAlone() {
    SkillFolder skill = skillWithTools("tools:\n  - 42\n  - ok\n");

    assertThat(names(skill.read())).containsExactly("ok");
    assertThat(skill.with(DiagnosticCode.TOOL_ENTRY_INVALID)).hasSize(1);
  }

  @Test
  void read_upstreamToolKeys_becomeAnnotationsAndAffinityWithoutNotices() {
    SkillFolder skill =
        skillWithTools(
            """
            tools:
              - name: inspect
                read_only: true
                idempotent: true
                destructive: false
              - name: bake
                destructive: true
                enforce_thread_affinity: true
              - name: nested_wins
                read_only: true
                annotations: {read_only_hint: false}
            """);

    List<ToolSpec> tools = skill.read().tools();

    assertThat(skill.codes()).doesNotContain(DiagnosticCode.TOOL_KEY_UNKNOWN);
    assertThat(tools.get(0).annotations())
        .isEqualTo(new ToolAnnotations(null, true, false, true, null, null));
    assertThat(tools.get(0).affinity()).isEqualTo(ThreadAffinity.ANY);
    assertThat(tools.get(1).annotations().destructiveHint()).isTrue();
    assertThat(tools.get(1).affinity()).isEqualTo(ThreadAffinity.MAIN);
    assertThat(tools.get(2).annotations().readOnlyHint()).isFalse();
  }

  @Test
  void read_inputSchemaOfAString_warnsWithItsLineAndServesAnObject() {
    SkillFolder skill =
        skillWithTools(
            """
            tools:
              - name: echo
                input_schema:
                  type: string
            """);

    ToolSpec tool = skill.read().tools().get(0);

    assertThat(tool.inputSchema()).isEqualTo(ToolSpec.defaultInputSchema());
    assertThat(skill.with(DiagnosticCode.TOOL_SCHEMA_NOT_OBJECT))
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.severity()).isEqualTo(Severity.WARNING);
              assertThat(d.line()).isEqualTo(4);
              assertThat(d.message()).contains("input_schema").contains("'string'");
            });
  }

  @Test
  void read_outputSchemaOfAString_isKeptAndWrapped_falseIsDropped() {
    SkillFolder skill =
        skillWithTools(
            """
            tools:
              - name: greet
                output_schema: {type: string}
              - name: never
                output_schema: false
              - name: listed
                output_schema: {type: [object, "null"], properties: {n: {type: integer}}}
            """);

    List<ToolSpec> tools = skill.read().tools();

    assertThat(tools.get(0).outputSchema().get("type").asText()).isEqualTo("string");
    assertThat(tools.get(0).wrapsOutput()).isTrue();
    assertThat(tools.get(1).outputSchema()).isNull();
    assertThat(tools.get(2).wrapsOutput()).isFalse();
    assertThat(skill.with(DiagnosticCode.TOOL_SCHEMA_NOT_OBJECT))
        .extracting(d -> d.line())
        .containsExactly(3, 5);
  }
}

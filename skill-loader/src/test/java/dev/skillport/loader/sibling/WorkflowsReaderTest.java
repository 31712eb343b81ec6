package dev.skillport.loader.sibling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.RetryPolicy;
import dev.skillport.model.skill.WorkflowSpec;
import dev.skillport.model.skill.WorkflowStep;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WorkflowsReaderTest {
  @TempDir Path tmp;

  private static final String TOOLS = "tools: [list_files, convert]\n";

  private static final String GOOD =
      """
      name: convert-all
      description: Converts every file.
      inputs: {folder: {description: Where, required: true}}
      steps:
        - id: list
          kind: tool
          tool: list_files
          args: {path: "{{inputs.folder}}"}
          timeout_secs: 10
          retry: {max_attempts: 3, backoff: exponential, initial_delay_ms: 100, max_delay_ms: 2000, jitter: true}
          idempotency_key: "list-{{inputs.folder}}"
        - id: each
          kind: foreach
          items: $.steps.list.output.files[*]
          as: file
          steps:
            - id: conv
              kind: tool
              tool: convert
              args: {src: "{{file.path}}", n: "{{item}}"}
        - id: both
          kind: parallel
          steps:
            - {id: p1, kind: tool, tool: demo-skill__convert}
            - {id: p2, kind: tool, tool: other-skill__anything}
        - id: check
          kind: branch
          on: "{{steps.list.output.count}}"
          then: [{id: ok, kind: approve, prompt: "Proceed with {{inputs.folder}}?"}]
          else: []
      """;

  private SkillFolder skill(String... workflows) {
    SkillFolder skill = SkillFolder.in(tmp).file("tools.yaml", TOOLS);
    skill.tools = "tools.yaml";
    for (int i = 0; i < workflows.length; i++) {
      skill.file("workflows/w" + i + ".workflow.yaml", workflows[i]);
    }
    skill.workflows = List.of("workflows/*.workflow.yaml");
    return skill;
  }

  private static List<String> nonBindingCodes(SkillFolder skill) {
    return skill.codes().stream()
        .filter(c -> c != DiagnosticCode.TOOL_UNBOUND)
        .map(Enum::name)
        .toList();
  }

  @Test
  void read_validWorkflow_isFullyMapped() {
    SkillFolder skill = skill(GOOD);

    List<WorkflowSpec> workflows = skill.read().workflows();

    assertThat(nonBindingCodes(skill)).isEmpty();
    WorkflowSpec wf = workflows.get(0);
    assertThat(wf.name()).isEqualTo("convert-all");
    assertThat(wf.inputs().has("folder")).isTrue();
    assertThat(wf.steps())
        .extracting(WorkflowStep::kind)
        .containsExactly("tool", "foreach", "parallel", "branch");
    WorkflowStep.Tool list = (WorkflowStep.Tool) wf.steps().get(0);
    assertThat(list.policy().timeoutSecs()).isEqualTo(10);
    assertThat(list.policy().retry())
        .isEqualTo(new RetryPolicy(3, RetryPolicy.Backoff.EXPONENTIAL, 100, 2000, true));
    assertThat(list.policy().idempotencyKey()).isEqualTo("list-{{inputs.folder}}");
    WorkflowStep.Foreach each = (WorkflowStep.Foreach) wf.steps().get(1);
    assertThat(each.as()).isEqualTo("file");
    assertThat(each.steps()).hasSize(1);
    WorkflowStep.Branch branch = (WorkflowStep.Branch) wf.steps().get(3);
    assertThat(branch.then()).singleElement().isInstanceOf(WorkflowStep.Approve.class);
    assertThat(wf.source()).isEqualTo(skill.dir.resolve("workflows/w0.workflow.yaml"));
  }

  @Test
  void read_unknownStepKind_dropsWorkflowOnly() {
    SkillFolder skill = skill(GOOD, "name: bad\nsteps:\n  - {id: a, kind: teleport}\n");

    List<WorkflowSpec> workflows = skill.read().workflows();

    assertThat(workflows).extracting(WorkflowSpec::name).containsExactly("convert-all");
    assertThat(skill.with(DiagnosticCode.WORKFLOW_STEP_KIND_UNKNOWN))
        .singleElement()
        .satisfies(d -> assertThat(d.line()).isEqualTo(3));
  }

  @Test
  void read_duplicateStepIdInNestedStep_dropsWorkflow() {
    SkillFolder skill =
        skill(
            """
            name: dup
            steps:
              - id: a
                kind: parallel
                steps:
                  - {id: a, kind: tool, tool: convert}
            """);

    assertThat(skill.read().workflows()).isEmpty();
    assertThat(skill.with(DiagnosticCode.WORKFLOW_STEP_DUPLICATE_ID)).hasSize(1);
  }

  @Test
  void read_badJsonPath_dropsWorkflow() {
    SkillFolder skill =
        skill(
            """
            name: path
            steps:
              - id: a
                kind: foreach
                items: $.files[?(@.size > 1)]
                steps: [{id: b, kind: tool, tool: convert}]
            """);

    assertThat(skill.read().workflows()).isEmpty();
    assertThat(skill.with(DiagnosticCode.WORKFLOW_JSONPATH_INVALID)).hasSize(1);
  }

  @Test
  void read_unknownTemplateRoot_dropsWorkflow_butForeachNameIsScoped() {
    SkillFolder skill =
        skill(
            """
            name: roots
            steps:
              - id: a
                kind: foreach
                items: "{{inputs.files}}"
                as: f
                steps: [{id: b, kind: tool, tool: convert, args: {x: "{{f}}"}}]
              - {id: c, kind: tool, tool: convert, args: {x: "{{f}}", y: "{{env.HOME}}"}}
            """);

    assertThat(skill.read().workflows()).isEmpty();
    assertThat(skill.with(DiagnosticCode.WORKFLOW_TEMPLATE_ROOT_UNKNOWN))
        .extracting(d -> d.message())
        .hasSize(2)
        .anySatisfy(m -> assertThat(m).contains("'f'"))
        .anySatisfy(m -> assertThat(m).contains("'env'"));
  }

  @Test
  void read_unknownTool_dropsWorkflow_butOtherSkillsToolsPass() {
    SkillFolder skill =
        skill(
            """
            name: tools
            steps:
              - {id: a, kind: tool, tool: other__x}
              - {id: b, kind: tool, tool: demo-skill__nope}
              - {id: c, kind: tool, tool: nope}
            """);

    assertThat(skill.read().workflows()).isEmpty();
    assertThat(skill.with(DiagnosticCode.WORKFLOW_TOOL_UNKNOWN))
        .extracting(d -> d.line())
        .containsExactly(4, 5);
  }

  @Test
  void read_workflowMissingRequiredFields_isWorkflowInvalid() {
    SkillFolder skill =
        skill(
            "name: x\nsteps:\n  - {id: a, kind: tool}\n",
            "description: no name\nsteps: []\n",
            "name: y\nsteps:\n  - {id: a, kind: approve, timeout_secs: 99999999999}\n");

    assertThat(skill.read().workflows()).isEmpty();
    assertThat(skill.with(DiagnosticCode.WORKFLOW_INVALID)).hasSize(3);
    assertThat(skill.diagnostics.hasErrors()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "$",
        "$.a",
        "$.a.b-c[0]",
        "$..name",
        "$..*",
        "$.*",
        "$['a b']",
        "$[\"x\", 'y']",
        "$[-1]",
        "$[ * ]",
        "{{inputs.files}}",
        "{{ steps.list.output.items[0] }}",
        "{{item}}"
      })
  void validItems_acceptedForms_areAccepted(String path) {
    assertThat(WorkflowExpressions.validItems(path)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "a.b",
        "$.",
        "$a",
        "$[",
        "$[1:2]",
        "$[?(@.x)]",
        "$['']",
        "$.a..",
        "{{inputs..x}}",
        "{{a}} and {{b}}",
        "{{}}",
        "$.0abc"
      })
  void validItems_otherForms_areRejected(String path) {
    assertThat(WorkflowExpressions.validItems(path)).isFalse();
  }
}

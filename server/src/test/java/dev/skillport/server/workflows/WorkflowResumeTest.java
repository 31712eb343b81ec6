package dev.skillport.server.workflows;

import static dev.skillport.server.workflows.WorkflowHarness.step;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.runtime.UnknownToolException;
import dev.skillport.workflows.MemoryWorkflowStore;
import dev.skillport.workflows.MvStoreWorkflowStore;
import dev.skillport.workflows.WorkflowStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code workflows_resume} after a restart, {@code workflow_id} beside {@code run_id}, and {@code
 * workflows_list} / {@code workflows_describe}.
 */
class WorkflowResumeTest {
  private static final String STAGED =
      """
      name: staged
      description: Prepares, waits on a blocking step, then finishes with what it prepared
      inputs: {shot: {default: sh010}}
      steps:
        - {id: prep, kind: tool, tool: echo, args: {v: "{{inputs.shot}}"}}
        - id: export
          kind: tool
          tool: count
          idempotency_key: "export-{{inputs.shot}}"
        - {id: b, kind: tool, tool: block}
        - {id: after, kind: tool, tool: typed, args: {n: "{{steps.export.output.n}}", shot: "{{steps.prep.output.v}}"}}
      """;
  private static final String DOOMED =
      """
      name: doomed
      steps:
        - {id: first, kind: tool, tool: count}
        - {id: f, kind: tool, tool: flaky, args: {fail_times: 1}}
      """;
  private static final String NESTED =
      """
      name: nested
      description: Every kind of step
      inputs: {type: object, properties: {xs: {type: array}}}
      steps:
        - id: each
          kind: foreach
          items: "{{inputs.xs}}"
          as: x
          steps:
            - {id: one, kind: tool, tool: echo, args: {x: "{{x}}"}, timeout_secs: 5}
        - id: both
          kind: parallel
          steps:
            - id: l
              kind: tool
              tool: flaky
              retry: {max_attempts: 3, backoff: exponential, initial_delay_ms: 10, max_delay_ms: 100, jitter: true}
            - {id: r, kind: tool, tool: echo, args: {ok: true}, idempotency_key: "r-{{inputs.xs}}"}
        - id: pick
          kind: branch
          on: "{{steps.both.output.r.ok}}"
          then:
            - {id: yes, kind: approve, prompt: "Go?"}
          else:
            - {id: no, kind: tool, tool: echo}
      """;

  @TempDir Path root;
  private WorkflowHarness h;

  @AfterEach
  void stop() {
    if (h != null) {
      h.close();
    }
  }

  private void harness(WorkflowStore store) throws Exception {
    h = new WorkflowHarness(root.resolve("skills"), store, STAGED, DOOMED, NESTED);
    h.load("flow");
  }

  private JsonNode call(String tool, String args) throws Exception {
    return h.call(tool, args);
  }

  @Test
  void resume_afterARestart_runsOnlyUnfinishedStepsAndReusesRecordedOutputs() throws Exception {
    Path state = root.resolve("state");
    harness(MvStoreWorkflowStore.open(state));
    String id = h.start("staged", "{}");
    assertThat(h.blockStarted.await(10, TimeUnit.SECONDS)).isTrue();
    h.tools.close();
    h.restart(MvStoreWorkflowStore.open(state));
    JsonNode interrupted = h.status(id);
    assertThat(interrupted.path("status").asText()).isEqualTo("interrupted");
    assertThat(interrupted.path("terminal").asBoolean()).isTrue();
    h.release.countDown();

    JsonNode resumed =
        call("workflows_resume", "{\"workflow_id\":\"" + id + "\"}").path("structuredContent");

    assertThat(resumed.path("workflow_id").asText()).isEqualTo(id);
    assertThat(resumed.path("run_id").asText()).isEqualTo(id);
    assertThat(resumed.path("resumed").asBoolean()).isTrue();
    assertThat(resumed.path("status").asText()).isEqualTo("pending");
    assertThat(resumed.path("preloaded_steps"))
        .extracting(JsonNode::asText)
        .containsExactlyInAnyOrder("prep", "export");
    JsonNode done = h.awaitStatus(id, "completed");
    assertThat(h.calls("echo")).as("a completed step is not run again").isEqualTo(1);
    assertThat(h.calls("count")).as("the idempotent step ran once").isEqualTo(1);
    assertThat(h.calls("block")).as("the interrupted step runs again").isEqualTo(2);
    assertThat(done.path("output").path("n").asInt()).isEqualTo(1);
    assertThat(done.path("output").path("shot").asText()).isEqualTo("sh010");
    assertThat(done.path("resumes").asInt()).isEqualTo(1);
    assertThat(step(done, "b").path("attempts").asInt()).isEqualTo(2);
    assertThat(done.path("spec_hash").asText()).isEqualTo(resumed.path("spec_hash").asText());
    assertThat(done.has("spec")).as("the stored spec is not part of the status").isFalse();
  }

  @Test
  void resume_aFailedRun_runsTheFailedStepAgain() throws Exception {
    harness(new MemoryWorkflowStore());
    String id = h.start("doomed", "{}");
    h.awaitStatus(id, "failed");

    call("workflows_resume", "{\"run_id\":\"" + id + "\"}");

    JsonNode done = h.awaitStatus(id, "completed");
    assertThat(h.calls("count")).isEqualTo(1);
    assertThat(h.calls("flaky")).isEqualTo(2);
    assertThat(step(done, "f").path("status").asText()).isEqualTo("completed");
    assertThat(done.path("error").isNull()).isTrue();
  }

  @Test
  void resume_refusesRunsInProgressCancelledOrCompleted_andForceStepsRunsACompletedStepAgain()
      throws Exception {
    harness(new MemoryWorkflowStore());
    String running = h.start("staged", "{}");
    assertThat(h.blockStarted.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(code(call("workflows_resume", "{\"run_id\":\"" + running + "\"}")))
        .isEqualTo("RUN_NOT_RESUMABLE");
    call("workflows_cancel", "{\"workflow_id\":\"" + running + "\"}");
    h.awaitStatus(running, "cancelled");
    assertThat(code(call("workflows_resume", "{\"run_id\":\"" + running + "\"}")))
        .isEqualTo("RUN_NOT_RESUMABLE");
    String doomed = h.start("doomed", "{}");
    h.awaitStatus(doomed, "failed");
    call("workflows_resume", "{\"run_id\":\"" + doomed + "\"}");
    h.awaitStatus(doomed, "completed");
    assertThat(code(call("workflows_resume", "{\"run_id\":\"" + doomed + "\"}")))
        .isEqualTo("RUN_NOT_RESUMABLE");
    assertThat(
            code(
                call(
                    "workflows_resume",
                    "{\"run_id\":\"" + doomed + "\",\"force_steps\":[\"nope\"]}")))
        .isEqualTo("INVALID_ARGUMENTS");
    assertThat(code(call("workflows_resume", "{\"run_id\":\"no-such-run\"}")))
        .isEqualTo("RUN_NOT_FOUND");
    int before = h.calls("count");

    JsonNode forced =
        call("workflows_resume", "{\"run_id\":\"" + doomed + "\",\"force_steps\":[\"first\"]}");

    assertThat(forced.path("structuredContent").path("force_steps"))
        .extracting(JsonNode::asText)
        .containsExactly("first");
    h.awaitStatus(doomed, "completed");
    assertThat(h.calls("count")).isEqualTo(before + 1);
    assertThat(h.calls("flaky")).as("the step not forced is not run again").isEqualTo(2);
  }

  @Test
  void resume_withAnotherSpecHash_strictRefuses_otherwiseRunsTheStoredSpec() throws Exception {
    harness(new MemoryWorkflowStore());
    String id = h.start("doomed", "{}");
    JsonNode failed = h.awaitStatus(id, "failed");
    String hash = failed.path("spec_hash").asText();
    assertThat(hash).hasSize(64);

    JsonNode strict =
        call(
            "workflows_resume",
            "{\"run_id\":\"" + id + "\",\"expected_spec_hash\":\"00\",\"strict\":true}");
    assertThat(code(strict)).isEqualTo("SPEC_CHANGED");
    assertThat(h.status(id).path("status").asText()).isEqualTo("failed");

    JsonNode lenient =
        call("workflows_resume", "{\"run_id\":\"" + id + "\",\"expected_spec_hash\":\"00\"}");
    assertThat(lenient.path("isError").asBoolean()).as(lenient.toString()).isFalse();
    assertThat(h.awaitStatus(id, "completed").path("spec_hash").asText()).isEqualTo(hash);
  }

  @Test
  void resume_ofNestedSteps_keepsCompletedChildrenAndRunsTheRest() throws Exception {
    MemoryWorkflowStore store = new MemoryWorkflowStore();
    harness(store);
    String id = h.start("nested", "{\"xs\":[1,2]}");
    JsonNode waiting = h.awaitStatus(id, "awaiting_approval");
    assertThat(step(waiting, "l").path("attempts").asInt()).isEqualTo(1);
    h.tools.close();
    h.restart(store);
    assertThat(h.status(id).path("status").asText()).isEqualTo("interrupted");
    int echoes = h.calls("echo");

    JsonNode resumed = call("workflows_resume", "{\"run_id\":\"" + id + "\"}");

    assertThat(resumed.at("/structuredContent/preloaded_steps"))
        .extracting(JsonNode::asText)
        .containsExactlyInAnyOrder("each", "both");
    h.awaitStatus(id, "awaiting_approval");
    call("workflows_approve", "{\"workflow_id\":\"" + id + "\",\"approved\":true}");
    JsonNode done = h.awaitStatus(id, "completed");
    assertThat(h.calls("echo")).isEqualTo(echoes);
    assertThat(step(done, "no").path("status").asText()).isEqualTo("skipped");
    assertThat(step(done, "one").path("status").asText()).isEqualTo("completed");
  }

  @Test
  void workflowId_isAcceptedAndAnsweredBesideRunId() throws Exception {
    harness(new MemoryWorkflowStore());
    JsonNode started =
        call("workflows_run", "{\"skill\":\"flow\",\"name\":\"doomed\"}").path("structuredContent");
    String id = started.path("run_id").asText();
    assertThat(started.path("workflow_id").asText()).isEqualTo(id);
    h.awaitStatus(id, "failed");

    JsonNode status =
        call("workflows_get_status", "{\"workflow_id\":\"" + id + "\"}").path("structuredContent");
    JsonNode cancel =
        call("workflows_cancel", "{\"workflow_id\":\"" + id + "\"}").path("structuredContent");

    assertThat(status.path("workflow_id").asText()).isEqualTo(id);
    assertThat(status.path("run_id").asText()).isEqualTo(id);
    assertThat(status.path("terminal").asBoolean()).isTrue();
    assertThat(cancel.path("workflow_id").asText()).isEqualTo(id);
    assertThat(cancel.path("cancelled").asBoolean()).isFalse();
    assertThat(code(call("workflows_get_status", "{}"))).isEqualTo("RUN_NOT_FOUND");
    List<String> updateIds = new ArrayList<>();
    h.client.updates.forEach(u -> updateIds.add(u.path("workflow_id").asText()));
    assertThat(updateIds).isNotEmpty().containsOnly(id);
  }

  @Test
  void listAndDescribe_showTheLoadedSkillsWorkflowsInUpstreamsShape() throws Exception {
    harness(new MemoryWorkflowStore());

    JsonNode list = call("workflows_list", "{}").path("structuredContent");
    JsonNode described =
        call("workflows_describe", "{\"name\":\"staged\"}").path("structuredContent");
    JsonNode missing = call("workflows_describe", "{\"name\":\"nope\"}");

    assertThat(list.path("success").asBoolean()).isTrue();
    assertThat(list.at("/context/count").asInt()).isEqualTo(3);
    assertThat(list.at("/context/workflows"))
        .extracting(w -> w.path("name").asText())
        .containsExactlyInAnyOrder("staged", "doomed", "nested");
    JsonNode context = described.path("context");
    assertThat(context.path("goal").asText()).startsWith("Prepares");
    assertThat(context.path("skill").asText()).isEqualTo("flow");
    assertThat(context.path("task_count").asInt()).isEqualTo(4);
    assertThat(context.at("/tasks/1/name").asText()).isEqualTo("export");
    assertThat(context.at("/tasks/1/kind").asText()).isEqualTo("tool");
    assertThat(context.at("/tasks/1/tool").asText()).isEqualTo("count");
    assertThat(context.at("/inputs/shot/default").asText()).isEqualTo("sh010");
    assertThat(context.path("steps").size()).isEqualTo(4);
    assertThat(code(missing)).isEqualTo("WORKFLOW_NOT_FOUND");
    assertThat(missing.at("/structuredContent/details/available"))
        .extracting(JsonNode::asText)
        .contains("flow/staged");
    call("unload_skill", "{\"skill_name\":\"flow\"}");
    call("load_skill", "{\"skill_name\":\"plain\"}");
    assertThatThrownBy(() -> call("workflows_list", "{}"))
        .as("without a loaded skill with workflows the tools are not there")
        .isInstanceOf(UnknownToolException.class);
  }

  private static String code(JsonNode result) {
    assertThat(result.path("isError").asBoolean()).as(result.toString()).isTrue();
    return result.path("structuredContent").path("code").asText();
  }
}

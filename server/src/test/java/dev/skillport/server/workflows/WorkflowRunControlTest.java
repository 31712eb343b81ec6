package dev.skillport.server.workflows;

import static dev.skillport.server.workflows.WorkflowHarness.step;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.runtime.UnknownToolException;
import dev.skillport.workflows.MemoryWorkflowStore;
import dev.skillport.workflows.MvStoreWorkflowStore;
import dev.skillport.workflows.WorkflowStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cancelling, approving, idempotent re-runs across restarts, listing and lookup. */
class WorkflowRunControlTest {
  private static final String BLOCKING =
      """
      name: blocking
      steps:
        - {id: b, kind: tool, tool: block}
        - {id: after, kind: tool, tool: count}
      """;
  private static final String GATED =
      """
      name: gated
      inputs: {target: {default: prod}}
      steps:
        - {id: ok, kind: approve, prompt: "Deploy to {{inputs.target}}?"}
        - {id: deploy, kind: tool, tool: count}
      """;

  @TempDir Path root;
  private WorkflowHarness h;

  @AfterEach
  void stop() {
    if (h != null) {
      h.close();
    }
  }

  private WorkflowHarness harness(WorkflowStore store, String... workflows) throws Exception {
    h = new WorkflowHarness(root.resolve("skills"), store, workflows);
    h.load("flow");
    return h;
  }

  @Test
  void cancel_midRun_interruptsTheBlockingToolAndLaterStepsNeverRun() throws Exception {
    harness(new MemoryWorkflowStore(), BLOCKING);
    String id = h.start("blocking", "{}");
    assertThat(h.blockStarted.await(10, TimeUnit.SECONDS)).isTrue();

    JsonNode result = h.call("workflows_cancel", "{\"run_id\":\"" + id + "\"}");

    assertThat(result.path("structuredContent").path("cancelled").asBoolean()).isTrue();
    JsonNode cancelled = h.awaitStatus(id, "cancelled");
    await().atMost(Duration.ofSeconds(5)).untilTrue(h.blockInterrupted);
    assertThat(step(cancelled, "b").path("status").asText()).isEqualTo("cancelled");
    assertThat(step(cancelled, "after").path("status").asText()).isEqualTo("pending");
    Thread.sleep(200);
    assertThat(h.calls("count")).isZero();
    assertThat(h.status(id).path("status").asText()).isEqualTo("cancelled");
  }

  @Test
  void failedAndCancelledRuns_withTheFileStore_leaveTheStoreUsable() throws Exception {
    Path storeDir = root.resolve("state");
    harness(
        MvStoreWorkflowStore.open(storeDir),
        BLOCKING,
        "name: quick\nsteps:\n  - {id: q, kind: tool, tool: echo}\n",
        "name: doomed\nsteps:\n  - {id: d, kind: tool, tool: flaky, args: {fail_times: 99}}\n");
    String blocked = h.start("blocking", "{}");
    assertThat(h.blockStarted.await(10, TimeUnit.SECONDS)).isTrue();
    h.call("workflows_cancel", "{\"run_id\":\"" + blocked + "\"}");
    h.awaitStatus(blocked, "cancelled");
    String doomed = h.start("doomed", "{}");
    h.awaitStatus(doomed, "failed");

    String later = h.start("quick", "{}");
    h.awaitStatus(later, "completed");
    h.tools.close();
    h.restart(MvStoreWorkflowStore.open(storeDir));

    assertThat(h.status(blocked).path("status").asText()).isEqualTo("cancelled");
    assertThat(h.status(doomed).path("status").asText()).isEqualTo("failed");
    assertThat(h.status(later).path("status").asText()).isEqualTo("completed");
  }

  @Test
  void cancel_duringAScript_killsItsProcess() throws Exception {
    harness(
        new MemoryWorkflowStore(),
        """
        name: scripted
        steps:
          - {id: s, kind: tool, tool: sleepy}
          - {id: after, kind: tool, tool: count}
        """);
    Path pidFile = h.skillDir.resolve("scripts/sleepy.sh.pid");
    String id = h.start("scripted", "{}");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> Files.exists(pidFile) && Files.size(pidFile) > 0);
    long pid = Long.parseLong(Files.readString(pidFile).strip());
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);

    h.call("workflows_cancel", "{\"run_id\":\"" + id + "\"}");

    h.awaitStatus(id, "cancelled");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) == false);
    assertThat(h.calls("count")).isZero();
  }

  @Test
  void approve_clientWithElicitation_isAskedAndItsAcceptContinuesTheRun() throws Exception {
    harness(new MemoryWorkflowStore(), GATED);
    h.client.elicitation = true;
    h.client.answer =
        p ->
            WorkflowHarness.JSON
                .createObjectNode()
                .put("action", "accept")
                .set("content", WorkflowHarness.JSON.createObjectNode().put("approved", true));

    String id = h.start("gated", "{}");

    JsonNode done = h.awaitStatus(id, "completed");
    assertThat(h.client.requests).hasSize(1);
    JsonNode ask = h.client.requests.get(0);
    assertThat(ask.path("method").asText()).isEqualTo("elicitation/create");
    assertThat(ask.path("params").path("message").asText()).isEqualTo("Deploy to prod?");
    assertThat(step(done, "ok").path("output").path("via").asText()).isEqualTo("elicitation");
    assertThat(h.calls("count")).isEqualTo(1);
    await().atMost(Duration.ofSeconds(5)).until(() -> h.client.statuses(id).contains("completed"));
    assertThat(h.client.statuses(id)).contains("running", "awaiting_approval", "completed");
  }

  @Test
  void approve_elicitationDeclined_failsTheRunAndSkipsLaterSteps() throws Exception {
    harness(new MemoryWorkflowStore(), GATED);
    h.client.elicitation = true;
    h.client.answer = p -> WorkflowHarness.JSON.createObjectNode().put("action", "decline");

    String id = h.start("gated", "{}");

    JsonNode failed = h.awaitStatus(id, "failed");
    assertThat(failed.path("error").asText()).contains("step 'ok' failed: approval was declined");
    assertThat(h.calls("count")).isZero();
  }

  @Test
  void approve_clientWithoutElicitation_waitsForTheExplicitCall() throws Exception {
    harness(new MemoryWorkflowStore(), GATED);

    String id = h.start("gated", "{\"target\":\"staging\"}");

    JsonNode waiting = h.awaitStatus(id, "awaiting_approval");
    assertThat(step(waiting, "ok").path("status").asText()).isEqualTo("awaiting_approval");
    assertThat(h.calls("count")).isZero();
    JsonNode answer =
        h.call(
            "workflows_approve",
            "{\"run_id\":\"" + id + "\",\"approved\":true,\"comment\":\"go\"}");
    assertThat(answer.path("structuredContent").path("step_id").asText()).isEqualTo("ok");
    JsonNode done = h.awaitStatus(id, "completed");
    assertThat(step(done, "ok").path("output").path("comment").asText()).isEqualTo("go");
    assertThat(h.calls("count")).isEqualTo(1);
    assertThat(h.client.requests).isEmpty();
  }

  @Test
  void approve_explicitDecline_failsTheRunWithTheComment() throws Exception {
    harness(new MemoryWorkflowStore(), GATED);
    String id = h.start("gated", "{}");
    h.awaitStatus(id, "awaiting_approval");

    h.call(
        "workflows_approve",
        "{\"run_id\":\""
            + id
            + "\",\"step_id\":\"ok\",\"approved\":false,\"comment\":\"not today\"}");

    JsonNode failed = h.awaitStatus(id, "failed");
    assertThat(failed.path("error").asText()).contains("approval was declined: not today");
    assertThat(h.calls("count")).isZero();
  }

  @Test
  void cancel_whileAwaitingApproval_endsTheRunAndTheApprovalIsGone() throws Exception {
    harness(new MemoryWorkflowStore(), GATED);
    String id = h.start("gated", "{}");
    h.awaitStatus(id, "awaiting_approval");

    h.call("workflows_cancel", "{\"run_id\":\"" + id + "\"}");

    JsonNode cancelled = h.awaitStatus(id, "cancelled");
    assertThat(step(cancelled, "ok").path("status").asText()).isEqualTo("cancelled");
    JsonNode late = h.call("workflows_approve", "{\"run_id\":\"" + id + "\",\"approved\":true}");
    assertThat(late.path("structuredContent").path("code").asText())
        .isEqualTo("NO_PENDING_APPROVAL");
    assertThat(h.calls("count")).isZero();
  }

  @Test
  void approve_runNotWaiting_isAnError() throws Exception {
    harness(new MemoryWorkflowStore(), BLOCKING);
    String id = h.start("blocking", "{}");
    assertThat(h.blockStarted.await(10, TimeUnit.SECONDS)).isTrue();

    JsonNode answer = h.call("workflows_approve", "{\"run_id\":\"" + id + "\",\"approved\":true}");

    assertThat(answer.path("isError").asBoolean()).isTrue();
    assertThat(answer.path("structuredContent").path("code").asText())
        .isEqualTo("NO_PENDING_APPROVAL");
  }

  @Test
  void idempotencyKey_reRunAfterReopeningTheStore_reusesTheOutputWithoutCallingTheTool()
      throws Exception {
    Path storeDir = root.resolve("state");
    String keyed =
        """
        name: keyed
        steps:
          - {id: c, kind: tool, tool: count, idempotency_key: "count-{{inputs.batch}}"}
          - {id: e, kind: tool, tool: echo, args: {n: "{{steps.c.output.n}}"}}
        """;
    harness(MvStoreWorkflowStore.open(storeDir), keyed);
    String first = h.start("keyed", "{\"batch\":7}");
    h.awaitStatus(first, "completed");
    assertThat(h.calls("count")).isEqualTo(1);
    h.tools.close();

    h.restart(MvStoreWorkflowStore.open(storeDir));
    String again = h.start("keyed", "{\"batch\":7}");
    JsonNode second = h.awaitStatus(again, "completed");
    String otherBatch = h.start("keyed", "{\"batch\":8}");
    h.awaitStatus(otherBatch, "completed");

    assertThat(h.calls("count")).isEqualTo(2);
    assertThat(step(second, "c").path("reused").asBoolean()).isTrue();
    assertThat(step(second, "c").path("output").path("n").asInt()).isEqualTo(1);
    assertThat(step(second, "e").path("output").path("n").asInt()).isEqualTo(1);
    assertThat(h.status(first).path("status").asText()).isEqualTo("completed");
  }

  @Test
  void runKey_sameKeyAfterReopeningTheStore_returnsTheCompletedRunInsteadOfStartingAnother()
      throws Exception {
    Path storeDir = root.resolve("state");
    String once =
        """
        name: once
        steps:
          - {id: c, kind: tool, tool: count}
          - {id: f, kind: tool, tool: flaky, args: {fail_times: "{{inputs.fail}}"}}
        """;
    harness(MvStoreWorkflowStore.open(storeDir), once);
    String args = "{\"name\":\"once\",\"idempotency_key\":\"nightly-{{inputs.day}}\",";
    JsonNode first =
        h.call("workflows_run", args + "\"inputs\":{\"day\":1,\"fail\":0}}")
            .path("structuredContent");
    h.awaitStatus(first.path("run_id").asText(), "completed");
    h.tools.close();
    h.restart(MvStoreWorkflowStore.open(storeDir));

    JsonNode again =
        h.call("workflows_run", args + "\"inputs\":{\"day\":1,\"fail\":0}}")
            .path("structuredContent");

    assertThat(again.path("run_id").asText()).isEqualTo(first.path("run_id").asText());
    assertThat(again.path("status").asText()).isEqualTo("completed");
    assertThat(again.path("reused").asBoolean()).isTrue();
    assertThat(h.calls("count")).isEqualTo(1);
    JsonNode failing =
        h.call("workflows_run", args + "\"inputs\":{\"day\":2,\"fail\":99}}")
            .path("structuredContent");
    h.awaitStatus(failing.path("run_id").asText(), "failed");
    JsonNode retried =
        h.call("workflows_run", args + "\"inputs\":{\"day\":2,\"fail\":0}}")
            .path("structuredContent");
    assertThat(retried.path("run_id").asText()).isNotEqualTo(failing.path("run_id").asText());
    assertThat(retried.path("reused").asBoolean()).isFalse();
    h.awaitStatus(retried.path("run_id").asText(), "completed");
    assertThat(h.calls("count")).isEqualTo(3);
  }

  @Test
  void restart_runInFlight_readsInterruptedFromTheStore() throws Exception {
    Path storeDir = root.resolve("state");
    MvStoreWorkflowStore store = MvStoreWorkflowStore.open(storeDir);
    harness(store, BLOCKING);
    String id = h.start("blocking", "{}");
    assertThat(h.blockStarted.await(10, TimeUnit.SECONDS)).isTrue();
    // The process dies: the store is closed under the running run, nothing marks it.
    store.close();
    WorkflowTools crashed = h.tools;

    h.restart(MvStoreWorkflowStore.open(storeDir));
    JsonNode after = h.status(id);

    assertThat(after.path("status").asText()).isEqualTo("interrupted");
    assertThat(step(after, "b").path("status").asText()).isEqualTo("interrupted");
    assertThat(after.path("error").asText()).contains("stopped while the run was running");
    h.release.countDown();
    crashed.close();
  }

  @Test
  void listing_workflowToolsAppearOnlyWhileASkillWithWorkflowsIsLoaded() throws Exception {
    h = new WorkflowHarness(root.resolve("skills"), new MemoryWorkflowStore(), BLOCKING);

    assertThat(toolNames()).doesNotContain("workflows_run");
    assertThatThrownBy(() -> h.call("workflows_lookup", "{}"))
        .isInstanceOf(UnknownToolException.class);
    h.load("plain");
    assertThat(toolNames()).doesNotContain("workflows_run");
    h.load("flow");
    assertThat(toolNames())
        .contains(
            "workflows_run",
            "workflows_get_status",
            "workflows_cancel",
            "workflows_lookup",
            "workflows_approve");
    assertThat(h.sessionNotifications).contains("notifications/tools/list_changed");
    h.call("unload_skill", "{\"skill_name\":\"flow\"}");
    assertThat(toolNames()).doesNotContain("workflows_run");
  }

  @Test
  void lookup_listsWorkflowsOfLoadedSkillsWithInputsAndSteps() throws Exception {
    harness(new MemoryWorkflowStore(), BLOCKING, GATED);

    JsonNode all = h.call("workflows_lookup", "{}").path("structuredContent");
    JsonNode filtered = h.call("workflows_lookup", "{\"query\":\"gat\"}").path("structuredContent");

    assertThat(all.path("total").asInt()).isEqualTo(2);
    assertThat(filtered.path("workflows")).hasSize(1);
    JsonNode gated = filtered.path("workflows").get(0);
    assertThat(gated.path("skill").asText()).isEqualTo("flow");
    assertThat(gated.path("inputs").path("target").path("default").asText()).isEqualTo("prod");
    assertThat(gated.path("steps").findValuesAsText("id")).containsExactly("ok", "deploy");
    assertThat(gated.path("steps").findValuesAsText("kind")).containsExactly("approve", "tool");
  }

  private java.util.List<String> toolNames() throws Exception {
    return Optional.of(h.service.listTools(h.session, null))
        .map(r -> r.path("tools").findValuesAsText("name"))
        .orElseThrow();
  }
}

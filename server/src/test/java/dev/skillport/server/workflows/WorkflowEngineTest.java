package dev.skillport.server.workflows;

import static dev.skillport.server.workflows.WorkflowHarness.step;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.runtime.CallGuard;
import dev.skillport.workflows.MemoryWorkflowStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each step kind, templating and retries, run through workflows_run on a real service. */
class WorkflowEngineTest {
  @TempDir Path root;
  private WorkflowHarness h;

  @AfterEach
  void stop() {
    if (h != null) {
      h.close();
    }
  }

  private WorkflowHarness harness(String... workflows) throws Exception {
    h = new WorkflowHarness(root, new MemoryWorkflowStore(), workflows);
    h.load("flow");
    return h;
  }

  @Test
  void toolStep_templatedArgs_callsTheToolAndRecordsItsOutput() throws Exception {
    harness(
        """
        name: one
        inputs: {who: {required: true}}
        steps:
          - {id: greet, kind: tool, tool: echo, args: {text: "hello {{inputs.who}}"}}
        """);

    String id = h.start("one", "{\"who\":\"ada\"}");

    JsonNode done = h.awaitStatus(id, "completed");
    assertThat(h.calls("echo")).isEqualTo(1);
    assertThat(step(done, "greet").path("output").path("text").asText()).isEqualTo("hello ada");
    assertThat(step(done, "greet").path("attempts").asInt()).isEqualTo(1);
    assertThat(done.path("output").path("text").asText()).isEqualTo("hello ada");
  }

  @Test
  void template_wholeStringKeepsTypeEmbeddedRendersText() throws Exception {
    harness(
        """
        name: types
        steps:
          - id: e
            kind: tool
            tool: echo
            args: {n: "{{inputs.n}}", obj: "{{ inputs.o }}", text: "n={{inputs.n}} o={{inputs.o}}", first: "{{inputs.o.list[0]}}"}
        """);

    String id = h.start("types", "{\"n\":3,\"o\":{\"list\":[true]}}");

    JsonNode out = step(h.awaitStatus(id, "completed"), "e").path("output");
    assertThat(out.path("n").isInt()).isTrue();
    assertThat(out.path("n").asInt()).isEqualTo(3);
    assertThat(out.path("obj").isObject()).isTrue();
    assertThat(out.path("first").isBoolean()).isTrue();
    assertThat(out.path("text").asText()).isEqualTo("n=3 o={\"list\":[true]}");
  }

  @Test
  void template_unknownReference_failsTheStepClearlyWithoutCallingTheTool() throws Exception {
    harness(
        """
        name: bad-ref
        steps:
          - {id: e, kind: tool, tool: echo, args: {x: "{{inputs.missing}}"}}
        """);

    String id = h.start("bad-ref", "{}");

    JsonNode failed = h.awaitStatus(id, "failed");
    assertThat(failed.path("error").asText())
        .contains("step 'e' failed")
        .contains("inputs has no field 'missing'");
    assertThat(step(failed, "e").path("status").asText()).isEqualTo("failed");
    assertThat(h.calls("echo")).isZero();
  }

  @Test
  void toolStep_argumentsFailTheInputSchema_failsWithTheValidationMessage() throws Exception {
    harness(
        """
        name: invalid
        steps:
          - {id: t, kind: tool, tool: typed, args: {n: "not a number"}}
        """);

    String id = h.start("invalid", "{}");

    JsonNode failed = h.awaitStatus(id, "failed");
    assertThat(failed.path("error").asText()).contains("INVALID_ARGUMENTS");
    assertThat(h.calls("typed")).isZero();
  }

  @Test
  void foreach_jsonPathOverStepOutput_runsBodyPerItemAndCollectsOutputs() throws Exception {
    harness(
        """
        name: each
        steps:
          - {id: list, kind: tool, tool: list}
          - id: loop
            kind: foreach
            items: $.steps.list.output.files[*]
            as: file
            steps:
              - {id: conv, kind: tool, tool: echo, args: {src: "{{file.path}}", same: "{{item.path}}"}}
        """);

    String id = h.start("each", "{}");

    JsonNode done = h.awaitStatus(id, "completed");
    JsonNode out = step(done, "loop").path("output");
    assertThat(out).hasSize(2);
    assertThat(out.get(0).path("src").asText()).isEqualTo("a.obj");
    assertThat(out.get(1).path("same").asText()).isEqualTo("b.obj");
    assertThat(h.calls("echo")).isEqualTo(2);
    assertThat(step(done, "conv").path("attempts").asInt()).isEqualTo(2);
  }

  @Test
  void foreach_templateItemsWithSeveralBodySteps_collectsAnObjectPerItem() throws Exception {
    harness(
        """
        name: names
        steps:
          - id: loop
            kind: foreach
            items: "{{inputs.names}}"
            steps:
              - {id: a, kind: tool, tool: echo, args: {v: "{{item}}"}}
              - {id: b, kind: tool, tool: echo, args: {w: "{{steps.a.output.v}}!"}}
        """);

    String id = h.start("names", "{\"names\":[\"x\",\"y\",\"z\"]}");

    JsonNode out = step(h.awaitStatus(id, "completed"), "loop").path("output");
    assertThat(out).hasSize(3);
    assertThat(out.get(2).path("a").path("v").asText()).isEqualTo("z");
    assertThat(out.get(2).path("b").path("w").asText()).isEqualTo("z!");
  }

  @Test
  void foreach_itemsNotAList_failsNamingTheExpression() throws Exception {
    harness(
        """
        name: notlist
        steps:
          - {id: loop, kind: foreach, items: $.inputs.one, steps: [{id: a, kind: tool, tool: echo}]}
        """);

    String id = h.start("notlist", "{\"one\":\"text\"}");

    assertThat(h.awaitStatus(id, "failed").path("error").asText())
        .contains("items '$.inputs.one' must select a list");
  }

  @Test
  void parallel_runsStepsConcurrentlyAndReturnsAllOutputs() throws Exception {
    harness(
        """
        name: par
        steps:
          - id: both
            kind: parallel
            steps:
              - {id: p1, kind: tool, tool: echo, args: {v: 1}}
              - {id: p2, kind: tool, tool: echo, args: {v: 2}}
          - {id: after, kind: tool, tool: echo, args: {sum: "{{steps.both.output.p1.v}}+{{steps.p2.output.v}}"}}
        """);

    String id = h.start("par", "{}");

    JsonNode done = h.awaitStatus(id, "completed");
    assertThat(step(done, "both").path("output").path("p1").path("v").asInt()).isEqualTo(1);
    assertThat(step(done, "both").path("output").path("p2").path("v").asInt()).isEqualTo(2);
    assertThat(step(done, "after").path("output").path("sum").asText()).isEqualTo("1+2");
  }

  @Test
  void parallel_oneChildFails_othersFinishAndTheStepFailsNamingIt() throws Exception {
    harness(
        """
        name: par-fail
        steps:
          - id: both
            kind: parallel
            steps:
              - {id: ok, kind: tool, tool: echo}
              - {id: bad, kind: tool, tool: flaky, args: {fail_times: 5}}
          - {id: never, kind: tool, tool: count}
        """);

    String id = h.start("par-fail", "{}");

    JsonNode failed = h.awaitStatus(id, "failed");
    assertThat(failed.path("error").asText()).contains("step 'both' failed").contains("'bad'");
    assertThat(step(failed, "ok").path("status").asText()).isEqualTo("completed");
    assertThat(step(failed, "never").path("status").asText()).isEqualTo("pending");
    assertThat(h.calls("count")).isZero();
  }

  @Test
  void branch_condition_runsThenOrElseAndSkipsTheOther() throws Exception {
    harness(
        """
        name: br
        steps:
          - id: choose
            kind: branch
            on: "{{inputs.go}}"
            then: [{id: yes, kind: tool, tool: echo, args: {v: yes}}]
            else: [{id: no, kind: tool, tool: count}]
        """);

    String taken = h.start("br", "{\"go\":true}");
    String notTaken = h.start("br", "{\"go\":\"false\"}");

    JsonNode first = h.awaitStatus(taken, "completed");
    assertThat(step(first, "choose").path("output").path("branch").asText()).isEqualTo("then");
    assertThat(step(first, "no").path("status").asText()).isEqualTo("skipped");
    JsonNode second = h.awaitStatus(notTaken, "completed");
    assertThat(step(second, "choose").path("output").path("branch").asText()).isEqualTo("else");
    assertThat(step(second, "yes").path("status").asText()).isEqualTo("skipped");
    assertThat(h.calls("count")).isEqualTo(1);
  }

  @Test
  void retry_exponentialWithCap_waitsTheComputedDelaysOnTheInjectedClock() throws Exception {
    harness(
        """
        name: retry
        steps:
          - id: f
            kind: tool
            tool: flaky
            args: {fail_times: 3}
            retry: {max_attempts: 4, backoff: exponential, initial_delay_ms: 100, max_delay_ms: 300}
        """);

    String id = h.start("retry", "{}");

    JsonNode done = h.awaitStatus(id, "completed");
    assertThat(h.time.sleeps)
        .containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(300));
    JsonNode f = step(done, "f");
    assertThat(f.path("attempts").asInt()).isEqualTo(4);
    assertThat(f.path("output").path("attempt").asInt()).isEqualTo(4);
    JsonNode log = f.path("attempt_log");
    Instant first = Instant.parse(log.get(0).path("started_at").asText());
    assertThat(Instant.parse(log.get(3).path("started_at").asText()))
        .isEqualTo(first.plusMillis(600));
    assertThat(log.get(1).path("retry_delay_ms").asLong()).isEqualTo(200);
    assertThat(log.get(0).path("error").asText()).contains("flaky failure 1");
  }

  @Test
  void retry_attemptsExhausted_failsWithTheLastError() throws Exception {
    harness(
        """
        name: give-up
        steps:
          - id: f
            kind: tool
            tool: flaky
            args: {fail_times: 9}
            retry: {max_attempts: 3, backoff: linear, initial_delay_ms: 50}
        """);

    String id = h.start("give-up", "{}");

    JsonNode failed = h.awaitStatus(id, "failed");
    assertThat(h.calls("flaky")).isEqualTo(3);
    assertThat(h.time.sleeps).containsExactly(Duration.ofMillis(50), Duration.ofMillis(100));
    assertThat(failed.path("error").asText()).contains("flaky failure 3");
    assertThat(step(failed, "f").path("attempts").asInt()).isEqualTo(3);
  }

  @Test
  void timeout_blockingStep_isInterruptedAndFails() throws Exception {
    harness(
        """
        name: slow
        steps:
          - {id: b, kind: tool, tool: block, timeout_secs: 1}
          - {id: after, kind: tool, tool: count}
        """);

    String id = h.start("slow", "{}");

    JsonNode failed = h.awaitStatus(id, "failed");
    assertThat(failed.path("error").asText()).contains("timed out after 1 s");
    assertThat(h.blockInterrupted).isTrue();
    assertThat(h.calls("count")).isZero();
  }

  @Test
  void inlineSpec_runsWithToolNamesResolvedLikeToolsCall() throws Exception {
    harness("name: unused\nsteps:\n  - {id: a, kind: tool, tool: echo}\n");

    JsonNode result =
        h.call(
            "workflows_run",
            """
            {"spec":{"name":"adhoc","steps":[
              {"id":"a","kind":"tool","tool":"flow__echo","args":{"v":"{{inputs.v}}"}}]},
             "inputs":{"v":7}}""");

    String id = result.path("structuredContent").path("run_id").asText();
    assertThat(step(h.awaitStatus(id, "completed"), "a").path("output").path("v").asInt())
        .isEqualTo(7);
  }

  @Test
  void inlineSpec_duplicateIds_isRejectedAtOnce() throws Exception {
    harness("name: unused\nsteps:\n  - {id: a, kind: tool, tool: echo}\n");

    JsonNode result =
        h.call(
            "workflows_run",
            """
            {"spec":{"steps":[{"id":"a","kind":"tool","tool":"echo"},
              {"id":"a","kind":"approve"}]}}""");

    assertThat(result.path("isError").asBoolean()).isTrue();
    assertThat(result.path("structuredContent").path("message").asText())
        .contains("step id 'a' is used twice");
  }

  @Test
  void run_missingRequiredInput_isRejectedBeforeStarting() throws Exception {
    harness(
        """
        name: needs
        inputs: {type: object, properties: {x: {type: string}}, required: [x]}
        steps:
          - {id: a, kind: tool, tool: echo}
        """);

    JsonNode result = h.call("workflows_run", "{\"name\":\"needs\"}");

    assertThat(result.path("isError").asBoolean()).isTrue();
    assertThat(result.path("structuredContent").path("message").asText()).contains("x");
    assertThat(h.calls("echo")).isZero();
  }

  @Test
  void run_notifiesTheStartingSessionOfEveryChange() throws Exception {
    harness(
        """
        name: notify
        steps:
          - {id: a, kind: tool, tool: echo}
          - {id: b, kind: tool, tool: echo}
        """);

    String id = h.start("notify", "{}");

    h.awaitStatus(id, "completed");
    await().atMost(Duration.ofSeconds(5)).until(() -> h.client.statuses(id).contains("completed"));
    assertThat(h.client.statuses(id)).containsExactly("pending", "running", "completed");
    JsonNode last = h.client.updates.get(h.client.updates.size() - 1);
    assertThat(last.path("workflow").asText()).isEqualTo("notify");
    assertThat(last.path("current_step").asText()).isEqualTo("b");
    assertThat(last.path("steps").get(1).path("status").asText()).isEqualTo("completed");
    assertThat(h.client.updates.stream().map(u -> u.path("current_step").asText()))
        .contains("a", "b");
  }

  @Test
  void toolStep_asyncTool_waitsForItsJobAndTakesTheJobResult() throws Exception {
    harness(
        """
        name: async
        steps:
          - {id: j, kind: tool, tool: later, args: {v: 5}}
          - {id: e, kind: tool, tool: echo, args: {got: "{{steps.j.output.v}}"}}
        """);

    String id = h.start("async", "{}");

    JsonNode done = h.awaitStatus(id, "completed");
    assertThat(step(done, "j").path("output").path("v").asInt()).isEqualTo(5);
    assertThat(step(done, "e").path("output").path("got").asInt()).isEqualTo(5);
    assertThat(h.calls("later")).isEqualTo(1);
  }

  @Test
  void toolStep_unknownTool_failsTheRunWithActionNotFound() throws Exception {
    harness(
        """
        name: ghost
        steps:
          - {id: g, kind: tool, tool: "{{inputs.name}}"}
        """);

    String id = h.start("ghost", "{\"name\":\"nope\"}");

    assertThat(h.awaitStatus(id, "failed").path("error").asText())
        .contains("ACTION_NOT_FOUND")
        .contains("flow__nope");
  }

  @Test
  void branch_comparisonCondition_isEvaluatedNotJustRenderedAsText() throws Exception {
    harness(
        """
        name: cmp
        steps:
          - {id: list, kind: tool, tool: list}
          - id: enough
            kind: branch
            on: "{{steps.list.output.count}} >= {{inputs.min}}"
            then: [{id: yes, kind: tool, tool: echo}]
            else: [{id: no, kind: tool, tool: count}]
        """);

    String few = h.start("cmp", "{\"min\":3}");
    JsonNode first = h.awaitStatus(few, "completed");

    assertThat(step(first, "enough").path("output").path("branch").asText()).isEqualTo("else");
    assertThat(step(first, "yes").path("status").asText()).isEqualTo("skipped");
    assertThat(h.calls("count")).isEqualTo(1);
  }

  @Test
  void toolStep_guardDeniesTheSkillAndAuditsTheCall_theStepFailsWithSkillDenied() throws Exception {
    harness(
        """
        name: guarded
        steps:
          - {id: e, kind: tool, tool: echo}
        """);
    Path audit = root.resolve("audit.log");
    h.tools.close();
    h.restart(new MemoryWorkflowStore(), CallGuard.of(Set.of("flow"), audit));

    String id = h.start("guarded", "{}");

    assertThat(h.awaitStatus(id, "failed").path("error").asText()).contains("SKILL_DENIED");
    assertThat(h.calls("echo")).isZero();
    assertThat(Files.readString(audit))
        .contains("\"tool\":\"flow__echo\"")
        .contains("SKILL_DENIED");
  }
}

package dev.skillport.workflows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.model.skill.WorkflowSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The stored spec's round trip, its hash, and what a stored run resumes. */
class ResumePlanTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SPEC =
      """
      {"name":"w","description":"d","inputs":{"b":{"default":1},"a":{"type":"string"}},"steps":[
        {"id":"one","kind":"tool","tool":"t","args":{"z":1,"y":"{{inputs.a}}"},
         "timeout_secs":5,"idempotency_key":"k-{{inputs.a}}",
         "retry":{"max_attempts":3,"backoff":"linear","initial_delay_ms":10,"max_delay_ms":50,"jitter":true}},
        {"id":"each","kind":"foreach","items":"{{inputs.xs}}","as":"x",
         "steps":[{"id":"inner","kind":"tool","tool":"t"}]},
        {"id":"par","kind":"parallel","steps":[
          {"id":"l","kind":"tool","tool":"t"},{"id":"r","kind":"tool","tool":"t"}]},
        {"id":"pick","kind":"branch","on":"{{steps.one.output.ok}}",
         "then":[{"id":"yes","kind":"approve","prompt":"Go?"}],"else":[]}]}""";

  @Test
  void toJson_readsBackToTheSameSpec() throws Exception {
    WorkflowSpec spec = InlineWorkflow.parse(JSON.readTree(SPEC));

    ObjectNode written = InlineWorkflow.toJson(spec);

    assertThat(InlineWorkflow.parse(written)).isEqualTo(spec);
    assertThat(InlineWorkflow.toJson(InlineWorkflow.parse(written))).isEqualTo(written);
    assertThat(written.at("/steps/0/retry/backoff").asText()).isEqualTo("linear");
  }

  @Test
  void hash_doesNotDependOnKeyOrder_butOnContent() throws Exception {
    JsonNode spec = JSON.readTree(SPEC);
    JsonNode reordered =
        JSON.readTree(
            SPEC.replace("\"z\":1,\"y\":\"{{inputs.a}}\"", "\"y\":\"{{inputs.a}}\",\"z\":1"));
    JsonNode changed = JSON.readTree(SPEC.replace("\"z\":1", "\"z\":2"));

    assertThat(ResumePlan.hash(reordered)).isEqualTo(ResumePlan.hash(spec)).hasSize(64);
    assertThat(ResumePlan.hash(changed)).isNotEqualTo(ResumePlan.hash(spec));
  }

  @Test
  void plan_skipsCompletedSteps_keepsWhatIsInsideThem_andRunsTheRest() throws Exception {
    ObjectNode stored = stored("interrupted");
    status(stored, "one", "completed").put("output", "first");
    status(stored, "each", "running");
    status(stored, "inner", "completed");
    status(stored, "par", "running");
    status(stored, "l", "completed").put("output", "left");
    status(stored, "r", "interrupted");

    ResumePlan plan = ResumePlan.of(stored, List.of(), null, false);

    assertThat(plan.preloaded().keySet()).containsExactlyInAnyOrder("one", "l");
    assertThat(plan.kept()).containsExactlyInAnyOrder("one", "l");
    assertThat(plan.outputs()).containsKeys("one", "l");
    assertThat(plan.preloaded().get("l").asText()).isEqualTo("left");
  }

  @Test
  void plan_forcingAStepInsideACompletedComposite_runsTheCompositeAgain() throws Exception {
    ObjectNode stored = stored("completed");
    for (String id : List.of("one", "each", "inner", "par", "l", "r", "pick", "yes")) {
      status(stored, id, "completed");
    }

    ResumePlan plan = ResumePlan.of(stored, List.of("r"), null, false);

    assertThat(plan.preloaded().keySet()).containsExactlyInAnyOrder("one", "each", "l", "pick");
    assertThat(plan.kept()).contains("inner").doesNotContain("par", "r");
  }

  @Test
  void plan_refusesWhatCannotResume() throws Exception {
    assertThatThrownBy(() -> ResumePlan.of(stored("cancelled"), List.of(), null, false))
        .isInstanceOf(ResumeRefused.class)
        .hasMessageContaining("cancelled");
    assertThatThrownBy(() -> ResumePlan.of(stored("completed"), List.of(), null, false))
        .isInstanceOf(ResumeRefused.class);
    assertThatThrownBy(() -> ResumePlan.of(stored("failed"), List.of("nope"), null, false))
        .extracting(e -> ((ResumeRefused) e).reason())
        .isEqualTo(ResumeRefused.Reason.UNKNOWN_STEP);
    assertThatThrownBy(() -> ResumePlan.of(stored("failed"), List.of(), "00", true))
        .extracting(e -> ((ResumeRefused) e).reason())
        .isEqualTo(ResumeRefused.Reason.SPEC_CHANGED);
    ObjectNode noSpec = stored("interrupted");
    noSpec.remove(RunRecord.SPEC);
    assertThatThrownBy(() -> ResumePlan.of(noSpec, List.of(), null, false))
        .hasMessageContaining("without its spec");
    assertThat(ResumePlan.of(stored("failed"), List.of(), "00", false).specHash()).hasSize(64);
  }

  private static ObjectNode stored(String status) throws Exception {
    ObjectNode o = JSON.createObjectNode().put("run_id", "r1").put("status", status);
    o.set(RunRecord.SPEC, JSON.readTree(SPEC));
    o.putArray("steps");
    return o;
  }

  private static ObjectNode status(ObjectNode stored, String id, String status) {
    return ((com.fasterxml.jackson.databind.node.ArrayNode) stored.get("steps"))
        .addObject()
        .put("id", id)
        .put("status", status);
  }
}

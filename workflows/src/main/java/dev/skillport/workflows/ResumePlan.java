package dev.skillport.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.model.skill.WorkflowSpec;
import dev.skillport.model.skill.WorkflowStep;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What resuming a stored run takes from its document: the spec it runs, the steps that keep their
 * recorded state and are not run again (those that completed, unless forced, with everything inside
 * them), and the recorded outputs that later templates read. A step inside a {@code foreach} body
 * is never kept on its own: its record holds only the last item's state, so an unfinished {@code
 * foreach} runs all its items again (an item's step with an idempotency key reuses its output).
 *
 * @param preloaded the outermost kept steps, with the output each returns without running
 * @param kept every step whose stored state stays as it was
 * @param outputs the recorded output of every kept step that has one
 */
record ResumePlan(
    WorkflowSpec spec,
    String skill,
    Map<String, JsonNode> preloaded,
    Set<String> kept,
    Map<String, JsonNode> outputs,
    String specHash) {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * The plan for {@code stored}.
   *
   * @param force step ids to run again even though they completed
   * @param expectedHash the spec hash the caller expects, or null
   * @param strict whether a different hash refuses the resume (otherwise the stored spec runs)
   */
  static ResumePlan of(JsonNode stored, List<String> force, String expectedHash, boolean strict)
      throws ResumeRefused {
    String id = stored.path("run_id").asText();
    JsonNode specJson = stored.get(RunRecord.SPEC);
    if (specJson == null || !specJson.isObject()) {
      throw new ResumeRefused(
          ResumeRefused.Reason.NOT_RESUMABLE,
          "run '" + id + "' was stored without its spec; start it again with workflows_run");
    }
    WorkflowSpec spec;
    try {
      spec = InlineWorkflow.parse(specJson);
    } catch (IllegalArgumentException e) {
      throw new ResumeRefused(
          ResumeRefused.Reason.NOT_RESUMABLE,
          "run '" + id + "' has a stored spec that cannot be read: " + e.getMessage());
    }
    String status = stored.path("status").asText();
    boolean resumable =
        status.equals("interrupted")
            || status.equals("failed")
            || (status.equals("completed") && !force.isEmpty());
    if (!resumable) {
      throw new ResumeRefused(
          ResumeRefused.Reason.NOT_RESUMABLE,
          "run '"
              + id
              + "' is "
              + status
              + ": only an interrupted or failed run resumes (a completed one with force_steps)");
    }
    String hash = hash(specJson);
    if (expectedHash != null && !expectedHash.equalsIgnoreCase(hash) && strict) {
      throw new ResumeRefused(
          ResumeRefused.Reason.SPEC_CHANGED,
          "run '" + id + "' has spec hash " + hash + ", not the expected " + expectedHash);
    }
    Set<String> ids = new HashSet<>();
    collectIds(spec.steps(), ids);
    for (String f : force) {
      if (!ids.contains(f)) {
        throw new ResumeRefused(
            ResumeRefused.Reason.UNKNOWN_STEP,
            "force_steps names '" + f + "', which is not a step of workflow '" + spec.name() + "'");
      }
    }
    Map<String, JsonNode> recorded = new HashMap<>();
    for (JsonNode s : stored.path("steps")) {
      recorded.put(s.path("id").asText(), s);
    }
    Map<String, JsonNode> preloaded = new LinkedHashMap<>();
    Set<String> kept = new HashSet<>();
    plan(spec.steps(), recorded, Set.copyOf(force), preloaded, kept);
    Map<String, JsonNode> outputs = new LinkedHashMap<>();
    for (String k : kept) {
      JsonNode s = recorded.get(k);
      if (s != null && s.has("output")) {
        outputs.put(k, s.get("output"));
      }
    }
    return new ResumePlan(
        spec, stored.path("skill").textValue(), Map.copyOf(preloaded), kept, outputs, hash);
  }

  private static void plan(
      List<WorkflowStep> list,
      Map<String, JsonNode> recorded,
      Set<String> force,
      Map<String, JsonNode> preloaded,
      Set<String> kept) {
    for (WorkflowStep step : list) {
      JsonNode was = recorded.get(step.id());
      boolean completed = was != null && was.path("status").asText().equals("completed");
      if (completed && !forcedWithin(step, force)) {
        preloaded.put(step.id(), was.has("output") ? was.get("output") : NODES.nullNode());
        collectIds(List.of(step), kept);
      } else if (!(step instanceof WorkflowStep.Foreach)) {
        plan(step.nested(), recorded, force, preloaded, kept);
      }
    }
  }

  /** Whether {@code step} or a step inside it is to be forced. */
  private static boolean forcedWithin(WorkflowStep step, Set<String> force) {
    if (force.contains(step.id())) {
      return true;
    }
    for (WorkflowStep n : step.nested()) {
      if (forcedWithin(n, force)) {
        return true;
      }
    }
    return false;
  }

  private static void collectIds(List<WorkflowStep> list, Set<String> into) {
    for (WorkflowStep step : list) {
      into.add(step.id());
      collectIds(step.nested(), into);
    }
  }

  /**
   * The SHA-256 (hex) of a spec in its stored, inline shape, with object keys sorted so that the
   * hash does not depend on how a store orders them.
   */
  static String hash(JsonNode specJson) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(sorted(specJson).toString().getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder();
      for (byte b : digest) {
        hex.append(String.format("%02x", b));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing", e);
    }
  }

  private static JsonNode sorted(JsonNode node) {
    if (node.isObject()) {
      Map<String, JsonNode> fields = new TreeMap<>();
      node.properties().forEach(e -> fields.put(e.getKey(), sorted(e.getValue())));
      ObjectNode o = NODES.objectNode();
      fields.forEach(o::set);
      return o;
    }
    if (node.isArray()) {
      List<JsonNode> items = new ArrayList<>();
      node.forEach(n -> items.add(sorted(n)));
      ArrayNode a = NODES.arrayNode();
      items.forEach(a::add);
      return a;
    }
    return node;
  }
}

package dev.skillport.loader.sibling;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.loader.yaml.YamlDocument;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.RetryPolicy;
import dev.skillport.model.skill.StepPolicy;
import dev.skillport.model.skill.WorkflowSpec;
import dev.skillport.model.skill.WorkflowStep;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads {@code *.workflow.yaml} files and checks them at load time: step kinds, unique step ids
 * across the whole workflow, {@code foreach} JSONPaths ({@link WorkflowExpressions}), template
 * roots ({@code inputs}, {@code steps}, {@code item} and the {@code as} names of enclosing {@code
 * foreach} steps) and tool names. Any problem drops that workflow alone, with a warning per
 * problem.
 *
 * <p>A tool name is checked when it is unqualified, or qualified with this skill's own name ({@code
 * <skill>__<tool>}); names qualified with another skill, and templated names, cannot be checked
 * here.
 */
final class WorkflowsReader {
  static final Set<String> KINDS = Set.of("tool", "foreach", "parallel", "branch", "approve");
  private static final Set<String> FIXED_ROOTS = Set.of("inputs", "steps", "item");

  private final SiblingContext ctx;
  private final SiblingPaths paths;
  private final SiblingYaml yaml;
  private final Set<String> toolNames;
  private final Map<Path, Optional<WorkflowSpec>> cache = new HashMap<>();

  WorkflowsReader(SiblingContext ctx, SiblingPaths paths, SiblingYaml yaml, Set<String> toolNames) {
    this.ctx = ctx;
    this.paths = paths;
    this.yaml = yaml;
    this.toolNames = Set.copyOf(toolNames);
  }

  /** Reads every file the globs match, dropping later workflows that reuse a name. */
  List<WorkflowSpec> read(List<String> globs) {
    Map<String, Path> files = new java.util.TreeMap<>();
    for (String glob : globs) {
      for (Path p : paths.expand("workflows", glob, "workflow")) {
        files.put(paths.relative(p), p);
      }
    }
    Map<String, WorkflowSpec> byName = new LinkedHashMap<>();
    for (Path file : files.values()) {
      readFile(file)
          .ifPresent(
              wf -> {
                if (byName.putIfAbsent(wf.name(), wf) != null) {
                  ctx.diagnostics()
                      .report(
                          DiagnosticCode.WORKFLOW_INVALID,
                          "Workflow '"
                              + wf.name()
                              + "' is declared again in this file; this one was dropped.",
                          file,
                          null,
                          null);
                }
              });
    }
    return List.copyOf(byName.values());
  }

  /** Reads and checks one workflow file (once; later calls return the same result). */
  Optional<WorkflowSpec> readFile(Path file) {
    Optional<WorkflowSpec> known = cache.get(file);
    if (known == null) {
      known = parse(file);
      cache.put(file, known);
    }
    return known;
  }

  private Optional<WorkflowSpec> parse(Path file) {
    Optional<YamlDocument> parsed = yaml.read(file);
    if (parsed.isEmpty()) {
      return Optional.empty();
    }
    YamlDocument doc = parsed.get();
    JsonNode root = doc.root();
    if (!yaml.checkFile(SiblingSchema.WORKFLOW_FILE, doc, file, "workflow file")
        || !yaml.checkEntry(
            SiblingSchema.WORKFLOW,
            root,
            doc,
            "",
            file,
            DiagnosticCode.WORKFLOW_INVALID,
            "workflow")) {
      return Optional.empty();
    }
    Check check = new Check(doc, file);
    List<WorkflowStep> steps = check.steps(root.get("steps"), "/steps", Set.of());
    if (check.failed) {
      return Optional.empty();
    }
    return Optional.of(
        new WorkflowSpec(
            root.get("name").asText().strip(),
            YamlValues.text(root.get("description")),
            root.get("inputs"),
            steps,
            file));
  }

  /** One pass over one workflow; sets {@code failed} after reporting each problem. */
  private final class Check {
    private final YamlDocument doc;
    private final Path file;
    private final Set<String> ids = new HashSet<>();
    boolean failed;

    Check(YamlDocument doc, Path file) {
      this.doc = doc;
      this.file = file;
    }

    List<WorkflowStep> steps(JsonNode list, String pointer, Set<String> scope) {
      List<WorkflowStep> out = new ArrayList<>();
      if (list == null || !list.isArray()) {
        return out;
      }
      for (int i = 0; i < list.size(); i++) {
        WorkflowStep step = step(list.get(i), pointer + "/" + i, scope);
        if (step != null) {
          out.add(step);
        }
      }
      return out;
    }

    private WorkflowStep step(JsonNode node, String pointer, Set<String> scope) {
      String id = node.get("id").asText();
      if (!ids.add(id)) {
        problem(
            DiagnosticCode.WORKFLOW_STEP_DUPLICATE_ID,
            "step id '" + id + "' is used twice",
            pointer + "/id",
            "Step ids must be unique across the whole workflow, nested steps included.");
      }
      String kind = node.get("kind").asText().strip().toLowerCase(Locale.ROOT);
      if (!KINDS.contains(kind)) {
        problem(
            DiagnosticCode.WORKFLOW_STEP_KIND_UNKNOWN,
            "step '" + id + "' has unknown kind '" + node.get("kind").asText() + "'",
            pointer + "/kind",
            "Use one of tool, foreach, parallel, branch, approve.");
        return null;
      }
      StepPolicy policy = policy(node, pointer, scope);
      switch (kind) {
        case "tool":
          {
            String tool = node.get("tool").asText().strip();
            checkTool(tool, pointer + "/tool");
            JsonNode args = node.get("args");
            templates(args, pointer + "/args", scope);
            return new WorkflowStep.Tool(
                id, policy, tool, args == null || args.isNull() ? null : args);
          }
        case "foreach":
          {
            String items = node.get("items").asText();
            if (!WorkflowExpressions.validItems(items)) {
              problem(
                  DiagnosticCode.WORKFLOW_JSONPATH_INVALID,
                  "step '" + id + "' has items '" + items + "', which is not an accepted JSONPath",
                  pointer + "/items",
                  "Use e.g. $.inputs.files, $.steps.list.output.items[*] or {{inputs.files}}.");
            } else {
              templates(node.get("items"), pointer + "/items", scope);
            }
            String as = node.has("as") ? node.get("as").asText() : "item";
            Set<String> inner = new HashSet<>(scope);
            inner.add(as);
            return new WorkflowStep.Foreach(
                id, policy, items, as, steps(node.get("steps"), pointer + "/steps", inner));
          }
        case "parallel":
          return new WorkflowStep.Parallel(
              id, policy, steps(node.get("steps"), pointer + "/steps", scope));
        case "branch":
          {
            templates(node.get("on"), pointer + "/on", scope);
            return new WorkflowStep.Branch(
                id,
                policy,
                node.get("on").asText(),
                steps(node.get("then"), pointer + "/then", scope),
                steps(node.get("else"), pointer + "/else", scope));
          }
        default:
          templates(node.get("prompt"), pointer + "/prompt", scope);
          return new WorkflowStep.Approve(id, policy, YamlValues.text(node.get("prompt")));
      }
    }

    private StepPolicy policy(JsonNode node, String pointer, Set<String> scope) {
      RetryPolicy retryPolicy = RetryPolicy.fromSpec(node.get("retry"));
      JsonNode timeout = node.get("timeout_secs");
      templates(node.get("idempotency_key"), pointer + "/idempotency_key", scope);
      return new StepPolicy(
          timeout == null ? null : timeout.asInt(),
          retryPolicy,
          YamlValues.text(node.get("idempotency_key")));
    }

    private void checkTool(String tool, String pointer) {
      if (tool.contains("{{") || toolNames.contains(tool)) {
        return;
      }
      int sep = tool.indexOf("__");
      if (sep > 0) {
        String skill = tool.substring(0, sep);
        if (!skill.equals(ctx.skillName()) || toolNames.contains(tool.substring(sep + 2))) {
          return;
        }
      }
      problem(
          DiagnosticCode.WORKFLOW_TOOL_UNKNOWN,
          "a step calls tool '" + tool + "', which this skill does not declare",
          pointer,
          "Use a tool of this skill, or qualify another skill's tool as <skill>__<tool>.");
    }

    /** Checks the root of every template in every string under {@code node}. */
    private void templates(JsonNode node, String pointer, Set<String> scope) {
      if (node == null) {
        return;
      }
      if (node.isTextual()) {
        for (String root : WorkflowExpressions.templateRoots(node.asText())) {
          if (!FIXED_ROOTS.contains(root) && !scope.contains(root)) {
            problem(
                DiagnosticCode.WORKFLOW_TEMPLATE_ROOT_UNKNOWN,
                "template root '" + root + "' is unknown",
                pointer,
                "Templates start with inputs, steps, item or the 'as' name of an enclosing"
                    + " foreach.");
          }
        }
      } else if (node.isObject()) {
        node.properties()
            .forEach(
                e ->
                    templates(
                        e.getValue(), pointer + "/" + YamlDocument.escape(e.getKey()), scope));
      } else if (node.isArray()) {
        for (int i = 0; i < node.size(); i++) {
          templates(node.get(i), pointer + "/" + i, scope);
        }
      }
    }

    private void problem(DiagnosticCode code, String what, String pointer, String hint) {
      failed = true;
      ctx.diagnostics()
          .report(code, "The workflow was dropped: " + what + ".", file, doc.locate(pointer), hint);
    }
  }
}

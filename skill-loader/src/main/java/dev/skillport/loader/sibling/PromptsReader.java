package dev.skillport.loader.sibling;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.loader.yaml.YamlDocument;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.PromptArgument;
import dev.skillport.model.skill.PromptSpec;
import dev.skillport.model.skill.WorkflowSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads prompt templates: one file {@code {prompts: [spec…], workflows: [{file, prompt_name}]}}, or
 * a glob of files each holding one spec or a list of specs.
 *
 * <p>A prompt file that is not YAML ({@code .md}, {@code .markdown}, {@code .txt} or any other
 * extension than {@code .yaml}, {@code .yml}, {@code .json}), as upstream's example skills write
 * them, is one prompt: its name is the file name without its extension (and without a trailing
 * {@code .prompt}), its text the message, its description the first line with Markdown heading
 * marks removed, and each {@code {{placeholder}}} in it an optional argument.
 *
 * <p>A {@code workflows} entry turns a workflow file (path relative to the prompts file, confined
 * to the skill) into a prompt named {@code prompt_name} (default: the workflow's name) whose
 * arguments are the workflow's inputs and whose template asks the agent to run the workflow.
 */
final class PromptsReader {
  private static final Pattern PLACEHOLDER =
      Pattern.compile("\\{\\{\\s*([A-Za-z_][A-Za-z0-9_.-]*)\\s*}}");

  private final SiblingContext ctx;
  private final SiblingPaths paths;
  private final SiblingYaml yaml;
  private final WorkflowsReader workflows;
  private final Map<String, PromptSpec> prompts = new LinkedHashMap<>();

  PromptsReader(
      SiblingContext ctx, SiblingPaths paths, SiblingYaml yaml, WorkflowsReader workflows) {
    this.ctx = ctx;
    this.paths = paths;
    this.yaml = yaml;
    this.workflows = workflows;
  }

  List<PromptSpec> read(String pointer) {
    List<Path> files =
        SiblingPaths.isGlob(pointer) || pointer.contains(",")
            ? paths.expand("prompts", pointer, "prompt file")
            : paths.resolveFromManifest("prompts", pointer, "prompts file").stream().toList();
    for (Path file : files) {
      readFile(file);
    }
    return List.copyOf(prompts.values());
  }

  private void readFile(Path file) {
    if (!isYaml(file)) {
      textPrompt(file);
      return;
    }
    Optional<YamlDocument> parsed = yaml.read(file);
    if (parsed.isEmpty() || parsed.get().root().isNull()) {
      return;
    }
    YamlDocument doc = parsed.get();
    if (!yaml.checkFile(SiblingSchema.PROMPTS_FILE, doc, file, "prompt file")) {
      return;
    }
    JsonNode root = doc.root();
    if (root.isArray()) {
      specs(root, "", doc, file);
    } else if (root.has("prompts") || root.has("workflows")) {
      specs(root.path("prompts"), "/prompts", doc, file);
      JsonNode wf = root.path("workflows");
      for (int i = 0; i < wf.size(); i++) {
        workflowPrompt(wf.get(i), "/workflows/" + i, doc, file);
      }
    } else {
      spec(root, "", doc, file);
    }
  }

  private static boolean isYaml(Path file) {
    String name = file.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
    return name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json");
  }

  /** A Markdown or text file as one prompt (see the class comment). */
  private void textPrompt(Path file) {
    Optional<String> read = paths.readText(file);
    if (read.isEmpty()) {
      return;
    }
    String text = read.get();
    String fileName = file.getFileName().toString();
    int dot = fileName.lastIndexOf('.');
    String name = dot > 0 ? fileName.substring(0, dot) : fileName;
    if (name.endsWith(".prompt") && name.length() > ".prompt".length()) {
      name = name.substring(0, name.length() - ".prompt".length());
    }
    if (text.isBlank()) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.PROMPT_INVALID,
              "Prompt file '" + fileName + "' is empty; it was dropped.",
              file,
              null,
              "Write the prompt's text in the file.");
      return;
    }
    String description = "";
    for (String line : text.split("\\R")) {
      String stripped = line.strip();
      if (!stripped.isEmpty()) {
        description = stripped.replaceFirst("^#+\\s*", "");
        break;
      }
    }
    if (description.length() > 200) {
      description = description.substring(0, 199) + "…";
    }
    Set<String> placeholders = new java.util.LinkedHashSet<>();
    Matcher m = PLACEHOLDER.matcher(text);
    while (m.find()) {
      placeholders.add(m.group(1));
    }
    List<PromptArgument> arguments = new ArrayList<>();
    for (String p : placeholders) {
      arguments.add(new PromptArgument(p, "Replaces {{" + p + "}} in the prompt.", false));
    }
    PromptSpec spec = new PromptSpec(name, description, arguments, text, file);
    if (prompts.putIfAbsent(spec.name(), spec) != null) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.PROMPT_DUPLICATE,
              "Prompt '" + spec.name() + "' is declared twice; this one was dropped.",
              file,
              null,
              null);
    }
  }

  private void specs(JsonNode list, String pointer, YamlDocument doc, Path file) {
    for (int i = 0; i < list.size(); i++) {
      spec(list.get(i), pointer + "/" + i, doc, file);
    }
  }

  private void spec(JsonNode entry, String pointer, YamlDocument doc, Path file) {
    if (!yaml.checkEntry(
        SiblingSchema.PROMPT, entry, doc, pointer, file, DiagnosticCode.PROMPT_INVALID, "prompt")) {
      return;
    }
    List<PromptArgument> arguments = new ArrayList<>();
    Set<String> declared = new HashSet<>();
    JsonNode args = entry.path("arguments");
    for (JsonNode a : args) {
      String name = a.get("name").asText();
      if (declared.add(name)) {
        arguments.add(
            new PromptArgument(
                name,
                YamlValues.text(a.get("description")),
                a.path("required").asBoolean(false),
                completionValues(a)));
      }
    }
    String template = entry.get("template").asText();
    Set<String> unknown = new java.util.TreeSet<>();
    Matcher m = PLACEHOLDER.matcher(template);
    while (m.find()) {
      if (!declared.contains(m.group(1))) {
        unknown.add(m.group(1));
      }
    }
    String name = entry.get("name").asText().strip();
    if (!unknown.isEmpty()) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.PROMPT_PLACEHOLDER_UNKNOWN,
              "Prompt '"
                  + name
                  + "' uses "
                  + String.join(", ", unknown.stream().map(u -> "{{" + u + "}}").toList())
                  + " without declaring "
                  + (unknown.size() == 1 ? "it" : "them")
                  + " as an argument; "
                  + (unknown.size() == 1 ? "it renders" : "they render")
                  + " empty.",
              file,
              doc.locate(pointer + "/template"),
              "Declare each placeholder under 'arguments:'.");
    }
    add(
        new PromptSpec(
            name,
            YamlValues.text(entry.get("description")),
            arguments,
            template,
            file,
            entry.get("messages")),
        doc,
        pointer,
        file);
  }

  /** An argument's {@code values} or {@code enum}, then its {@code examples}, as text. */
  private static List<String> completionValues(JsonNode argument) {
    Set<String> out = new java.util.LinkedHashSet<>();
    for (String key : List.of("values", "enum", "examples")) {
      for (JsonNode v : argument.path(key)) {
        if (v.isValueNode() && !v.isNull()) {
          out.add(v.asText());
        }
      }
    }
    return List.copyOf(out);
  }

  private void workflowPrompt(JsonNode entry, String pointer, YamlDocument doc, Path file) {
    if (!yaml.checkEntry(
        SiblingSchema.WORKFLOW_PROMPT,
        entry,
        doc,
        pointer,
        file,
        DiagnosticCode.PROMPT_INVALID,
        "workflow prompt")) {
      return;
    }
    Optional<WorkflowSpec> workflow =
        paths
            .resolve(
                file.getParent(),
                entry.get("file").asText(),
                "workflow file of a prompt",
                file,
                doc.locate(pointer + "/file"),
                DiagnosticCode.PROMPT_INVALID)
            .filter(Files::isRegularFile)
            .flatMap(workflows::readFile);
    if (workflow.isEmpty()) {
      return;
    }
    WorkflowSpec wf = workflow.get();
    String name = entry.has("prompt_name") ? entry.get("prompt_name").asText().strip() : wf.name();
    String description = YamlValues.text(entry.get("description"));
    List<PromptArgument> arguments = inputs(wf.inputs());
    StringBuilder template = new StringBuilder("Run the workflow \"" + wf.name() + "\".");
    if (!wf.description().isBlank()) {
      template.append(' ').append(wf.description());
    }
    if (!arguments.isEmpty()) {
      template.append("\nInputs:");
      arguments.forEach(
          a ->
              template
                  .append("\n- ")
                  .append(a.name())
                  .append(": {{")
                  .append(a.name())
                  .append("}}"));
    }
    add(
        new PromptSpec(
            name,
            description == null || description.isBlank() ? wf.description() : description,
            arguments,
            template.toString(),
            wf.source()),
        doc,
        pointer,
        file);
  }

  /** Prompt arguments from workflow inputs: a JSON Schema with properties, or name → spec. */
  private static List<PromptArgument> inputs(JsonNode inputs) {
    List<PromptArgument> out = new ArrayList<>();
    if (inputs == null || !inputs.isObject()) {
      return out;
    }
    JsonNode props = inputs.get("properties");
    if (props != null && props.isObject()) {
      Set<String> required = new HashSet<>(YamlValues.stringList(inputs.get("required")));
      props
          .properties()
          .forEach(
              e ->
                  out.add(
                      new PromptArgument(
                          e.getKey(),
                          YamlValues.text(e.getValue().get("description")),
                          required.contains(e.getKey()))));
      return out;
    }
    inputs
        .properties()
        .forEach(
            e ->
                out.add(
                    new PromptArgument(
                        e.getKey(),
                        YamlValues.text(e.getValue().get("description")),
                        e.getValue().path("required").asBoolean(false))));
    return out;
  }

  private void add(PromptSpec spec, YamlDocument doc, String pointer, Path file) {
    if (prompts.putIfAbsent(spec.name(), spec) != null) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.PROMPT_DUPLICATE,
              "Prompt '" + spec.name() + "' is declared twice; this one was dropped.",
              file,
              doc.locate(pointer),
              null);
    }
  }
}

package dev.skillport.server.prompts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.model.skill.PromptArgument;
import dev.skillport.model.skill.PromptSpec;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.WorkflowSpec;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.SessionView;
import dev.skillport.server.resources.SkillFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The prompts a session sees: those of its loaded skills, in load order. A skill that declares no
 * prompts contributes derived ones: one per {@code examples}/{@code recipes} Markdown file (named
 * after the file, its text as template, each {@code {{x}}} an optional argument) and one per
 * workflow. A prompt is listed under its own name when that is unique in the session, otherwise as
 * {@code <skill>__<name>}.
 */
final class SessionPrompts {
  private static final Logger LOG = LoggerFactory.getLogger(SessionPrompts.class);
  static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([A-Za-z_][A-Za-z0-9_.-]*)\\s*}}");
  private static final String QUALIFIER = "__";

  private SessionPrompts() {}

  /** Listed name → definition, in listing order. */
  static Map<String, PromptDefinition> of(
      PromptCatalog prompts, Catalog catalog, SessionView view) {
    List<PromptDefinition> all = new ArrayList<>();
    for (String name : view.loadedSkills()) {
      catalog
          .skill(name)
          .filter(s -> s.state() == SkillState.AVAILABLE)
          .ifPresent(s -> all.addAll(prompts.of(catalog, s)));
    }
    Map<String, Integer> counts = new HashMap<>();
    all.forEach(d -> counts.merge(d.name(), 1, Integer::sum));
    Map<String, PromptDefinition> out = new LinkedHashMap<>();
    for (PromptDefinition d : all) {
      String listed = counts.get(d.name()) == 1 ? d.name() : d.skill() + QUALIFIER + d.name();
      out.putIfAbsent(listed, d);
    }
    return out;
  }

  /** Finds a prompt by its listed name or by {@code <skill>__<name>}. */
  static Optional<PromptDefinition> find(Map<String, PromptDefinition> listed, String name) {
    PromptDefinition d = listed.get(name);
    if (d != null) {
      return Optional.of(d);
    }
    return listed.values().stream()
        .filter(p -> (p.skill() + QUALIFIER + p.name()).equals(name))
        .findFirst();
  }

  static List<PromptDefinition> definitions(Skill skill) {
    if (!skill.prompts().isEmpty()) {
      return skill.prompts().stream().map(p -> declared(skill, p)).toList();
    }
    List<PromptDefinition> out = new ArrayList<>();
    Set<String> names = new LinkedHashSet<>();
    List<String> markdown = new ArrayList<>(skill.manifest().extensions().siblings().examples());
    markdown.addAll(skill.manifest().extensions().siblings().recipes());
    for (Path file : markdownFiles(skill.location().directory(), markdown)) {
      derivedFromMarkdown(skill, file).filter(d -> names.add(d.name())).ifPresent(out::add);
    }
    for (WorkflowSpec wf : skill.workflows()) {
      PromptDefinition d = derivedFromWorkflow(skill, wf);
      if (names.add(d.name())) {
        out.add(d);
      }
    }
    return out;
  }

  private static PromptDefinition declared(Skill skill, PromptSpec spec) {
    List<PromptDefinition.Argument> args = new ArrayList<>();
    for (PromptArgument a : spec.arguments()) {
      args.add(new PromptDefinition.Argument(a.name(), a.description(), a.required(), a.values()));
    }
    return new PromptDefinition(
        spec.name(),
        skill.name(),
        spec.description(),
        args,
        spec.template(),
        spec.messages(),
        spec.source() == null ? null : spec.source().getParent(),
        skill.location().directory());
  }

  /** Completion values of an argument entry: {@code values} or {@code enum}, then examples. */
  private static List<String> values(JsonNode argument) {
    Set<String> out = new LinkedHashSet<>();
    if (argument != null) {
      for (String key : List.of("values", "enum", "examples")) {
        for (JsonNode v : argument.path(key)) {
          if (v.isValueNode() && !v.isNull()) {
            out.add(v.asText());
          }
        }
      }
    }
    return List.copyOf(out);
  }

  /** The Markdown files named by {@code examples}/{@code recipes}: files, folders or globs. */
  private static List<Path> markdownFiles(Path skillDir, List<String> pointers) {
    Set<Path> out = new LinkedHashSet<>();
    for (String pointer : pointers) {
      for (String part : pointer.split(",")) {
        String p = part.strip();
        if (p.isEmpty()) {
          continue;
        }
        try {
          if (p.contains("*") || p.contains("?") || p.contains("[")) {
            PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + p);
            for (Path f : SkillFiles.files(skillDir)) {
              if (m.matches(Path.of(SkillFiles.relative(skillDir, f)))) {
                out.add(f);
              }
            }
            continue;
          }
          Optional<Path> target = SkillFiles.resolve(skillDir, p.replace('\\', '/'));
          if (target.isPresent() && Files.isDirectory(target.get())) {
            for (Path f : SkillFiles.files(target.get())) {
              if (isMarkdown(f)) {
                out.add(f);
              }
            }
          } else {
            target.filter(f -> !Files.isDirectory(f)).ifPresent(out::add);
          }
        } catch (IllegalArgumentException e) {
          LOG.debug("{} of {} is not a usable glob", p, skillDir, e);
        }
      }
    }
    return List.copyOf(out);
  }

  private static boolean isMarkdown(Path f) {
    String n = f.getFileName().toString().toLowerCase(Locale.ROOT);
    return n.endsWith(".md") || n.endsWith(".markdown");
  }

  private static Optional<PromptDefinition> derivedFromMarkdown(Skill skill, Path file) {
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(SkillFiles.read(file)))
              .toString();
    } catch (IOException e) {
      LOG.debug("could not read {}", file, e);
      return Optional.empty();
    }
    String stem = file.getFileName().toString();
    int dot = stem.lastIndexOf('.');
    if (dot > 0) {
      stem = stem.substring(0, dot);
    }
    String name = stem.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_-]+", "_");
    String description = "";
    for (String line : text.split("\\R")) {
      if (!line.isBlank()) {
        description = line.replaceFirst("^#+\\s*", "").strip();
        break;
      }
    }
    Set<String> placeholders = new LinkedHashSet<>();
    Matcher m = PLACEHOLDER.matcher(text);
    while (m.find()) {
      placeholders.add(m.group(1));
    }
    List<PromptDefinition.Argument> args =
        placeholders.stream()
            .map(p -> new PromptDefinition.Argument(p, "", false, List.of()))
            .toList();
    return Optional.of(
        new PromptDefinition(
            name,
            skill.name(),
            description,
            args,
            text,
            null,
            file.getParent(),
            skill.location().directory()));
  }

  private static PromptDefinition derivedFromWorkflow(Skill skill, WorkflowSpec wf) {
    List<PromptDefinition.Argument> args = new ArrayList<>();
    JsonNode inputs = wf.inputs();
    if (inputs != null && inputs.isObject()) {
      boolean schema = inputs.path("properties").isObject();
      JsonNode fields = schema ? inputs.get("properties") : inputs;
      Set<String> required = new LinkedHashSet<>();
      inputs.path("required").forEach(r -> required.add(r.asText()));
      fields
          .properties()
          .forEach(
              e -> {
                JsonNode spec = e.getValue();
                boolean req =
                    schema ? required.contains(e.getKey()) : spec.path("required").asBoolean(false);
                args.add(
                    new PromptDefinition.Argument(
                        e.getKey(), spec.path("description").asText(""), req, values(spec)));
              });
    }
    StringBuilder template = new StringBuilder();
    template.append("Use workflows_run to run the workflow \"").append(wf.name()).append("\"");
    if (!wf.description().isBlank()) {
      template.append(" (").append(wf.description().strip()).append(')');
    }
    template.append('.');
    for (PromptDefinition.Argument a : args) {
      template.append("\n").append(a.name()).append(" = {{").append(a.name()).append("}}");
    }
    return new PromptDefinition(
        wf.name(),
        skill.name(),
        wf.description().isBlank() ? "Run the workflow " + wf.name() : wf.description(),
        args,
        template.toString(),
        null,
        null,
        skill.location().directory());
  }
}

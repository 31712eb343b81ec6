package dev.skillport.loader.sibling;

import dev.skillport.loader.report.DiagnosticCollector;
import dev.skillport.loader.yaml.YamlLimits;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.DccExtensions;
import dev.skillport.model.skill.InlineOrFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A real skill folder on disk plus the metadata pointers that sibling reading starts from. */
final class SkillFolder {
  final Path dir;
  String tools;
  String groups;
  String prompts;
  String resources;
  List<String> workflows = List.of();
  Object externalDeps;
  Object runtimes;
  String mcp;
  YamlLimits limits = YamlLimits.SIBLING;
  DiagnosticCollector diagnostics;

  private SkillFolder(Path dir) {
    this.dir = dir;
  }

  /** Creates {@code parent/demo-skill} with a SKILL.md. */
  static SkillFolder in(Path parent) {
    try {
      Path dir = Files.createDirectories(parent.resolve("demo-skill")).toRealPath();
      Files.writeString(
          dir.resolve("SKILL.md"), "---\nname: demo-skill\ndescription: Demo.\n---\n");
      return new SkillFolder(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  SkillFolder file(String relative, String content) {
    try {
      Path p = dir.resolve(relative);
      Files.createDirectories(p.getParent());
      Files.writeString(p, content, StandardCharsets.UTF_8);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  SkillFolder bytes(String relative, byte[] content) {
    try {
      Path p = dir.resolve(relative);
      Files.createDirectories(p.getParent());
      Files.write(p, content);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  SkillFolder link(String relative, Path target) {
    try {
      Path p = dir.resolve(relative);
      Files.createDirectories(p.getParent());
      Files.createSymbolicLink(p, target);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  SiblingContext context() {
    return context(dir);
  }

  /**
   * A context for this skill's files reached at {@code at} (the folder itself, or a link to it).
   */
  SiblingContext context(Path at) {
    diagnostics = new DiagnosticCollector(false, "demo-skill");
    DccExtensions ext =
        DccExtensions.builder()
            .tools(tools)
            .groups(groups)
            .prompts(prompts)
            .resources(resources)
            .workflows(workflows)
            .externalDeps(written(externalDeps))
            .runtimes(written(runtimes))
            .mcp(mcp)
            .build();
    return new SiblingContext(at, "demo-skill", "Demo skill.", ext, limits, diagnostics);
  }

  /** Reads the folder with an empty environment (no variables, empty PATH). */
  SkillContents read() {
    return SiblingFiles.read(context(), HostEnvironment.of(Map.of()));
  }

  /** Reads the skill's files through {@code at}, a link to its folder. */
  SkillContents readFrom(Path at) {
    return SiblingFiles.read(context(at), HostEnvironment.of(Map.of()));
  }

  SkillContents read(HostEnvironment host) {
    return SiblingFiles.read(context(), host);
  }

  List<Diagnostic> all() {
    return diagnostics.diagnostics();
  }

  List<Diagnostic> with(DiagnosticCode code) {
    List<Diagnostic> out = new ArrayList<>();
    for (Diagnostic d : diagnostics.diagnostics()) {
      if (d.code() == code) {
        out.add(d);
      }
    }
    return out;
  }

  List<DiagnosticCode> codes() {
    return diagnostics.diagnostics().stream().map(Diagnostic::code).toList();
  }

  /** A metadata value as the SKILL.md reader hands it over: text, or an inline tree. */
  private static InlineOrFile written(Object value) {
    if (value == null) {
      return null;
    }
    return value instanceof String text
        ? new InlineOrFile.Text(text)
        : new InlineOrFile.Inline(YamlValues.tree(value));
  }
}

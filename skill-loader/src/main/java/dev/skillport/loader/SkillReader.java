package dev.skillport.loader;

import dev.skillport.loader.discovery.DiscoveredSkill;
import dev.skillport.loader.discovery.SkillScanner;
import dev.skillport.loader.report.DiagnosticCollector;
import dev.skillport.loader.sibling.SiblingContext;
import dev.skillport.loader.sibling.SiblingFiles;
import dev.skillport.loader.sibling.SkillContents;
import dev.skillport.loader.skillmd.SkillMdParser;
import dev.skillport.loader.yaml.YamlLocation;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.DccExtensions;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillLocation;
import dev.skillport.model.skill.SkillManifest;
import dev.skillport.model.skill.SkillState;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads one discovered skill folder: SKILL.md, then its sibling files. Thread-safe. */
final class SkillReader {
  private static final Logger LOG = LoggerFactory.getLogger(SkillReader.class);

  /** A skill as read, before shadowing and dependencies, with its own diagnostics. */
  record Read(Skill skill, List<Diagnostic> diagnostics) {
    Read {
      diagnostics = List.copyOf(diagnostics);
    }
  }

  private final LoaderOptions options;
  private final SkillMdParser parser;

  SkillReader(LoaderOptions options) {
    this.options = options;
    this.parser = new SkillMdParser(options.frontmatterLimits(), options.maxSkillFileBytes());
  }

  /**
   * Reads {@code found}; never throws for bad input. An unexpected failure becomes a {@code
   * LOADER_INTERNAL_ERROR} diagnostic on this skill alone.
   */
  Read read(DiscoveredSkill found) {
    try {
      return readChecked(found);
    } catch (RuntimeException e) {
      LOG.warn("reading skill {} failed unexpectedly", found.directory(), e);
      String name = directoryName(found);
      DiagnosticCollector collector = new DiagnosticCollector(options.strict(), name);
      collector.report(
          DiagnosticCode.LOADER_INTERNAL_ERROR,
          "reading this skill failed unexpectedly: " + e,
          found.skillFile(),
          YamlLocation.UNKNOWN,
          "please report this together with the skill folder");
      return new Read(rejected(found, name), collector.diagnostics());
    }
  }

  private Read readChecked(DiscoveredSkill found) {
    DiagnosticCollector parsing = new DiagnosticCollector(options.strict(), null);
    if (found.lowercaseFileName()) {
      parsing.report(
          DiagnosticCode.SKILL_MD_LOWERCASE,
          "the skill file is named "
              + SkillScanner.SKILL_FILE_LOWERCASE
              + "; the format asks for "
              + SkillScanner.SKILL_FILE,
          found.skillFile(),
          YamlLocation.UNKNOWN,
          "rename it to " + SkillScanner.SKILL_FILE);
    }
    Optional<SkillMdParser.Parsed> parsed =
        parser.read(found.skillFile(), found.attributes(), found.directory(), parsing);
    Optional<SkillManifest> manifest = parsed.map(SkillMdParser.Parsed::manifest);
    String name = manifest.map(SkillManifest::name).orElseGet(() -> directoryName(found));
    DiagnosticCollector collector = new DiagnosticCollector(options.strict(), name);
    collector.addAll(parsing.diagnostics());
    if (manifest.isEmpty()) {
      return new Read(rejected(found, name), collector.diagnostics());
    }
    SkillContents contents = SkillContents.EMPTY;
    if (!collector.hasErrors()) {
      SkillManifest m = manifest.get();
      contents =
          SiblingFiles.read(
              new SiblingContext(
                  found.directory(),
                  name,
                  m.description(),
                  m.extensions(),
                  options.siblingLimits(),
                  collector,
                  true,
                  parsed.get().keys()));
    }
    SkillState state = collector.hasErrors() ? SkillState.SKIPPED : SkillState.AVAILABLE;
    Skill skill =
        new Skill(
            manifest.get(),
            location(found),
            state,
            contents.tools(),
            contents.groups(),
            contents.prompts(),
            contents.resources(),
            contents.workflows(),
            contents.externalDeps(),
            contents.runtimes(),
            contents.mcpBridge(),
            null);
    return new Read(skill, collector.diagnostics());
  }

  private static Skill rejected(DiscoveredSkill found, String name) {
    SkillManifest manifest =
        new SkillManifest(
            name, "", null, null, List.of(), Map.of(), Map.of(), "", DccExtensions.NONE);
    return new Skill(
        manifest,
        location(found),
        SkillState.SKIPPED,
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        null,
        null);
  }

  private static SkillLocation location(DiscoveredSkill found) {
    return new SkillLocation(
        found.directory(),
        found.skillFile(),
        found.rootPath(),
        found.root().scope(),
        found.rootOrder());
  }

  private static String directoryName(DiscoveredSkill found) {
    return found.directory().getFileName() == null
        ? found.directory().toString()
        : found.directory().getFileName().toString();
  }
}

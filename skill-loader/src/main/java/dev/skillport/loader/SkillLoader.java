package dev.skillport.loader;

import dev.skillport.loader.discovery.DiscoveredSkill;
import dev.skillport.loader.discovery.ScanResult;
import dev.skillport.loader.discovery.SkillScanner;
import dev.skillport.loader.report.DiagnosticCollector;
import dev.skillport.loader.resolve.Resolution;
import dev.skillport.loader.resolve.SkillResolver;
import dev.skillport.loader.yaml.YamlLocation;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.model.skill.SkillState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Turns skill roots into skills plus diagnostics. Thread-safe; never throws for bad input (only for
 * programming errors such as a null argument).
 *
 * <p>Steps: discovery ({@link SkillScanner}), reading each skill folder (SKILL.md, then sibling
 * files for skills whose SKILL.md has no error; {@link LoaderOptions#parallelism()} folders at a
 * time), shadowing and dependency resolution ({@link SkillResolver}). A failure while reading one
 * folder is confined to that skill. The result is the same, in the same order, for any parallelism.
 */
public final class SkillLoader {
  /**
   * The order of {@link LoadResult#skills()}: name, the skill that answers to the name first, then
   * scope (highest first), root order and path.
   */
  static final Comparator<Skill> SKILL_ORDER =
      Comparator.comparing(Skill::name)
          .thenComparingInt(SkillLoader::rank)
          .thenComparing(SkillResolver.PRECEDENCE);

  private final LoaderOptions options;
  private final SkillReader reader;

  public SkillLoader(LoaderOptions options) {
    this.options = Objects.requireNonNull(options, "options");
    this.reader = new SkillReader(options);
  }

  public LoaderOptions options() {
    return options;
  }

  /**
   * Discovers, reads, validates and resolves every skill under {@code roots} (highest priority
   * first). A skill's {@code rootOrder} is its root's index in {@code roots}.
   */
  public LoadResult load(List<SkillRoot> roots) {
    return load(roots, null);
  }

  /**
   * Like {@link #load(List)}, reading only the skill folders {@code cache} does not hold (new ones,
   * and those invalidated since the last load) and remembering every folder read for the next.
   * Discovery and resolution run in full, so the result equals a fresh load of the same tree.
   *
   * @param cache what earlier loads read, or null to read everything and remember nothing
   */
  public LoadResult load(List<SkillRoot> roots, SkillFolderCache cache) {
    Objects.requireNonNull(roots, "roots");
    for (SkillRoot root : roots) {
      Objects.requireNonNull(root, "root");
    }
    ScanResult scan = new SkillScanner(options.maxDepth()).scan(roots);
    List<SkillReader.Read> reads = readAll(scan.skills(), cache);
    List<Skill> skills = new ArrayList<>(reads.size());
    // Discovery reports plain diagnostics; the collector applies strict mode to them too.
    DiagnosticCollector discovery = new DiagnosticCollector(options.strict(), null);
    for (Diagnostic d : scan.diagnostics()) {
      discovery.report(
          d.code(), d.message(), d.file(), new YamlLocation(d.line(), d.column()), d.hint());
    }
    List<Diagnostic> diagnostics = new ArrayList<>(discovery.diagnostics());
    for (SkillReader.Read read : reads) {
      skills.add(read.skill());
      diagnostics.addAll(read.diagnostics());
    }
    Resolution resolution =
        SkillResolver.resolve(skills, options.frontmatterLimits(), options.maxSkillFileBytes());
    diagnostics.addAll(resolution.diagnostics());
    List<Skill> sorted = new ArrayList<>(resolution.skills());
    sorted.sort(SKILL_ORDER);
    diagnostics.sort(Diagnostic.ORDER);
    return new LoadResult(sorted, diagnostics);
  }

  /**
   * Loads the one skill in {@code skillDir} (no discovery below it). Its dependencies are not
   * there, so a skill that declares any is {@link SkillState#PENDING_DEPS}.
   */
  public LoadResult loadSkill(Path skillDir, Scope scope) {
    Objects.requireNonNull(skillDir, "skillDir");
    Objects.requireNonNull(scope, "scope");
    if (Files.isDirectory(skillDir)
        && !Files.isRegularFile(skillDir.resolve(SkillScanner.SKILL_FILE))
        && !Files.isRegularFile(skillDir.resolve(SkillScanner.SKILL_FILE_LOWERCASE))) {
      return new LoadResult(
          List.of(),
          List.of(
              Diagnostic.of(
                  DiagnosticCode.SKILL_MD_MISSING,
                  skillDir + " holds no " + SkillScanner.SKILL_FILE,
                  skillDir,
                  0,
                  0)));
    }
    return new SkillLoader(options.withMaxDepth(0)).load(List.of(SkillRoot.of(skillDir, scope)));
  }

  private List<SkillReader.Read> readAll(List<DiscoveredSkill> all, SkillFolderCache cache) {
    if (cache == null) {
      return readAll(all);
    }
    List<DiscoveredSkill> missing = new ArrayList<>();
    for (DiscoveredSkill f : all) {
      if (cache.get(f) == null) {
        missing.add(f);
      }
    }
    List<SkillReader.Read> fresh = readAll(missing);
    Map<DiscoveredSkill, SkillReader.Read> reads = new LinkedHashMap<>();
    List<SkillReader.Read> out = new ArrayList<>(all.size());
    int next = 0;
    for (DiscoveredSkill f : all) {
      SkillReader.Read read = cache.get(f);
      if (read == null) {
        read = fresh.get(next++);
      }
      reads.put(f, read);
      out.add(read);
    }
    cache.finish(reads, fresh.size());
    return out;
  }

  private List<SkillReader.Read> readAll(List<DiscoveredSkill> found) {
    if (options.parallelism() == 1 || found.size() < 2) {
      List<SkillReader.Read> out = new ArrayList<>(found.size());
      for (DiscoveredSkill f : found) {
        out.add(reader.read(f));
      }
      return out;
    }
    ExecutorService pool =
        Executors.newFixedThreadPool(Math.min(options.parallelism(), found.size()));
    try {
      List<Future<SkillReader.Read>> futures = new ArrayList<>(found.size());
      for (DiscoveredSkill f : found) {
        futures.add(pool.submit(() -> reader.read(f)));
      }
      // Collected in discovery order, so the outcome does not depend on scheduling.
      List<SkillReader.Read> out = new ArrayList<>(found.size());
      for (Future<SkillReader.Read> future : futures) {
        out.add(future.get());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      CancellationException cancelled = new CancellationException("skill loading interrupted");
      cancelled.initCause(e);
      throw cancelled;
    } catch (ExecutionException e) {
      // SkillReader confines RuntimeExceptions; what remains is an Error, which must surface.
      Throwable cause = e.getCause();
      if (cause instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException("skill reading failed", cause);
    } finally {
      pool.shutdownNow();
    }
  }

  /** The skill that answers to its name first, then rejected ones, then shadowed ones. */
  private static int rank(Skill s) {
    return switch (s.state()) {
      case AVAILABLE, PENDING_DEPS, DENIED -> 0;
      case SKIPPED -> 1;
      case SHADOWED -> 2;
    };
  }
}

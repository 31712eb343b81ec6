package dev.skillport.loader.discovery;

import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.SkillRoot;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds skill folders under skill roots.
 *
 * <p>A root that holds {@code SKILL.md} (or {@code skill.md}) is one skill. Otherwise the scanner
 * walks down at most {@code maxDepth} levels (the root's children are level 1), skipping hidden
 * folders (names starting with {@code .}, so {@code .git} too) and {@code node_modules}, and never
 * descending into a skill folder. Directory entries are visited in name order, so the result does
 * not depend on the file system's listing order.
 *
 * <p><b>Directory links.</b> A symbolic link to a directory is followed only when its real path is
 * inside the root's real path; a link that leaves the root is reported ({@code
 * DISCOVERY_SYMLINK_SKIPPED}) and not followed, so a root cannot pull in folders its owner did not
 * give. Every directory is visited at most once per root (by real path), which, with the depth
 * bound, makes link loops harmless. Skill folders are identified by real path: a folder reached
 * twice (through a link, or under two overlapping roots) is counted once, under the first root in
 * priority order, with a {@code SKILL_DUPLICATE_PATH} notice.
 *
 * <p><b>Nested skills.</b> A folder inside a skill folder (at most {@value #NESTED_DEPTH} levels
 * down, hidden folders, {@code node_modules} and links skipped) that holds a skill file is part of
 * the outer skill, not a skill of its own; each such folder gets a {@code SKILL_NESTED} notice
 * naming both folders, so a skill author learns why it is not served.
 *
 * <p>Roots are de-duplicated by real path: the first (highest-priority) occurrence is kept, with
 * its scope, and later ones get a {@code ROOT_DUPLICATE} notice. Roots that are not existing
 * directories get {@code ROOT_NOT_DIRECTORY}. Diagnostics carry their code's default severity; the
 * loader applies strict mode to them like to any other.
 */
public final class SkillScanner {
  /** The skill file name the format asks for. */
  public static final String SKILL_FILE = "SKILL.md";

  /** The lowercase name accepted with a warning (exact spelling, not any case variant). */
  public static final String SKILL_FILE_LOWERCASE = "skill.md";

  /** {@link #SKILL_FILE} in other letter cases: found only where names ignore case. */
  private static final String SKILL_FILE_OTHER_CASE = "sKILL.md";

  private static final Logger LOG = LoggerFactory.getLogger(SkillScanner.class);

  /** How many folder levels below a skill folder are searched for nested skill files. */
  static final int NESTED_DEPTH = 4;

  private final int maxDepth;

  public SkillScanner(int maxDepth) {
    if (maxDepth < 0) {
      throw new IllegalArgumentException("maxDepth must be >= 0");
    }
    this.maxDepth = maxDepth;
  }

  /** Scans {@code roots}, highest priority first. Never throws for missing or unreadable paths. */
  public ScanResult scan(List<SkillRoot> roots) {
    Objects.requireNonNull(roots, "roots");
    List<DiscoveredSkill> skills = new ArrayList<>();
    List<Diagnostic> diagnostics = new ArrayList<>();
    Map<Path, SkillRoot> rootsSeen = new HashMap<>();
    Map<Path, DiscoveredSkill> skillsSeen = new HashMap<>();
    for (int i = 0; i < roots.size(); i++) {
      SkillRoot root = Objects.requireNonNull(roots.get(i), "root");
      Path real = realDirectory(root.path());
      if (real == null) {
        diagnostics.add(
            Diagnostic.of(
                    DiagnosticCode.ROOT_NOT_DIRECTORY,
                    "skill root " + root.path() + from(root) + " is not an existing directory",
                    root.path(),
                    0,
                    0)
                .withHint("create the directory or remove it from the configuration"));
        continue;
      }
      SkillRoot first = rootsSeen.putIfAbsent(real, root);
      if (first != null) {
        diagnostics.add(
            Diagnostic.of(
                DiagnosticCode.ROOT_DUPLICATE,
                "skill root "
                    + root.path()
                    + from(root)
                    + " is the same directory as "
                    + first.path()
                    + from(first)
                    + "; the first one ("
                    + first.scope().label()
                    + ") is used",
                root.path(),
                0,
                0));
        continue;
      }
      new Walk(root, real, i, skills, diagnostics, skillsSeen).run();
    }
    return new ScanResult(skills, diagnostics);
  }

  private static String from(SkillRoot root) {
    return root.origin().isEmpty() ? "" : " (from " + root.origin() + ")";
  }

  private static Path realDirectory(Path path) {
    try {
      Path real = path.toAbsolutePath().toRealPath();
      return Files.isDirectory(real) ? real : null;
    } catch (IOException | SecurityException e) {
      return null;
    }
  }

  /** One directory to visit and how deep it is below the root. */
  private record Visit(Path dir, int depth) {}

  /** The walk of one root. */
  private final class Walk {
    private final SkillRoot root;
    private final Path rootPath;
    private final int rootOrder;
    private final List<DiscoveredSkill> skills;
    private final List<Diagnostic> diagnostics;
    private final Map<Path, DiscoveredSkill> skillsSeen;
    private final Set<Path> visited = new HashSet<>();
    private Path firstTooDeep;

    /**
     * Whether file names under this root are case-sensitive, as the first {@code SKILL.md} found by
     * name tells; null before that.
     */
    private Boolean caseSensitive;

    Walk(
        SkillRoot root,
        Path rootPath,
        int rootOrder,
        List<DiscoveredSkill> skills,
        List<Diagnostic> diagnostics,
        Map<Path, DiscoveredSkill> skillsSeen) {
      this.root = root;
      this.rootPath = rootPath;
      this.rootOrder = rootOrder;
      this.skills = skills;
      this.diagnostics = diagnostics;
      this.skillsSeen = skillsSeen;
    }

    void run() {
      Deque<Visit> stack = new ArrayDeque<>();
      stack.push(new Visit(rootPath, 0));
      visited.add(rootPath);
      while (!stack.isEmpty()) {
        Visit visit = stack.pop();
        if (skillByName(visit.dir())) {
          continue;
        }
        TreeMap<String, Path> entries = list(visit.dir());
        if (entries == null) {
          continue;
        }
        if (isSkill(visit.dir(), entries)) {
          continue;
        }
        List<Path> children = subdirectories(entries);
        if (visit.depth() >= maxDepth) {
          if (!children.isEmpty() && firstTooDeep == null) {
            firstTooDeep = children.get(0);
          }
          continue;
        }
        // Pushed in reverse so that the stack pops them in name order.
        for (int i = children.size() - 1; i >= 0; i--) {
          stack.push(new Visit(children.get(i), visit.depth() + 1));
        }
      }
      if (firstTooDeep != null) {
        diagnostics.add(
            Diagnostic.of(
                DiagnosticCode.DISCOVERY_DEPTH_LIMIT,
                "discovery under "
                    + root.path()
                    + " stopped at depth "
                    + maxDepth
                    + "; deeper folders such as "
                    + firstTooDeep
                    + " were not searched",
                root.path(),
                0,
                0));
      }
    }

    /**
     * Records {@code dir} as a skill when {@code SKILL.md} is there, asked for by name: one stat
     * instead of listing the folder, and a skill folder is never listed otherwise. A name lookup
     * gives exactly the listing's answer only where names are case-sensitive, so the first hit
     * under a root checks that; where they are not, this answers false from then on and every
     * folder is listed. False also when there is no {@code SKILL.md}: the listing then looks for
     * {@code skill.md} and subfolders.
     */
    private boolean skillByName(Path dir) {
      if (Boolean.FALSE.equals(caseSensitive)) {
        return false;
      }
      Path file = dir.resolve(SKILL_FILE);
      BasicFileAttributes attributes = regularFile(file);
      if (attributes == null) {
        return false;
      }
      if (caseSensitive == null) {
        caseSensitive = !sameFile(file, dir.resolve(SKILL_FILE_OTHER_CASE));
        if (!caseSensitive) {
          return false;
        }
      }
      return record(dir, false, attributes);
    }

    /** Records {@code dir} as a skill when its listing holds a skill file; true when it does. */
    private boolean isSkill(Path dir, TreeMap<String, Path> entries) {
      BasicFileAttributes upper = regularFile(entries.get(SKILL_FILE));
      if (upper != null) {
        return record(dir, false, upper);
      }
      BasicFileAttributes lower = regularFile(entries.get(SKILL_FILE_LOWERCASE));
      return lower != null && record(dir, true, lower);
    }

    /**
     * Records {@code dir} as a skill whose file is {@code skill.md} when {@code lower} and has
     * {@code attributes}; true.
     */
    private boolean record(Path dir, boolean lower, BasicFileAttributes attributes) {
      Path file = dir.resolve(lower ? SKILL_FILE_LOWERCASE : SKILL_FILE);
      DiscoveredSkill earlier = skillsSeen.get(dir);
      if (earlier != null) {
        diagnostics.add(
            Diagnostic.of(
                DiagnosticCode.SKILL_DUPLICATE_PATH,
                "skill folder "
                    + dir
                    + " was reached again under root "
                    + root.path()
                    + "; it counts once, under root "
                    + earlier.root().path(),
                file,
                0,
                0));
        return true;
      }
      DiscoveredSkill found =
          new DiscoveredSkill(dir, file, root, rootPath, rootOrder, lower, attributes);
      skillsSeen.put(dir, found);
      skills.add(found);
      reportNested(dir);
      return true;
    }

    /**
     * Reports every folder below skill folder {@code skill} that holds a skill file, without
     * descending into such a folder. Listed with {@link java.io.File#list()}: one call per folder,
     * and skill folders rarely have more than a few subfolders.
     */
    private void reportNested(Path skill) {
      Deque<Visit> stack = new ArrayDeque<>();
      stack.push(new Visit(skill, 0));
      while (!stack.isEmpty()) {
        Visit visit = stack.pop();
        String[] names = visit.dir().toFile().list();
        if (names == null) {
          continue;
        }
        java.util.Arrays.sort(names);
        for (int i = names.length - 1; i >= 0; i--) {
          String name = names[i];
          if (name.startsWith(".") || name.equals("node_modules")) {
            continue;
          }
          Path child = visit.dir().resolve(name);
          if (!Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS)) {
            continue;
          }
          Path inner = child.resolve(SKILL_FILE);
          if (!Files.isRegularFile(inner, LinkOption.NOFOLLOW_LINKS)) {
            inner = child.resolve(SKILL_FILE_LOWERCASE);
          }
          if (Files.isRegularFile(inner, LinkOption.NOFOLLOW_LINKS)) {
            diagnostics.add(
                Diagnostic.of(
                    DiagnosticCode.SKILL_NESTED,
                    "folder "
                        + child
                        + " holds "
                        + inner.getFileName()
                        + " but lies inside skill folder "
                        + skill
                        + "; it is part of that skill, not a skill of its own",
                    inner,
                    0,
                    0));
          } else if (visit.depth() + 1 < NESTED_DEPTH) {
            stack.push(new Visit(child, visit.depth() + 1));
          }
        }
      }
    }

    /** The directories among {@code entries} to descend into, as real paths, in name order. */
    private List<Path> subdirectories(TreeMap<String, Path> entries) {
      List<Path> out = new ArrayList<>();
      for (Map.Entry<String, Path> e : entries.entrySet()) {
        String name = e.getKey();
        Path entry = e.getValue();
        if (name.startsWith(".") || name.equals("node_modules")) {
          continue;
        }
        Path target;
        if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
          target = entry;
        } else if (Files.isSymbolicLink(entry) && Files.isDirectory(entry)) {
          target = linkTarget(entry);
          if (target == null) {
            continue;
          }
        } else {
          continue;
        }
        if (visited.add(target)) {
          out.add(target);
        }
      }
      return out;
    }

    private Path linkTarget(Path link) {
      Path real;
      try {
        real = link.toRealPath();
      } catch (IOException | SecurityException e) {
        LOG.debug("cannot resolve directory link {}", link, e);
        return null;
      }
      if (!real.startsWith(rootPath)) {
        diagnostics.add(
            Diagnostic.of(
                DiagnosticCode.DISCOVERY_SYMLINK_SKIPPED,
                "directory link "
                    + link
                    + " points to "
                    + real
                    + ", outside root "
                    + root.path()
                    + "; it was not followed",
                link,
                0,
                0));
        return null;
      }
      return real;
    }

    private TreeMap<String, Path> list(Path dir) {
      TreeMap<String, Path> entries = new TreeMap<>();
      try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
        for (Path entry : stream) {
          entries.put(entry.getFileName().toString(), entry);
        }
        return entries;
      } catch (IOException | SecurityException e) {
        LOG.debug("cannot list {}", dir, e);
        return null;
      }
    }
  }

  /**
   * The attributes (links followed) of {@code path} when it is a regular file, else null: a FIFO,
   * device or socket named SKILL.md does not make a skill.
   */
  private static BasicFileAttributes regularFile(Path path) {
    if (path == null) {
      return null;
    }
    try {
      BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
      return a.isRegularFile() ? a : null;
    } catch (IOException | SecurityException e) {
      return null;
    }
  }

  /** Whether both paths name one existing file; false when either is missing or unreadable. */
  private static boolean sameFile(Path a, Path b) {
    try {
      return Files.isSameFile(a, b);
    } catch (IOException | SecurityException e) {
      return false;
    }
  }
}

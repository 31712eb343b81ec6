package dev.skillport.loader.sibling;

import dev.skillport.loader.files.FileKind;
import dev.skillport.loader.files.RefusedFileException;
import dev.skillport.loader.files.WholeFile;
import dev.skillport.loader.yaml.YamlLocation;
import dev.skillport.model.diagnostic.DiagnosticCode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Resolves the paths a skill's metadata and sibling files point at, keeping every one inside the
 * skill directory, and reads them as UTF-8 under a size cap.
 *
 * <p>A pointer is refused before touching the disk when it is absolute or has a {@code ..} segment;
 * after resolving, the real path (symbolic links followed) must still lie in the skill directory.
 * Globs use {@link PathMatcher} glob syntax relative to the skill directory; the walk does not
 * follow directory links and skips hidden entries, and every match is confined like a pointer.
 */
final class SiblingPaths {
  /** Deepest directory level a {@code **} glob descends to, below its literal prefix. */
  static final int MAX_GLOB_DEPTH = 12;

  /** Most files one glob or resource directory may yield; the rest are ignored. */
  static final int MAX_MATCHES = 2_000;

  private static final Pattern DRIVE = Pattern.compile("^[A-Za-z]:.*");

  private final SiblingContext ctx;
  private final Path skillDir;

  /** Whether {@link #skillDir} is a real path (no links in it), as {@link #confined} relies on. */
  private final boolean skillDirReal;

  /** The skill file, found when first asked for; see {@link #manifest}. */
  private Path manifest;

  /**
   * The last path {@link #locate} found that is not a link, and its attributes, so that reading it
   * right after need not look at it again (the read still checks the size of what it opens).
   */
  private Path lastSeen;

  private BasicFileAttributes lastSeenAttributes;

  SiblingPaths(SiblingContext ctx) {
    this.ctx = ctx;
    Path dir = ctx.skillDir().toAbsolutePath().normalize();
    boolean real = ctx.skillDirReal();
    if (!real) {
      try {
        dir = dir.toRealPath();
        real = true;
      } catch (IOException e) {
        // Keep the lexical path: every lookup below will then report the file as missing.
      }
    }
    this.skillDir = dir;
    this.skillDirReal = real;
  }

  Path skillDir() {
    return skillDir;
  }

  /** The SKILL.md the metadata pointers were read from, for diagnostics about a pointer. */
  Path manifest() {
    if (manifest == null) {
      Path upper = skillDir.resolve("SKILL.md");
      Path lower = skillDir.resolve("skill.md");
      manifest = !Files.exists(upper) && Files.exists(lower) ? lower : upper;
    }
    return manifest;
  }

  /**
   * The attributes of {@code p} itself, not of what a link at {@code p} points to; null when
   * nothing is there (or it cannot be read). One lstat that answers both "is it there" and "is it a
   * link".
   */
  static BasicFileAttributes ownAttributes(Path p) {
    try {
      return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException | SecurityException e) {
      return null;
    }
  }

  /** The path of {@code file} relative to the skill directory, with {@code /} separators. */
  String relative(Path file) {
    return skillDir.relativize(file).toString().replace('\\', '/');
  }

  /** Where a pointer leads, decided without reporting anything. */
  sealed interface Located {
    /** An existing file or directory inside the skill. */
    record Found(Path path) implements Located {}

    /** Nothing there (or a link to nothing inside the skill). */
    record Missing(Path path) implements Located {}

    /** The pointer leaves the skill directory; {@code why} is a phrase for the author. */
    record Escapes(String why) implements Located {}

    /** The pointer is not a usable path at all. */
    record Invalid(String why) implements Located {}
  }

  /** Resolves {@code pointer} against {@code base} (a directory inside the skill). */
  Located locate(Path base, String pointer) {
    String p = pointer == null ? "" : pointer.strip();
    if (p.isEmpty()) {
      return new Located.Invalid("the path is empty");
    }
    String lexicalProblem = lexicalEscape(p);
    if (lexicalProblem != null) {
      return new Located.Escapes(lexicalProblem);
    }
    Path resolved;
    try {
      resolved = base.resolve(p).normalize();
    } catch (InvalidPathException e) {
      return new Located.Invalid("'" + p + "' is not a valid path");
    }
    if (!resolved.startsWith(skillDir)) {
      return new Located.Escapes("it resolves outside the skill directory");
    }
    BasicFileAttributes own = ownAttributes(resolved);
    if (own != null && !own.isSymbolicLink()) {
      // Not a link: what lstat saw is what reading the file will look at.
      lastSeen = resolved;
      lastSeenAttributes = own;
    }
    // Something that is not a link exists exactly when lstat finds it; a link exists when its
    // target does.
    if (own != null && (!own.isSymbolicLink() || Files.exists(resolved))) {
      return confined(resolved, own)
          ? new Located.Found(resolved)
          : new Located.Escapes("a symbolic link takes it outside the skill directory");
    }
    return escapesWhileMissing(resolved)
        ? new Located.Escapes("a symbolic link takes it outside the skill directory")
        : new Located.Missing(resolved);
  }

  /**
   * Resolves a pointer written in {@code reportFile} at {@code at} and reports why it cannot be
   * used: escaping is always {@code SIBLING_ESCAPES}; a missing target is {@code missingCode}.
   *
   * @param what a noun phrase for messages ({@code "tools file"})
   */
  Optional<Path> resolve(
      Path base,
      String pointer,
      String what,
      Path reportFile,
      YamlLocation at,
      DiagnosticCode missingCode) {
    Located located = locate(base, pointer);
    if (located instanceof Located.Found found) {
      return Optional.of(found.path());
    }
    if (located instanceof Located.Escapes escapes) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.SIBLING_ESCAPES,
              "The " + what + " '" + pointer + "' is refused: " + escapes.why() + ".",
              reportFile,
              at,
              "Keep sibling files inside the skill folder and name them relative to it.");
    } else if (located instanceof Located.Invalid invalid) {
      ctx.diagnostics()
          .report(
              missingCode,
              "The " + what + " path is unusable: " + invalid.why() + ".",
              reportFile,
              at,
              null);
    } else {
      ctx.diagnostics()
          .report(
              missingCode,
              "The " + what + " '" + pointer + "' does not exist in the skill folder.",
              reportFile,
              at,
              null);
    }
    return Optional.empty();
  }

  /**
   * {@link #resolve} against the skill directory, for pointers written in SKILL.md under {@code
   * metadata.dcc-mcp.<key>}; problems carry that key's line.
   */
  Optional<Path> resolveFromManifest(String key, String pointer, String what) {
    return resolve(skillDir, pointer, what, manifest(), at(key), DiagnosticCode.SIBLING_MISSING);
  }

  /** Where SKILL.md writes {@code metadata.dcc-mcp.<key>}. */
  YamlLocation at(String key) {
    return ctx.manifestKeys().dccKey(key);
  }

  /** Whether {@code pointer} holds glob syntax ({@code * ? [ {}). */
  static boolean isGlob(String pointer) {
    for (int i = 0; i < pointer.length(); i++) {
      char c = pointer.charAt(i);
      if (c == '*' || c == '?' || c == '[' || c == '{') {
        return true;
      }
    }
    return false;
  }

  /**
   * Expands comma-separated globs or plain paths (written in SKILL.md) into existing regular files,
   * sorted by their path relative to the skill directory and without duplicates.
   */
  List<Path> expand(String key, String patterns, String what) {
    TreeMap<String, Path> found = new TreeMap<>();
    for (String raw : splitList(patterns)) {
      if (!isGlob(raw)) {
        resolveFromManifest(key, raw, what)
            .filter(this::isRegularFileOrReport)
            .ifPresent(p -> found.put(relative(p), p));
        continue;
      }
      Optional<List<Path>> globbed = glob(key, raw, what);
      if (globbed.isEmpty()) {
        continue;
      }
      List<Path> matches = globbed.get();
      if (matches.isEmpty()) {
        ctx.diagnostics()
            .report(
                DiagnosticCode.SIBLING_GLOB_EMPTY,
                "The " + what + " glob '" + raw + "' matches no file.",
                manifest(),
                at(key),
                "Globs are relative to the skill folder, e.g. prompts/*.prompt.yaml.");
      }
      matches.forEach(p -> found.put(relative(p), p));
    }
    return List.copyOf(found.values());
  }

  private boolean isRegularFileOrReport(Path p) {
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(p, BasicFileAttributes.class);
    } catch (IOException e) {
      a = null;
    }
    if (a != null && a.isRegularFile()) {
      return true;
    }
    reportNotRegular(p, a == null ? FileKind.OTHER : FileKind.of(p, a));
    return false;
  }

  /** Reports a sibling that is a FIFO, device, socket or folder: it is never opened. */
  void reportNotRegular(Path p, FileKind kind) {
    ctx.diagnostics()
        .report(
            DiagnosticCode.SIBLING_UNREADABLE,
            "'"
                + relative(p)
                + "' is "
                + kind.phrase()
                + ", not a regular file; it was not opened.",
            p,
            YamlLocation.UNKNOWN,
            "Replace it with a regular file.");
  }

  /** Splits a comma-separated list, dropping blanks. */
  static List<String> splitList(String value) {
    List<String> out = new ArrayList<>();
    if (value == null) {
      return out;
    }
    for (String part : value.split(",")) {
      String s = part.strip();
      if (!s.isEmpty()) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * The regular files matching one glob, confined and sorted; empty when the pattern itself was
   * refused (reported).
   */
  private Optional<List<Path>> glob(String key, String pattern, String what) {
    String norm = pattern.strip().replace('\\', '/');
    while (norm.startsWith("./")) {
      norm = norm.substring(2);
    }
    String problem = lexicalEscape(norm);
    if (problem != null) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.SIBLING_ESCAPES,
              "The " + what + " glob '" + pattern + "' is refused: " + problem + ".",
              manifest(),
              at(key),
              "Keep sibling files inside the skill folder and name them relative to it.");
      return Optional.empty();
    }
    PathMatcher matcher;
    try {
      matcher = FileSystems.getDefault().getPathMatcher("glob:" + norm);
    } catch (IllegalArgumentException e) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.DCC_MCP_VALUE_INVALID,
              "The " + what + " glob '" + pattern + "' is not valid glob syntax.",
              manifest(),
              at(key),
              null);
      return Optional.empty();
    }
    String[] segments = norm.split("/");
    int literal = 0;
    while (literal < segments.length - 1 && !isGlob(segments[literal])) {
      literal++;
    }
    Path start = skillDir;
    for (int i = 0; i < literal; i++) {
      start = start.resolve(segments[i]);
    }
    if (!Files.isDirectory(start)) {
      return Optional.of(List.of());
    }
    if (!confined(start)) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.SIBLING_ESCAPES,
              "The "
                  + what
                  + " glob '"
                  + pattern
                  + "' is refused: a symbolic link takes '"
                  + relative(start)
                  + "' outside the skill directory.",
              manifest(),
              at(key),
              "Keep sibling files inside the skill folder instead of linking to them.");
      return Optional.empty();
    }
    int depth = norm.contains("**") ? MAX_GLOB_DEPTH : segments.length - literal;
    List<Path> out = new ArrayList<>();
    walk(start, depth, p -> matcher.matches(skillDir.relativize(p)), out, what);
    return Optional.of(out);
  }

  /** Every regular file under {@code dir} (recursive, hidden entries skipped), sorted. */
  List<Path> filesUnder(Path dir, String what) {
    List<Path> out = new ArrayList<>();
    walk(dir, MAX_GLOB_DEPTH, p -> true, out, what);
    return out;
  }

  private void walk(
      Path start,
      int depth,
      java.util.function.Predicate<Path> accept,
      List<Path> out,
      String what) {
    TreeMap<String, Path> sorted = new TreeMap<>();
    try {
      Files.walkFileTree(
          start,
          EnumSet.noneOf(java.nio.file.FileVisitOption.class),
          depth,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
              return !dir.equals(start) && hidden(dir)
                  ? FileVisitResult.SKIP_SUBTREE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              if (hidden(file) || attrs.isDirectory() || !accept.test(file)) {
                return FileVisitResult.CONTINUE;
              }
              if (attrs.isSymbolicLink() && !confined(file)) {
                reportEscapingLink(file, what);
              } else if (Files.isRegularFile(file)) {
                sorted.put(relative(file), file);
              } else if (attrs.isOther()) {
                reportNotRegular(file, FileKind.of(file, attrs, LinkOption.NOFOLLOW_LINKS));
              }
              return sorted.size() >= MAX_MATCHES
                  ? FileVisitResult.TERMINATE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException exc) {
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.SIBLING_UNREADABLE,
              "Could not list '" + relative(start) + "': " + e.getClass().getSimpleName() + ".",
              start,
              YamlLocation.UNKNOWN,
              null);
    }
    out.addAll(sorted.values());
  }

  private void reportEscapingLink(Path file, String what) {
    ctx.diagnostics()
        .report(
            DiagnosticCode.SIBLING_ESCAPES,
            "The "
                + what
                + " '"
                + relative(file)
                + "' is refused: a symbolic link takes it outside the skill directory.",
            file,
            YamlLocation.UNKNOWN,
            "Copy the file into the skill folder instead of linking to it.");
  }

  private static boolean hidden(Path p) {
    Path name = p.getFileName();
    return name != null && name.toString().startsWith(".");
  }

  /** Whether the real path of an existing {@code p} lies inside the skill directory. */
  boolean confined(Path p) {
    return confined(p, null);
  }

  /**
   * {@link #confined(Path)} for a {@code p} whose own attributes ({@link #ownAttributes}) are
   * already known, which spares looking at {@code p} again; null when they are not.
   */
  boolean confined(Path p, BasicFileAttributes own) {
    if (skillDirReal && noLinkBelowSkillDir(p, own)) {
      // The skill directory is real and nothing between it and p is a link: p's real path is p.
      return true;
    }
    try {
      return p.toRealPath().startsWith(skillDir);
    } catch (IOException e) {
      return !escapesWhileMissing(p);
    }
  }

  /**
   * True when {@code p} is a normalized path inside the skill directory and none of its names below
   * the skill directory is a symbolic link; one lstat per name instead of resolving the whole path
   * from the file system root.
   */
  private boolean noLinkBelowSkillDir(Path p, BasicFileAttributes own) {
    if (!p.isAbsolute() || !p.startsWith(skillDir) || !p.equals(p.normalize())) {
      return false;
    }
    Path from = p;
    if (own != null && !p.equals(skillDir)) {
      if (own.isSymbolicLink()) {
        return false;
      }
      from = p.getParent();
    }
    for (Path q = from; !q.equals(skillDir); q = q.getParent()) {
      if (q == null || Files.isSymbolicLink(q)) {
        return false;
      }
    }
    return true;
  }

  /**
   * For a path that does not exist: whether a link on the way (a dangling leaf link, or the deepest
   * existing ancestor) already points outside the skill directory.
   */
  private boolean escapesWhileMissing(Path resolved) {
    if (Files.isSymbolicLink(resolved)) {
      try {
        Path target = Files.readSymbolicLink(resolved);
        Path parent = resolved.getParent();
        Path abs = (parent == null ? target : parent.resolve(target)).normalize();
        if (!abs.startsWith(skillDir)) {
          return true;
        }
      } catch (IOException | UnsupportedOperationException e) {
        return true;
      }
    }
    Path ancestor = resolved.getParent();
    while (ancestor != null && !Files.exists(ancestor)) {
      ancestor = ancestor.getParent();
    }
    if (ancestor == null) {
      return true;
    }
    try {
      return !ancestor.toRealPath().startsWith(skillDir);
    } catch (IOException e) {
      return true;
    }
  }

  /** Why a pointer leaves the skill directory on its face, or null. */
  private static String lexicalEscape(String p) {
    if (p.indexOf('\0') >= 0) {
      return "it contains a NUL character";
    }
    if (p.startsWith("/")
        || p.startsWith("\\")
        || (p.length() >= 2 && p.charAt(1) == ':' && DRIVE.matcher(p).matches())
        || p.startsWith("~")) {
      return "it is an absolute path";
    }
    // Segments between '/' or '\\', scanned without a regular expression per call.
    int start = 0;
    for (int i = 0; i <= p.length(); i++) {
      if (i == p.length() || p.charAt(i) == '/' || p.charAt(i) == '\\') {
        if (i - start == 2 && p.startsWith("..", start)) {
          return "it has a '..' segment";
        }
        start = i + 1;
      }
    }
    return null;
  }

  /**
   * True when the first {@code length} bytes are ASCII, which decodes the same as Latin-1 and
   * UTF-8.
   */
  private static boolean ascii(byte[] bytes, int length) {
    for (int i = 0; i < length; i++) {
      if (bytes[i] < 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Reads a sibling file as UTF-8 (a leading byte order mark is dropped). Reports {@code
   * SIBLING_TOO_LARGE} past the YAML size limit (counted in bytes, a safe upper bound of
   * characters) and {@code SIBLING_UNREADABLE} on I/O errors or invalid UTF-8.
   */
  Optional<String> readText(Path file) {
    long cap = ctx.limits().maxChars();
    BasicFileAttributes known = file.equals(lastSeen) ? lastSeenAttributes : null;
    lastSeen = null;
    lastSeenAttributes = null;
    try {
      WholeFile.Snapshot read = WholeFile.read(file, known, cap);
      if (read.bytes() == null && read.size() <= cap) {
        // It changed while it was read: once more, within the limit again.
        read = WholeFile.read(file, cap);
      }
      if (read.size() > cap) {
        ctx.diagnostics()
            .report(
                DiagnosticCode.SIBLING_TOO_LARGE,
                "'" + relative(file) + "' is " + read.size() + " bytes; the limit is " + cap + ".",
                file,
                YamlLocation.UNKNOWN,
                null);
        return Optional.empty();
      }
      if (read.bytes() == null) {
        ctx.diagnostics()
            .report(
                DiagnosticCode.SIBLING_UNREADABLE,
                "'" + relative(file) + "' kept changing while it was read.",
                file,
                YamlLocation.UNKNOWN,
                "Load again once the file is written.");
        return Optional.empty();
      }
      byte[] bytes = read.bytes();
      int length = read.length();
      String text =
          ascii(bytes, length)
              ? new String(bytes, 0, length, StandardCharsets.ISO_8859_1)
              : StandardCharsets.UTF_8
                  .newDecoder()
                  .onMalformedInput(CodingErrorAction.REPORT)
                  .onUnmappableCharacter(CodingErrorAction.REPORT)
                  .decode(ByteBuffer.wrap(bytes, 0, length))
                  .toString();
      return Optional.of(text.startsWith("\uFEFF") ? text.substring(1) : text);
    } catch (RefusedFileException e) {
      reportNotRegular(file, e.kind());
    } catch (CharacterCodingException e) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.SIBLING_UNREADABLE,
              "'" + relative(file) + "' is not valid UTF-8.",
              file,
              YamlLocation.UNKNOWN,
              "Save the file as UTF-8.");
    } catch (IOException e) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.SIBLING_UNREADABLE,
              "'" + relative(file) + "' could not be read (" + e.getClass().getSimpleName() + ").",
              file,
              YamlLocation.UNKNOWN,
              null);
    }
    return Optional.empty();
  }
}

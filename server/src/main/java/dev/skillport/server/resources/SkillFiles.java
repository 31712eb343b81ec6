package dev.skillport.server.resources;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.skillport.api.resource.ResourceContents;
import dev.skillport.loader.files.RefusedFileException;
import dev.skillport.loader.files.RegularFiles;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.registry.Catalog;
import dev.skillport.runtime.secrets.Redactor;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLConnection;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of a skill folder as {@code skill://<skill>/<path>} resources: which files count, how
 * URIs map to paths (never leaving the folder), their MIME types, and how their bytes are served.
 *
 * <p>A file counts when it is a regular file of at most {@link #MAX_SERVED_BYTES} inside the folder
 * whose path has no hidden segment (a name starting with {@code .}); symbolic links that lead
 * outside the folder do not count, and a FIFO, device or socket is never opened.
 */
public final class SkillFiles {
  /** The URI scheme of skill files. */
  public static final String SCHEME = "skill";

  /** The largest file served: read, listed, digested or embedded in a prompt. */
  public static final long MAX_SERVED_BYTES = 8L * 1024 * 1024;

  private static final int MAX_DEPTH = 16;
  private static final int MAX_FILES = 10_000;

  /** The most directory entries one listing looks at, served or not. */
  private static final int MAX_ENTRIES = 20_000;

  private static final Logger LOG = LoggerFactory.getLogger(SkillFiles.class);

  /**
   * Digests and sizes of served views by file identity, size, modification time and the redactor's
   * generation, so an unchanged file is read and hashed once.
   */
  private static final Cache<Stamp, Served> DIGESTS =
      Caffeine.newBuilder().maximumSize(50_000).build();

  // Only what the JDK's own table lacks or names differently; the rest comes from the JDK.
  private static final Map<String, String> MIME_TYPES =
      Map.of(
          "yaml", "application/yaml",
          "yml", "application/yaml",
          "toml", "application/toml",
          "py", "text/x-python",
          "mjs", "text/javascript",
          "sh", "text/x-shellscript",
          "wav", "audio/wav");

  private SkillFiles() {}

  /** A parsed {@code skill://} URI: the skill name and the path inside its folder ("" = root). */
  public record Ref(String skill, String path) {}

  /** {@code skill://<skill>/<relative path>}, percent-encoded where needed. */
  public static String uri(String skill, String relativePath) {
    String path = relativePath.isEmpty() ? "" : "/" + relativePath;
    try {
      return new URI(SCHEME, skill, path, null, null).toASCIIString();
    } catch (URISyntaxException e) {
      // Skill names are URI-safe; only an odd path can get here, so encode the space at least.
      return SCHEME + "://" + skill + path.replace(" ", "%20");
    }
  }

  /** The URI of a file of a skill folder. */
  public static String uri(String skill, Path skillDir, Path file) {
    return uri(skill, relative(skillDir, file));
  }

  /** The slash-separated path of {@code file} relative to {@code skillDir}. */
  public static String relative(Path skillDir, Path file) {
    return skillDir.relativize(file).toString().replace('\\', '/');
  }

  /** Splits a {@code skill://} URI; empty for another scheme or a malformed URI. */
  public static Optional<Ref> parse(String uri) {
    try {
      URI u = new URI(uri);
      if (!SCHEME.equalsIgnoreCase(u.getScheme()) || u.getAuthority() == null) {
        return Optional.empty();
      }
      if (u.getQuery() != null || u.getFragment() != null) {
        return Optional.empty();
      }
      String path = u.getPath() == null ? "" : u.getPath();
      while (path.startsWith("/")) {
        path = path.substring(1);
      }
      while (path.endsWith("/")) {
        path = path.substring(0, path.length() - 1);
      }
      return Optional.of(new Ref(u.getAuthority(), path));
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
  }

  /**
   * The path behind {@code relativePath} when it names something inside {@code skillDir} that
   * counts (no {@code ..}, no hidden segment, no NUL, no link leading outside); the folder itself
   * for "".
   */
  public static Optional<Path> resolve(Path skillDir, String relativePath) {
    if (relativePath.startsWith("/")
        || relativePath.contains("\\")
        || relativePath.indexOf('\0') >= 0) {
      return Optional.empty();
    }
    Path target = skillDir;
    if (!relativePath.isEmpty()) {
      for (String segment : relativePath.split("/", -1)) {
        if (segment.isEmpty() || segment.equals("..") || segment.startsWith(".")) {
          return Optional.empty();
        }
        try {
          target = target.resolve(segment);
        } catch (InvalidPathException e) {
          return Optional.empty();
        }
      }
    }
    return isInside(skillDir, target) ? Optional.of(target) : Optional.empty();
  }

  /**
   * {@link #resolve} for a path written relative to {@code baseDir}, a folder inside {@code
   * skillDir} (a prompt file's folder). {@code ..} may climb towards the skill folder but not out
   * of it; the path it comes to is then held to the same rules, so it cannot name a hidden file or
   * leave the skill through a link.
   */
  public static Optional<Path> resolveFrom(Path skillDir, Path baseDir, String writtenPath) {
    if (writtenPath.isEmpty()
        || writtenPath.indexOf('\0') >= 0
        || writtenPath.startsWith("/")
        || writtenPath.contains("\\")) {
      return Optional.empty();
    }
    Path dir = skillDir.toAbsolutePath().normalize();
    Path target;
    try {
      target = baseDir.toAbsolutePath().normalize().resolve(writtenPath).normalize();
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
    if (!target.startsWith(dir) || target.equals(dir)) {
      return Optional.empty();
    }
    return resolve(skillDir, dir.relativize(target).toString().replace('\\', '/'));
  }

  /** Whether {@code file} exists and, links followed, stays inside {@code skillDir}. */
  public static boolean isInside(Path skillDir, Path file) {
    try {
      return Files.exists(file)
          && file.toRealPath().startsWith(skillDir.toRealPath())
          && file.toAbsolutePath().normalize().startsWith(skillDir.toAbsolutePath().normalize());
    } catch (IOException | InvalidPathException e) {
      return false;
    }
  }

  /**
   * Every file of the skill folder that counts, sorted by relative path: regular files of at most
   * {@link #MAX_SERVED_BYTES}, never a FIFO, device or socket. The walk never follows a link out of
   * the folder, visits each directory once (so a link cycle ends), looks at no more than {@link
   * #MAX_ENTRIES} entries and yields at most {@link #MAX_FILES} files. It never throws: what cannot
   * be listed is left out.
   */
  public static List<Path> files(Path skillDir) {
    return entries(skillDir).stream().map(Entry::path).toList();
  }

  /** A served file and its attributes (links followed) as the walk saw them. */
  public record Entry(Path path, BasicFileAttributes attributes) {}

  /** {@link #files}, each with the attributes the walk read, so nothing looks at it again. */
  public static List<Entry> entries(Path skillDir) {
    Walk walk = new Walk(skillDir);
    walk.run();
    List<Entry> out = walk.files;
    out.sort((a, b) -> relative(skillDir, a.path()).compareTo(relative(skillDir, b.path())));
    return out;
  }

  /** The direct children of a directory of a skill folder that count, sorted by name. */
  public static List<Path> children(Path skillDir, Path directory) throws IOException {
    Path realDir = skillDir.toRealPath();
    List<Path> out = new ArrayList<>();
    int seen = 0;
    try (DirectoryStream<Path> list = Files.newDirectoryStream(directory)) {
      for (Path p : list) {
        if (++seen > MAX_ENTRIES) {
          break;
        }
        if (p.getFileName().toString().startsWith(".")) {
          continue;
        }
        BasicFileAttributes a = servable(p, realDir);
        if (a != null) {
          out.add(p);
        }
      }
    }
    out.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
    return out;
  }

  /**
   * The attributes (links followed) of {@code p} when it is a directory or a regular file of at
   * most {@link #MAX_SERVED_BYTES} that stays inside the folder whose real path is {@code realDir};
   * null otherwise.
   */
  private static BasicFileAttributes servable(Path p, Path realDir) {
    try {
      BasicFileAttributes own =
          Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      BasicFileAttributes a = own;
      if (own.isSymbolicLink()) {
        if (!p.toRealPath().startsWith(realDir)) {
          return null;
        }
        a = Files.readAttributes(p, BasicFileAttributes.class);
      }
      if (a.isDirectory() || (a.isRegularFile() && a.size() <= MAX_SERVED_BYTES)) {
        return a;
      }
      LOG.debug(
          "{} is not served: {} of {} bytes",
          p,
          a.isRegularFile() ? "a file" : "no file",
          a.size());
      return null;
    } catch (IOException | SecurityException e) {
      return null;
    }
  }

  /** One walk of a skill folder; see {@link #files}. */
  private static final class Walk {
    private final Path skillDir;
    private final List<Entry> files = new ArrayList<>();
    private final Set<Object> visited = new HashSet<>();
    private Path realDir;
    private int seen;

    Walk(Path skillDir) {
      this.skillDir = skillDir;
    }

    void run() {
      try {
        realDir = skillDir.toRealPath();
        BasicFileAttributes a = Files.readAttributes(realDir, BasicFileAttributes.class);
        visited.add(key(realDir, a));
      } catch (IOException | SecurityException e) {
        LOG.debug("cannot list the files of {}", skillDir, e);
        return;
      }
      visit(skillDir, 1);
    }

    private boolean full() {
      return seen >= MAX_ENTRIES || files.size() >= MAX_FILES;
    }

    private void visit(Path dir, int depth) {
      List<Path> entries = new ArrayList<>();
      try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
        for (Path p : stream) {
          entries.add(p);
          if (++seen >= MAX_ENTRIES) {
            LOG.warn(
                "{} holds more than {} entries; the rest are not served", skillDir, MAX_ENTRIES);
            break;
          }
        }
      } catch (IOException | SecurityException e) {
        LOG.debug("cannot list {}", dir, e);
        return;
      }
      for (Path p : entries) {
        if (files.size() >= MAX_FILES) {
          return;
        }
        if (p.getFileName().toString().startsWith(".")) {
          continue;
        }
        BasicFileAttributes a = servable(p, realDir);
        if (a == null) {
          continue;
        }
        if (a.isRegularFile()) {
          files.add(new Entry(p, a));
        } else if (depth < MAX_DEPTH && !full() && visited.add(key(p, a))) {
          visit(p, depth + 1);
        }
      }
    }

    /** What identifies a directory however it is reached: its file key, else its real path. */
    private static Object key(Path dir, BasicFileAttributes a) {
      Object key = a.fileKey();
      if (key != null) {
        return key;
      }
      try {
        return dir.toRealPath();
      } catch (IOException e) {
        return dir.toAbsolutePath().normalize();
      }
    }
  }

  /**
   * The skills whose files are served: every skill of the snapshot that answers to its own name
   * (shadowed skills are left out, whatever their state), unless the operator denies it.
   */
  public static List<Skill> discoverable(Catalog catalog) {
    List<Skill> out = new ArrayList<>();
    for (Skill s : catalog.skills()) {
      if (isServed(s) && catalog.skill(s.name()).orElse(null) == s) {
        out.add(s);
      }
    }
    return out;
  }

  /** Whether a skill's files may be served: neither shadowed nor denied by the operator. */
  public static boolean isServed(Skill s) {
    return s.state() != SkillState.SHADOWED && s.state() != SkillState.DENIED;
  }

  /** The MIME type for a file name, {@code application/octet-stream} when unknown. */
  public static String mimeType(Path file) {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    String ext = dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
    String known = MIME_TYPES.get(ext);
    if (known != null) {
      return known;
    }
    String guessed = URLConnection.guessContentTypeFromName(name);
    return guessed == null ? "application/octet-stream" : guessed;
  }

  /** Whether contents of this MIME type are served as {@code text}. */
  public static boolean isTextType(String mimeType) {
    if (mimeType == null) {
      return false;
    }
    String m = mimeType.toLowerCase(Locale.ROOT);
    int semi = m.indexOf(';');
    if (semi >= 0) {
      m = m.substring(0, semi).strip();
    }
    return m.startsWith("text/")
        || m.endsWith("+json")
        || m.endsWith("+xml")
        || m.equals("application/json")
        || m.equals("application/yaml")
        || m.equals("application/toml")
        || m.equals("application/xml")
        || m.equals("application/javascript");
  }

  /**
   * Contents for exactly these bytes: {@code text} when the type is textual and the bytes are valid
   * UTF-8 (so the text encodes back to the same bytes), otherwise a base64 {@code blob}.
   */
  public static ResourceContents contents(String uri, String mimeType, byte[] bytes) {
    if (isTextType(mimeType)) {
      try {
        String text =
            StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
        return ResourceContents.text(uri, mimeType, text);
      } catch (CharacterCodingException e) {
        // Not UTF-8: serve the exact bytes instead of a lossy decoding.
        return ResourceContents.binary(uri, mimeType, bytes);
      }
    }
    return ResourceContents.binary(uri, mimeType, bytes);
  }

  /**
   * What tells a served view changed: where the file is, which file it is, its size and time, and
   * which secrets the redactor knew.
   */
  private record Stamp(
      Path path, Object fileKey, long size, FileTime modified, long redactorGeneration) {}

  /** The digest and size of a served view. */
  private record Served(String digest, long size) {}

  /**
   * The bytes of a file as it is served: a regular file of at most {@link #MAX_SERVED_BYTES}, with
   * secrets redacted ({@link Redactor#file}) when it is textual. Every channel that shows a skill
   * file (resources, prompts, the Skills extension's digests) reads it through here.
   *
   * @throws RefusedFileException when it is no regular file or is too large
   */
  public static byte[] read(Path file) throws IOException {
    byte[] raw = RegularFiles.readAll(file, MAX_SERVED_BYTES);
    return Redactor.shared().file(file, isTextType(mimeType(file)), raw);
  }

  /**
   * {@code sha256:<hex>} of a file as {@link #read} serves it, remembered while the file keeps its
   * identity, size and modification time and the redactor learns no new secret.
   *
   * @throws RefusedFileException when it is no regular file or is too large
   */
  public static String digest(Path file) throws IOException {
    return served(file, RegularFiles.check(file, MAX_SERVED_BYTES)).digest();
  }

  /**
   * {@link #digest(Path)} of a file whose attributes (links followed) were just read, as {@link
   * #entries} gives them; reading still checks that the file it opens has that size.
   */
  public static String digest(Path file, BasicFileAttributes a) throws IOException {
    return served(file, a).digest();
  }

  /**
   * The size in bytes of a file as {@link #read} serves it, for attributes as {@link #entries}
   * gives them.
   *
   * @throws RefusedFileException when it is no regular file or is too large
   */
  public static long servedSize(Path file, BasicFileAttributes a) throws IOException {
    return served(file, a).size();
  }

  private static Served served(Path file, BasicFileAttributes a) throws IOException {
    if (!a.isRegularFile() || a.size() > MAX_SERVED_BYTES) {
      a = RegularFiles.check(file, MAX_SERVED_BYTES);
    }
    long generation = Redactor.shared().generation();
    Stamp stamp =
        new Stamp(
            file.toAbsolutePath().normalize(),
            a.fileKey(),
            a.size(),
            a.lastModifiedTime(),
            generation);
    Served known = DIGESTS.getIfPresent(stamp);
    if (known != null) {
      return known;
    }
    Served served;
    if (isTextType(mimeType(file))) {
      byte[] view = read(file);
      served = new Served(digest(view), view.length);
    } else {
      // Served as they are: hashed in chunks, so memory does not grow with the file.
      served =
          new Served(
              "sha256:" + HexFormat.of().formatHex(RegularFiles.sha256(file, a.size())), a.size());
    }
    DIGESTS.put(stamp, served);
    return served;
  }

  /** {@code sha256:<64 lowercase hex digits>} of the bytes. */
  public static String digest(byte[] bytes) {
    try {
      return "sha256:"
          + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}

package dev.skillport.server.resources;

import dev.skillport.api.resource.ResourceContents;
import dev.skillport.api.skill.Skill;
import dev.skillport.api.skill.SkillState;
import dev.skillport.registry.Catalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLConnection;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The files of a skill folder as {@code skill://<skill>/<path>} resources: which files count, how
 * URIs map to paths (never leaving the folder), their MIME types, and how their bytes are served.
 *
 * <p>A file counts when it is a regular file inside the folder whose path has no hidden segment (a
 * name starting with {@code .}); symbolic links that lead outside the folder do not count.
 */
public final class SkillFiles {
  /** The URI scheme of skill files. */
  public static final String SCHEME = "skill";

  private static final int MAX_DEPTH = 16;
  private static final int MAX_FILES = 10_000;
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
   * counts (no {@code ..}, no hidden segment, no link leading outside); the folder itself for "".
   */
  public static Optional<Path> resolve(Path skillDir, String relativePath) {
    if (relativePath.startsWith("/") || relativePath.contains("\\")) {
      return Optional.empty();
    }
    Path target = skillDir;
    if (!relativePath.isEmpty()) {
      for (String segment : relativePath.split("/", -1)) {
        if (segment.isEmpty() || segment.equals("..") || segment.startsWith(".")) {
          return Optional.empty();
        }
        target = target.resolve(segment);
      }
    }
    return isInside(skillDir, target) ? Optional.of(target) : Optional.empty();
  }

  /** Whether {@code file} exists and, links followed, stays inside {@code skillDir}. */
  public static boolean isInside(Path skillDir, Path file) {
    try {
      return Files.exists(file)
          && file.toRealPath().startsWith(skillDir.toRealPath())
          && file.toAbsolutePath().normalize().startsWith(skillDir.toAbsolutePath().normalize());
    } catch (IOException e) {
      return false;
    }
  }

  /** Every file of the skill folder that counts, sorted by relative path. */
  public static List<Path> files(Path skillDir) throws IOException {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(skillDir, MAX_DEPTH, FileVisitOption.FOLLOW_LINKS)) {
      walk.filter(p -> !p.equals(skillDir))
          .filter(p -> !hasHiddenSegment(skillDir, p))
          .filter(p -> Files.isRegularFile(p))
          .filter(p -> isInside(skillDir, p))
          .limit(MAX_FILES)
          .forEach(out::add);
    } catch (UncheckedIOException e) {
      // A link loop or a folder vanishing mid-walk: report it like any other read failure.
      throw e.getCause();
    }
    out.sort((a, b) -> relative(skillDir, a).compareTo(relative(skillDir, b)));
    return out;
  }

  /** The direct children of a directory of a skill folder that count, sorted by name. */
  public static List<Path> children(Path skillDir, Path directory) throws IOException {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> list = Files.list(directory)) {
      list.filter(p -> !p.getFileName().toString().startsWith("."))
          .filter(p -> Files.isRegularFile(p) || Files.isDirectory(p))
          .filter(p -> isInside(skillDir, p))
          .forEach(out::add);
    }
    out.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
    return out;
  }

  private static boolean hasHiddenSegment(Path skillDir, Path p) {
    for (Path segment : skillDir.relativize(p)) {
      if (segment.toString().startsWith(".")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The skills whose files are served: every skill of the snapshot that answers to its own name
   * (shadowed skills are left out, whatever their state).
   */
  public static List<Skill> discoverable(Catalog catalog) {
    List<Skill> out = new ArrayList<>();
    for (Skill s : catalog.skills()) {
      if (s.state() != SkillState.SHADOWED && catalog.skill(s.name()).orElse(null) == s) {
        out.add(s);
      }
    }
    return out;
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

package dev.skillport.bridge;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.skillport.model.skill.McpBridgeSpec;
import dev.skillport.model.skill.Skill;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Reads a bridge's {@link BridgeFingerprint} from disk: resolves its command to a program as the
 * server would start it, and digests the program, each file an argument names and every file of the
 * skill's folder. Bounded: a folder of more than {@value #MAX_FILES} files or {@value
 * #MAX_FOLDER_MIB} MiB, a program or argument file over {@value #MAX_PROGRAM_MIB} MiB, a folder
 * nested deeper than {@value #MAX_DEPTH} levels, a link loop, an unreadable or special file: each
 * makes the bridge unverifiable, with a message naming it; nothing is skipped.
 *
 * <p>A digest is reused while the file's identity (inode, size, modification and change times)
 * stays the same: writing a file always moves its change time, which no program can set back, so a
 * reused digest is still the file's.
 */
final class FingerprintReader {
  static final int MAX_FILES = 1000;
  static final int MAX_FOLDER_MIB = 64;
  static final int MAX_PROGRAM_MIB = 256;
  static final int MAX_DEPTH = 16;

  private final String searchPath;
  private final int maxFiles;
  private final long maxFolderBytes;
  private final Cache<List<Object>, String> digests =
      Caffeine.newBuilder().maximumSize(20_000).build();

  /**
   * @param searchPath the server's {@code PATH}, where a command without a folder is looked up
   */
  FingerprintReader(String searchPath) {
    this(searchPath, MAX_FILES, (long) MAX_FOLDER_MIB << 20);
  }

  FingerprintReader(String searchPath, int maxFiles, long maxFolderBytes) {
    this.searchPath = searchPath;
    this.maxFiles = maxFiles;
    this.maxFolderBytes = maxFolderBytes;
  }

  /** The fingerprint of {@code skill}'s bridge as it is on disk now. */
  BridgeFingerprint read(Skill skill) throws BridgeUnverifiableException {
    McpBridgeSpec spec = skill.bridge().orElseThrow();
    Path folder;
    try {
      folder = skill.location().directory().toRealPath();
    } catch (IOException e) {
      throw new BridgeUnverifiableException(
          "its folder " + skill.location().directory() + " cannot be read: " + e.getMessage(),
          null);
    }
    Path program = program(spec);
    String programDigest = digest(program, (long) MAX_PROGRAM_MIB << 20, "its program");
    Map<String, String> argFiles = new LinkedHashMap<>();
    for (String arg : spec.args()) {
      Path file = argumentFile(spec.cwd(), arg);
      if (file != null) {
        argFiles.put(arg, digest(file, (long) MAX_PROGRAM_MIB << 20, "its argument file"));
      }
    }
    return new BridgeFingerprint(
        folder,
        spec.command(),
        program,
        programDigest,
        spec.args(),
        argFiles,
        List.copyOf(spec.env().keySet()),
        files(folder));
  }

  /**
   * The program a command starts: a command with a folder in it is a path (relative to the working
   * folder); a bare name is looked up on the server's {@code PATH}, as a shell would.
   */
  Path program(McpBridgeSpec spec) throws BridgeUnverifiableException {
    String command = spec.command();
    if (command.contains("/") || command.contains("\\")) {
      Path p;
      try {
        p = spec.cwd().resolve(command).toAbsolutePath().normalize();
      } catch (InvalidPathException e) {
        throw new BridgeUnverifiableException("its command is not a path: " + command, null);
      }
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return p;
      }
      throw new BridgeUnverifiableException(
          "its command " + p + " is not an executable file", "check command in mcp.yaml");
    }
    if (searchPath != null && !command.isEmpty()) {
      for (String dir : searchPath.split(File.pathSeparator)) {
        if (dir.isEmpty()) {
          continue;
        }
        try {
          Path p = Path.of(dir).resolve(command);
          if (p.isAbsolute() && Files.isRegularFile(p) && Files.isExecutable(p)) {
            return p.normalize();
          }
        } catch (InvalidPathException e) {
          // A PATH entry that is no path holds no program.
        }
      }
    }
    throw new BridgeUnverifiableException(
        "its command '" + command + "' is found on no folder of the server's PATH",
        "install it, or write the program's path as command in mcp.yaml");
  }

  /** The regular file an argument names from the working folder, or null. */
  private static Path argumentFile(Path cwd, String arg) {
    if (arg.isEmpty() || arg.length() > 4096) {
      return null;
    }
    try {
      Path p = cwd.resolve(arg).normalize();
      return Files.isRegularFile(p) ? p : null;
    } catch (InvalidPathException e) {
      return null;
    }
  }

  /** Every file of the folder (links followed) by its relative path, within the bounds. */
  private Map<String, String> files(Path folder) throws BridgeUnverifiableException {
    List<Path> found = new ArrayList<>();
    long[] bytes = {0};
    String[] refused = {null};
    SimpleFileVisitor<Path> visitor =
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            String name = relative(folder, file);
            if (attrs.isDirectory()) {
              refused[0] = "its folder nests deeper than " + MAX_DEPTH + " levels at " + name;
            } else if (!attrs.isRegularFile()) {
              refused[0] = "its folder holds " + name + ", which is neither a file nor a folder";
            } else if (found.size() >= maxFiles) {
              refused[0] = "its folder holds more than " + maxFiles + " files";
            } else if ((bytes[0] += attrs.size()) > maxFolderBytes) {
              refused[0] = "its folder's files are larger than " + mib(maxFolderBytes) + " in all";
            } else {
              found.add(file);
              return FileVisitResult.CONTINUE;
            }
            return FileVisitResult.TERMINATE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) {
            refused[0] =
                e instanceof FileSystemLoopException
                    ? "its folder links back into itself at " + relative(folder, file)
                    : relative(folder, file) + " in its folder cannot be read: " + e.getMessage();
            return FileVisitResult.TERMINATE;
          }
        };
    try {
      Files.walkFileTree(folder, EnumSet.of(FileVisitOption.FOLLOW_LINKS), MAX_DEPTH, visitor);
    } catch (IOException e) {
      refused[0] = "its folder cannot be read: " + e.getMessage();
    }
    if (refused[0] != null) {
      throw new BridgeUnverifiableException(
          refused[0],
          "a bridge's folder is trusted whole: keep it within "
              + maxFiles
              + " files and "
              + mib(maxFolderBytes)
              + ", with no links that loop, and install large dependencies outside it");
    }
    Map<String, String> out = new TreeMap<>();
    for (Path file : found) {
      out.put(relative(folder, file), digest(file, maxFolderBytes, relative(folder, file)));
    }
    return out;
  }

  private static String relative(Path folder, Path file) {
    return folder.relativize(file).toString().replace(File.separatorChar, '/');
  }

  private static String mib(long bytes) {
    return (bytes >> 20) + " MiB";
  }

  /** {@code sha256:<hex>} of a file, read to its end but never past {@code max} bytes. */
  String digest(Path file, long max, String what) throws BridgeUnverifiableException {
    List<Object> stamp = stamp(file);
    if (stamp != null) {
      String known = digests.getIfPresent(stamp);
      if (known != null) {
        return known;
      }
    }
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
    long total = 0;
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buffer = new byte[64 * 1024];
      int n;
      while ((n = in.read(buffer)) > 0) {
        total += n;
        if (total > max) {
          throw new BridgeUnverifiableException(
              what + " " + file + " is larger than " + mib(max), null);
        }
        sha.update(buffer, 0, n);
      }
    } catch (IOException e) {
      throw new BridgeUnverifiableException(
          what + " " + file + " cannot be read: " + e.getMessage(), null);
    }
    String digest = "sha256:" + HexFormat.of().formatHex(sha.digest());
    if (stamp != null && stamp.equals(stamp(file))) {
      digests.put(stamp, digest);
    }
    return digest;
  }

  /** The file's identity, or null where the file system does not tell its change time. */
  private static List<Object> stamp(Path file) {
    try {
      Path real = file.toRealPath();
      BasicFileAttributes a = Files.readAttributes(real, BasicFileAttributes.class);
      Object changed = Files.getAttribute(real, "unix:ctime");
      Object key = a.fileKey();
      if (changed == null || key == null) {
        return null;
      }
      return List.of(
          real.toString(), key, a.size(), a.lastModifiedTime(), Objects.toString(changed));
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return null;
    }
  }
}

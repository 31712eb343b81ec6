package dev.skillport.bundled;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The skill folders shipped in this module, copied out of the class path into a temporary skill
 * root so the loader reads them like any other folder; {@link #close()} deletes the copy. The
 * server serves {@link #root()} at scope {@code system}, below every folder a user configures.
 *
 * <p>The files are listed in {@code skills/index.txt} next to the folders: a class path directory
 * cannot be listed portably inside a jar.
 */
public final class BundledSkills implements AutoCloseable {
  private static final String PREFIX = "skills/";
  private static final String INDEX = PREFIX + "index.txt";

  private final Path root;

  private BundledSkills(Path root) {
    this.root = root;
  }

  /** Copies every bundled skill folder into a new temporary directory. */
  public static BundledSkills unpack() throws IOException {
    Path root = Files.createTempDirectory("skillport-bundled");
    try {
      for (String file : files()) {
        Path out = root.resolve(file).normalize();
        if (!out.startsWith(root)) {
          throw new IOException("bundled file " + file + " leaves the skill root");
        }
        Files.createDirectories(out.getParent());
        try (InputStream in = open(PREFIX + file)) {
          Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    } catch (IOException | RuntimeException e) {
      deleteTree(root);
      throw e;
    }
    return new BundledSkills(root);
  }

  /** The names of the bundled skills, in index order. */
  public static List<String> names() throws IOException {
    List<String> names = new ArrayList<>();
    for (String file : files()) {
      String name = file.substring(0, file.indexOf('/'));
      if (!names.contains(name)) {
        names.add(name);
      }
    }
    return names;
  }

  /** The folder holding one subfolder per bundled skill. */
  public Path root() {
    return root;
  }

  @Override
  public void close() {
    try {
      deleteTree(root);
    } catch (IOException e) {
      throw new UncheckedIOException("could not delete " + root, e);
    }
  }

  private static List<String> files() throws IOException {
    List<String> files = new ArrayList<>();
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(open(INDEX), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        String file = line.strip();
        if (!file.isEmpty() && !file.startsWith("#")) {
          files.add(file);
        }
      }
    }
    return files;
  }

  private static InputStream open(String resource) throws IOException {
    InputStream in = BundledSkills.class.getResourceAsStream(resource);
    if (in == null) {
      throw new IOException("bundled resource " + resource + " is missing from the class path");
    }
    return Objects.requireNonNull(in);
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    Files.walkFileTree(
        dir,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.delete(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
            Files.delete(d);
            return FileVisitResult.CONTINUE;
          }
        });
  }
}

package dev.skillport.cli;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * A job store folder a {@code serve} start is about to create: registered with the run's resources
 * before the stores open (so it closes after them), it removes what the start created unless the
 * server came to serve ({@link #keep()}). A start that fails (port in use, a bad setting found
 * after the stores opened) leaves nothing behind; the folders it found already there stay.
 */
final class NewStoreFolder implements AutoCloseable {
  private final Path dir;
  // The outermost folder that did not exist before the start: removed up to here, when empty.
  private final Path top;
  private volatile boolean kept;

  private NewStoreFolder(Path dir, Path top) {
    this.dir = dir;
    this.top = top;
  }

  /** The folder {@code dir} as it is before a start, or null when it exists already. */
  static NewStoreFolder before(Path dir) {
    Path absolute = Objects.requireNonNull(dir, "dir").toAbsolutePath().normalize();
    if (Files.exists(absolute)) {
      return null;
    }
    Path top = absolute;
    while (top.getParent() != null && !Files.exists(top.getParent())) {
      top = top.getParent();
    }
    return new NewStoreFolder(absolute, top);
  }

  /** The server serves: what the start created is its store and stays. */
  void keep() {
    kept = true;
  }

  @Override
  public void close() throws IOException {
    if (kept || !Files.exists(dir)) {
      return;
    }
    deleteTree(dir);
    // The parents this start created go too, unless another server put something in them since.
    for (Path p = dir.getParent(); p != null && p.startsWith(top); p = p.getParent()) {
      try {
        Files.delete(p);
      } catch (DirectoryNotEmptyException | NoSuchFileException e) {
        return;
      }
    }
  }

  private static void deleteTree(Path root) throws IOException {
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.delete(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
            if (e != null) {
              throw e;
            }
            Files.delete(d);
            return FileVisitResult.CONTINUE;
          }
        });
  }
}

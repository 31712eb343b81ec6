package dev.skillport.testsupport;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real file system of a few megabytes (a size-capped tmpfs mounted on a fresh folder) that a test
 * fills to the last byte and frees again, so a store on it meets a full disk as a server would. It
 * needs root (or CAP_SYS_ADMIN); a machine that cannot mount fails the test rather than skip it.
 * {@link #close()} unmounts it and removes the folder.
 */
public final class SmallFileSystem implements AutoCloseable {
  private static final String BALLAST = "ballast";

  private final Path root;

  private SmallFileSystem(Path root) {
    this.root = root;
  }

  /** Mounts a tmpfs of {@code megabytes} on a new folder under the system temp folder. */
  public static SmallFileSystem mount(int megabytes) {
    Path dir;
    try {
      dir = Files.createTempDirectory("skillport-smallfs");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String failure =
        run(
            "mount",
            "-t",
            "tmpfs",
            "-o",
            "size=" + megabytes + "m,mode=0700",
            "tmpfs",
            dir.toString());
    if (failure != null) {
      try {
        Files.deleteIfExists(dir);
      } catch (IOException e) {
        failure += "; the folder " + dir + " is left: " + e.getMessage();
      }
      throw new IllegalStateException(
          "this test needs a small real file system: mounting a tmpfs needs root (or"
              + " CAP_SYS_ADMIN), and failed: "
              + failure);
    }
    return new SmallFileSystem(dir);
  }

  /** The mounted folder. */
  public Path root() {
    return root;
  }

  /** Writes a ballast file until the file system has no byte left. */
  public void fill() {
    byte[] block = new byte[64 * 1024];
    try (OutputStream out = Files.newOutputStream(root.resolve(BALLAST))) {
      while (true) {
        out.write(block);
      }
    } catch (IOException full) {
      // No space left on device: what was asked for.
    }
    // Whatever is left is smaller than a block: take it byte by byte.
    try (OutputStream out =
        Files.newOutputStream(root.resolve(BALLAST), java.nio.file.StandardOpenOption.APPEND)) {
      while (true) {
        out.write(0);
        out.flush();
      }
    } catch (IOException full) {
      // Full to the byte.
    }
  }

  /** Deletes the ballast, freeing the space {@link #fill()} took. */
  public void free() {
    try {
      Files.deleteIfExists(root.resolve(BALLAST));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Unmounts the file system (everything on it goes) and removes its folder. */
  @Override
  public void close() {
    String failure = run("umount", root.toString());
    if (failure != null) {
      // A process still holding a file: detach now, the kernel frees it when the file closes.
      failure = run("umount", "-l", root.toString());
    }
    try {
      Files.deleteIfExists(root);
    } catch (IOException e) {
      throw new UncheckedIOException("the mount folder " + root + " is left", e);
    }
    if (failure != null) {
      throw new IllegalStateException("unmounting " + root + " failed: " + failure);
    }
  }

  /** Runs a command; null when it succeeded, else what it said. */
  private static String run(String... command) {
    try {
      Process p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return String.join(" ", command) + " did not finish";
      }
      String said =
          new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
              .strip();
      return p.exitValue() == 0
          ? null
          : String.join(" ", command) + ": exit " + p.exitValue() + " " + said;
    } catch (IOException e) {
      return String.join(" ", command) + ": " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return String.join(" ", command) + ": interrupted";
    }
  }
}

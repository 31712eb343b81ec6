package dev.skillport.loader.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/** What a path names, told from its attributes without opening it. */
public enum FileKind {
  REGULAR("a regular file"),
  DIRECTORY("a directory"),
  SYMBOLIC_LINK("a symbolic link"),
  FIFO("a named pipe (FIFO)"),
  CHARACTER_DEVICE("a character device"),
  BLOCK_DEVICE("a block device"),
  SOCKET("a socket"),
  OTHER("a special file");

  private static final int TYPE_MASK = 0170000;
  private static final int FIFO_TYPE = 0010000;
  private static final int CHARACTER_TYPE = 0020000;
  private static final int BLOCK_TYPE = 0060000;
  private static final int SOCKET_TYPE = 0140000;

  private final String phrase;

  FileKind(String phrase) {
    this.phrase = phrase;
  }

  /** An indefinite noun phrase for messages: "a named pipe (FIFO)". */
  public String phrase() {
    return phrase;
  }

  /**
   * The kind of {@code path} whose attributes are {@code attributes} (read with or without
   * following links, as {@code options} say). Only a file that is none of regular, directory or
   * link costs a further look at its Unix mode, to name it exactly.
   */
  public static FileKind of(Path path, BasicFileAttributes attributes, LinkOption... options) {
    if (attributes.isRegularFile()) {
      return REGULAR;
    }
    if (attributes.isDirectory()) {
      return DIRECTORY;
    }
    if (attributes.isSymbolicLink()) {
      return SYMBOLIC_LINK;
    }
    try {
      Object mode = Files.getAttribute(path, "unix:mode", options);
      if (mode instanceof Integer m) {
        switch (m & TYPE_MASK) {
          case FIFO_TYPE:
            return FIFO;
          case CHARACTER_TYPE:
            return CHARACTER_DEVICE;
          case BLOCK_TYPE:
            return BLOCK_DEVICE;
          case SOCKET_TYPE:
            return SOCKET;
          default:
            return OTHER;
        }
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      // No Unix attributes here, or the file went away: it is still not a regular file.
    }
    return OTHER;
  }
}

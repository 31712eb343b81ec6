package dev.skillport.loader.files;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A file that is not read because of what it is, not because reading failed: not a regular file,
 * over its size limit, or changing while it was opened. The skill author must act.
 */
public final class RefusedFileException extends IOException {
  private static final long serialVersionUID = 1L;

  /** Why a file is refused. */
  public enum Reason {
    /** A FIFO, device, socket, directory or other special file: never opened. */
    NOT_REGULAR,
    /** A regular file larger than the limit for its kind: never read. */
    TOO_LARGE,
    /** The file was replaced or changed size between the check and the read. */
    CHANGED
  }

  private final transient Path file;
  private final Reason reason;
  private final FileKind kind;
  private final long size;
  private final long limit;

  RefusedFileException(Path file, Reason reason, FileKind kind, long size, long limit) {
    super(describe(reason, kind, size, limit));
    this.file = file;
    this.reason = Objects.requireNonNull(reason, "reason");
    this.kind = Objects.requireNonNull(kind, "kind");
    this.size = size;
    this.limit = limit;
  }

  static RefusedFileException notRegular(Path file, FileKind kind) {
    return new RefusedFileException(file, Reason.NOT_REGULAR, kind, -1, -1);
  }

  static RefusedFileException tooLarge(Path file, long size, long limit) {
    return new RefusedFileException(file, Reason.TOO_LARGE, FileKind.REGULAR, size, limit);
  }

  static RefusedFileException changed(Path file) {
    return new RefusedFileException(file, Reason.CHANGED, FileKind.REGULAR, -1, -1);
  }

  /** The file as it was asked for. */
  public Path file() {
    return file;
  }

  public Reason reason() {
    return reason;
  }

  /** What the file is; {@link FileKind#REGULAR} unless the reason is {@link Reason#NOT_REGULAR}. */
  public FileKind kind() {
    return kind;
  }

  /** The file's size for {@link Reason#TOO_LARGE}, else -1. */
  public long size() {
    return size;
  }

  /** The limit it exceeds for {@link Reason#TOO_LARGE}, else -1. */
  public long limit() {
    return limit;
  }

  /** A predicate for a message that names the file first: "is a named pipe (FIFO) ...". */
  public String predicate() {
    return getMessage();
  }

  private static String describe(Reason reason, FileKind kind, long size, long limit) {
    return switch (reason) {
      case NOT_REGULAR -> "is " + kind.phrase() + ", not a regular file; it was not opened";
      case TOO_LARGE -> "is " + size + " bytes; the limit is " + limit + " bytes";
      case CHANGED -> "changed while it was opened";
    };
  }
}

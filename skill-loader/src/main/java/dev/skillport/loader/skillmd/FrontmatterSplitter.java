package dev.skillport.loader.skillmd;

import dev.skillport.loader.files.RefusedFileException;
import dev.skillport.loader.files.RegularFiles;
import dev.skillport.loader.files.WholeFile;
import dev.skillport.model.diagnostic.DiagnosticCode;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.Channels;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Splits a SKILL.md into frontmatter text and body while decoding it, line by line.
 *
 * <p>A <b>fence</b> is a line that is exactly {@code ---}, optionally followed by spaces or tabs
 * (editors leave those; nothing else may follow). Leading whitespace is not allowed. The first line
 * must be a fence; the frontmatter ends at the next fence. Finding it line by line means a {@code
 * ---} inside a value on the same line, or a horizontal rule later in the body, never cuts the
 * frontmatter; and YAML itself forbids a {@code ---} document marker at the start of a line inside
 * any scalar, so such a line can never belong to a valid frontmatter value.
 *
 * <p>Line endings {@code \n}, {@code \r\n} and a lone {@code \r} all end a line and become {@code
 * \n}. A leading UTF-8 byte order mark is stripped and reported. The frontmatter is read at most to
 * its size limit: a huge frontmatter is refused after {@code maxChars} characters without reading
 * the rest of the file. A file larger than {@code maxFileBytes} is refused before it is read, and
 * only a regular file is ever opened.
 */
final class FrontmatterSplitter {
  /** Files up to this size are read and decoded whole; larger ones are streamed. */
  private static final int WHOLE_FILE_BYTES = 256 * 1024;

  private FrontmatterSplitter() {}

  /** The outcome of splitting. */
  sealed interface Outcome {}

  /**
   * A well-fenced file.
   *
   * @param yaml the frontmatter text, each line ending in {@code \n}
   * @param body the text after the closing fence, line endings normalised to {@code \n}
   * @param bom whether the file started with a byte order mark
   */
  record Split(String yaml, String body, boolean bom) implements Outcome {}

  /** A file that cannot be split; {@code line} is 1-based or 0 when unknown. */
  record Failure(DiagnosticCode code, String message, int line, boolean bom) implements Outcome {}

  /**
   * Splits {@code file}.
   *
   * @param attributes the file's attributes, links followed, or null when not known
   * @param maxChars the frontmatter limit
   * @param maxFileBytes the limit of the whole file
   * @throws RefusedFileException when the file is not a regular file
   */
  static Outcome split(Path file, BasicFileAttributes attributes, int maxChars, long maxFileBytes)
      throws IOException {
    WholeFile.Snapshot read =
        WholeFile.read(file, attributes, Math.min(WHOLE_FILE_BYTES, maxFileBytes));
    if (read.size() > maxFileBytes) {
      return tooLarge(read.size(), maxFileBytes);
    }
    char[] whole = decode(read);
    if (whole != null) {
      return new Lines(whole).split(maxChars);
    }
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    try (RegularFiles.Opened opened = RegularFiles.open(file, maxFileBytes);
        InputStream in = bounded(opened);
        Reader reader = new InputStreamReader(in, decoder)) {
      FrontmatterSplitter.Outcome outcome = new Lines(reader).split(maxChars);
      if (outcome instanceof Failure f && f.code() == DiagnosticCode.SKILL_MD_ENCODING) {
        // The decoder reads ahead, so the line it was on is not where the bad bytes are.
        int line = firstMalformedLine(file, maxFileBytes);
        return new Failure(
            f.code(),
            "SKILL.md is not valid UTF-8 (first bad bytes on line " + line + ")",
            line,
            f.bom());
      }
      return outcome;
    } catch (RefusedFileException e) {
      if (e.reason() == RefusedFileException.Reason.TOO_LARGE) {
        return tooLarge(e.size(), maxFileBytes);
      }
      throw e;
    }
  }

  private static Failure tooLarge(long size, long maxFileBytes) {
    return new Failure(
        DiagnosticCode.SKILL_MD_TOO_LARGE,
        "SKILL.md is " + size + " bytes; the limit is " + maxFileBytes + " bytes",
        0,
        false);
  }

  /** At most the opened file's size in bytes from its channel. */
  private static InputStream bounded(RegularFiles.Opened opened) {
    InputStream in = Channels.newInputStream(opened.channel());
    return new java.io.FilterInputStream(in) {
      private long left = opened.size();

      @Override
      public int read() throws IOException {
        if (left <= 0) {
          return -1;
        }
        int b = super.read();
        if (b >= 0) {
          left--;
        }
        return b;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (left <= 0) {
          return -1;
        }
        int n = super.read(b, off, (int) Math.min(len, left));
        if (n > 0) {
          left -= n;
        }
        return n;
      }
    };
  }

  /**
   * The whole file as read, decoded in one go; null when it was not read whole (larger than {@link
   * #WHOLE_FILE_BYTES}, or changing) or is not valid UTF-8. Splitting the decoded chars gives
   * exactly what the streaming path gives for the same chars; files that are large or badly encoded
   * take the streaming path, which bounds what it reads and finds the line of bad bytes.
   */
  private static char[] decode(WholeFile.Snapshot read) {
    byte[] bytes = read.bytes();
    if (bytes == null) {
      // Too large, or it changed while it was read: the streaming path reads it as it is now.
      return null;
    }
    int length = read.length();
    char[] chars = new char[length];
    for (int i = 0; i < length; i++) {
      if (bytes[i] < 0) {
        return decodeUtf8(bytes, length);
      }
      chars[i] = (char) bytes[i];
    }
    return chars;
  }

  private static char[] decodeUtf8(byte[] bytes, int length) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    try {
      CharBuffer decoded = decoder.decode(ByteBuffer.wrap(bytes, 0, length));
      char[] chars = new char[decoded.remaining()];
      decoded.get(chars);
      return chars;
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** The 1-based line of the first byte sequence that is not UTF-8; 0 when none is found. */
  static int firstMalformedLine(Path file, long maxFileBytes) throws IOException {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.allocate(64 * 1024);
    CharBuffer out = CharBuffer.allocate(64 * 1024);
    int line = 1;
    try (RegularFiles.Opened opened = RegularFiles.open(file, maxFileBytes);
        InputStream stream = bounded(opened)) {
      boolean eof = false;
      while (!eof) {
        int n = stream.read(in.array(), in.position(), in.remaining());
        if (n < 0) {
          eof = true;
        } else {
          in.position(in.position() + n);
        }
        in.flip();
        int start = in.position();
        CoderResult result = decoder.decode(in, out, eof);
        for (int i = start; i < in.position(); i++) {
          if (in.get(i) == '\n') {
            line++;
          }
        }
        if (result.isError()) {
          return line;
        }
        in.compact();
        out.clear();
      }
    }
    return 0;
  }

  static boolean isFence(String line) {
    if (!line.startsWith("---")) {
      return false;
    }
    for (int i = 3; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c != ' ' && c != '\t') {
        return false;
      }
    }
    return true;
  }

  /** Reads lines with a length budget, tracking the line number for encoding errors. */
  private static final class Lines {
    private final Reader reader;

    /**
     * Decoded chars not yet consumed: reading them one at a time from here, rather than through a
     * BufferedReader's synchronized read(), keeps splitting cheap.
     */
    private final char[] buffer;

    private int next;
    private int end;
    private int lineNumber;
    private boolean overBudget;

    Lines(Reader reader) {
      this.reader = reader;
      this.buffer = new char[8192];
    }

    /** Lines of text already decoded in full. */
    Lines(char[] text) {
      this.reader = null;
      this.buffer = text;
      this.end = text.length;
    }

    private boolean noCarriageReturn() {
      for (int i = next; i < end; i++) {
        if (buffer[i] == '\r') {
          return false;
        }
      }
      return true;
    }

    /** The next char, or -1 at the end of input. */
    private int read() throws IOException {
      if (next == end && !fill()) {
        return -1;
      }
      return buffer[next++];
    }

    /** The next char without consuming it, or -1 at the end of input. */
    private int peek() throws IOException {
      if (next == end && !fill()) {
        return -1;
      }
      return buffer[next];
    }

    private boolean fill() throws IOException {
      if (reader == null) {
        return false;
      }
      int n;
      do {
        n = reader.read(buffer, 0, buffer.length);
      } while (n == 0);
      if (n < 0) {
        return false;
      }
      next = 0;
      end = n;
      return true;
    }

    Outcome split(int maxChars) throws IOException {
      boolean bom = false;
      String first;
      try {
        first = readLine(Math.max(maxChars, 16));
      } catch (CharacterCodingException e) {
        return encoding(false);
      }
      if (first != null && first.startsWith("\uFEFF")) {
        bom = true;
        first = first.substring(1);
      }
      if (first == null || overBudget || !isFence(first)) {
        return new Failure(
            DiagnosticCode.FRONTMATTER_MISSING,
            "SKILL.md must start with a '---' line opening the YAML frontmatter",
            1,
            bom);
      }
      StringBuilder yaml = new StringBuilder();
      while (true) {
        String line;
        try {
          line = readLine(maxChars - yaml.length());
        } catch (CharacterCodingException e) {
          return encoding(bom);
        }
        if (line == null) {
          return new Failure(
              DiagnosticCode.FRONTMATTER_UNTERMINATED,
              "the frontmatter opened on line 1 has no closing '---' line",
              1,
              bom);
        }
        if (overBudget || yaml.length() + line.length() + 1 > maxChars) {
          return new Failure(
              DiagnosticCode.FRONTMATTER_TOO_LARGE,
              "the frontmatter is larger than the limit of " + maxChars + " characters",
              1,
              bom);
        }
        if (isFence(line)) {
          break;
        }
        yaml.append(line).append('\n');
      }
      String body;
      try {
        body = rest();
      } catch (CharacterCodingException e) {
        return encoding(bom);
      }
      return new Split(yaml.toString(), body, bom);
    }

    private Failure encoding(boolean bom) {
      return new Failure(
          DiagnosticCode.SKILL_MD_ENCODING,
          "SKILL.md is not valid UTF-8 (first bad bytes on line " + (lineNumber + 1) + ")",
          lineNumber + 1,
          bom);
    }

    /**
     * The next line without its terminator, or null at end of input. Once the line exceeds {@code
     * budget} characters it stops reading, sets {@link #overBudget} and returns what it has.
     */
    private String readLine(int budget) throws IOException {
      String whole = lineInBuffer(budget);
      if (whole != null) {
        return whole;
      }
      StringBuilder line = new StringBuilder();
      int c = read();
      if (c < 0) {
        return null;
      }
      while (c >= 0) {
        if (c == '\n') {
          break;
        }
        if (c == '\r') {
          if (peek() == '\n') {
            read();
          }
          break;
        }
        if (line.length() >= budget) {
          overBudget = true;
          return line.toString();
        }
        line.append((char) c);
        c = read();
      }
      lineNumber++;
      return line.toString();
    }

    /**
     * The next line when it lies entirely in the buffer, ends in {@code \n} and fits the budget, as
     * one String without copying char by char; null otherwise (the caller reads it char by char).
     */
    private String lineInBuffer(int budget) {
      for (int i = next; i < end && i - next <= budget; i++) {
        char c = buffer[i];
        if (c == '\n') {
          String line = new String(buffer, next, i - next);
          next = i + 1;
          lineNumber++;
          return line;
        }
        if (c == '\r') {
          return null;
        }
      }
      return null;
    }

    /** Everything left, with line endings normalised. */
    private String rest() throws IOException {
      if (reader == null && noCarriageReturn()) {
        // Decoded in full and already normalised: one copy, counting the lines.
        for (int i = next; i < end; i++) {
          if (buffer[i] == '\n') {
            lineNumber++;
          }
        }
        String body = new String(buffer, next, end - next);
        next = end;
        return body;
      }
      StringBuilder out = new StringBuilder(end - next);
      boolean afterCr = false;
      while (next < end || fill()) {
        for (; next < end; next++) {
          char c = buffer[next];
          if (c == '\n' && afterCr) {
            afterCr = false;
            continue;
          }
          afterCr = c == '\r';
          if (c == '\n' || c == '\r') {
            lineNumber++;
            out.append('\n');
          } else {
            out.append(c);
          }
        }
      }
      return out.toString();
    }
  }
}

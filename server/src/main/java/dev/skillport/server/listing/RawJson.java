package dev.skillport.server.listing;

import com.fasterxml.jackson.core.SerializableString;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A JSON value already serialized: its UTF-8 bytes exactly as Jackson wrote them, which a generator
 * copies as they are ({@code writeRawValue}), and the same text as characters, decoded from them
 * when first asked for (a page written to bytes never is). Jackson's own {@code SerializedString}
 * re-encodes its text on the way out and refuses a broken surrogate pair that the tree's
 * serialization had written, so the bytes are kept instead. Jackson's UTF-8 writer escapes every
 * surrogate character, so the bytes always decode whole.
 */
public final class RawJson implements SerializableString {
  private final byte[] utf8;
  // Decoded on first use; a String is immutable, so a racing second decode is harmless.
  private String text;

  RawJson(byte[] utf8) {
    this.utf8 = utf8;
  }

  private String text() {
    String t = text;
    if (t == null) {
      t = new String(utf8, StandardCharsets.UTF_8);
      text = t;
    }
    return t;
  }

  @Override
  public String getValue() {
    return text();
  }

  @Override
  public int charLength() {
    return text().length();
  }

  @Override
  public char[] asQuotedChars() {
    return text().toCharArray();
  }

  @Override
  public byte[] asUnquotedUTF8() {
    return utf8;
  }

  @Override
  public byte[] asQuotedUTF8() {
    return utf8;
  }

  @Override
  public int appendQuotedUTF8(byte[] buffer, int offset) {
    return appendUnquotedUTF8(buffer, offset);
  }

  @Override
  public int appendQuoted(char[] buffer, int offset) {
    return appendUnquoted(buffer, offset);
  }

  @Override
  public int appendUnquotedUTF8(byte[] buffer, int offset) {
    if (offset + utf8.length > buffer.length) {
      return -1;
    }
    System.arraycopy(utf8, 0, buffer, offset, utf8.length);
    return utf8.length;
  }

  @Override
  public int appendUnquoted(char[] buffer, int offset) {
    String t = text();
    if (offset + t.length() > buffer.length) {
      return -1;
    }
    t.getChars(0, t.length(), buffer, offset);
    return t.length();
  }

  @Override
  public int writeQuotedUTF8(OutputStream out) throws IOException {
    return writeUnquotedUTF8(out);
  }

  @Override
  public int writeUnquotedUTF8(OutputStream out) throws IOException {
    out.write(utf8);
    return utf8.length;
  }

  @Override
  public int putQuotedUTF8(ByteBuffer buffer) {
    return putUnquotedUTF8(buffer);
  }

  @Override
  public int putUnquotedUTF8(ByteBuffer buffer) {
    if (buffer.remaining() < utf8.length) {
      return -1;
    }
    buffer.put(utf8);
    return utf8.length;
  }
}

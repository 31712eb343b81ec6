package dev.skillport.mcp;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Tells well-formed UTF-8 (RFC 3629) from everything else: overlong forms ({@code C0 AF} for {@code
 * /}), encoded surrogates, code points past U+10FFFF and truncated sequences are refused. A message
 * of ASCII only, the common case, is passed by one scan.
 */
final class StrictUtf8 {
  private StrictUtf8() {}

  static boolean isValid(byte[] bytes, int offset, int length) {
    int end = offset + length;
    int i = offset;
    while (i < end && bytes[i] >= 0) {
      i++;
    }
    if (i == end) {
      return true;
    }
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes, i, end - i));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }
}

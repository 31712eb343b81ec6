package dev.skillport.registry.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Splits text into lower-case word tokens; {@code snake_case}, kebab-case and camelCase split. */
final class Tokenizer {
  private Tokenizer() {}

  static List<String> tokens(String text) {
    List<String> out = new ArrayList<>();
    if (text == null || text.isEmpty()) {
      return out;
    }
    StringBuilder word = new StringBuilder();
    int prev = 0;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      i += Character.charCount(cp);
      if (Character.isLetterOrDigit(cp)) {
        boolean camelBreak = Character.isUpperCase(cp) && Character.isLowerCase(prev);
        if (camelBreak && word.length() > 0) {
          flush(word, out);
        }
        word.appendCodePoint(cp);
      } else if (word.length() > 0) {
        flush(word, out);
      }
      prev = cp;
    }
    if (word.length() > 0) {
      flush(word, out);
    }
    return out;
  }

  private static void flush(StringBuilder word, List<String> out) {
    out.add(word.toString().toLowerCase(Locale.ROOT));
    word.setLength(0);
  }
}

package dev.skillport.bridge;

/** Untrusted text from a bridged server made safe to show: no control characters, capped. */
final class Text {
  private Text() {}

  /** {@code text} with control characters as spaces, trimmed, at most {@code max} characters. */
  static String clean(String text, int max) {
    StringBuilder out = new StringBuilder(Math.min(text.length(), max + 1));
    for (int i = 0; i < text.length() && out.length() <= max; i++) {
      char c = text.charAt(i);
      out.append(c == '\n' || c == '\t' ? c : Character.isISOControl(c) ? ' ' : c);
    }
    String s = out.toString().strip();
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }
}

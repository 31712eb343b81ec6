package dev.skillport.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides a {@code branch}: the rendered {@code on} is either one comparison ({@code a == b},
 * {@code !=}, {@code <}, {@code <=}, {@code >}, {@code >=}) or a value judged by truthiness. False
 * are {@code false}, {@code null}, {@code 0}, empty lists and objects, and the texts {@code ""},
 * {@code false}, {@code 0}, {@code no}, {@code off}, {@code null}; everything else is true.
 */
final class BranchCondition {
  private static final Pattern COMPARISON =
      Pattern.compile("^(.*?)\\s*(==|!=|<=|>=|<|>)\\s*(.*)$", Pattern.DOTALL);

  private BranchCondition() {}

  static boolean holds(JsonNode rendered) throws TemplateException {
    if (rendered != null && rendered.isTextual()) {
      Matcher m = COMPARISON.matcher(rendered.asText().strip());
      if (m.matches()) {
        return compare(unquote(m.group(1)), m.group(2), unquote(m.group(3)));
      }
    }
    return truthy(rendered);
  }

  private static boolean compare(String left, String op, String right) throws TemplateException {
    BigDecimal a = number(left);
    BigDecimal b = number(right);
    if (a != null && b != null) {
      int c = a.compareTo(b);
      return switch (op) {
        case "==" -> c == 0;
        case "!=" -> c != 0;
        case "<" -> c < 0;
        case "<=" -> c <= 0;
        case ">" -> c > 0;
        default -> c >= 0;
      };
    }
    return switch (op) {
      case "==" -> left.equals(right);
      case "!=" -> !left.equals(right);
      default ->
          throw new TemplateException(
              "condition '"
                  + left
                  + " "
                  + op
                  + " "
                  + right
                  + "' compares values that are not numbers");
    };
  }

  private static BigDecimal number(String text) {
    try {
      return new BigDecimal(text);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String unquote(String text) {
    String s = text.strip();
    if (s.length() >= 2
        && (s.charAt(0) == '\'' || s.charAt(0) == '"')
        && s.charAt(s.length() - 1) == s.charAt(0)) {
      return s.substring(1, s.length() - 1);
    }
    return s;
  }

  static boolean truthy(JsonNode v) {
    if (v == null || v.isNull() || v.isMissingNode()) {
      return false;
    }
    if (v.isBoolean()) {
      return v.booleanValue();
    }
    if (v.isNumber()) {
      return v.doubleValue() != 0;
    }
    if (v.isTextual()) {
      String s = v.asText().strip().toLowerCase(Locale.ROOT);
      return !(s.isEmpty()
          || s.equals("false")
          || s.equals("0")
          || s.equals("no")
          || s.equals("null")
          || s.equals("off"));
    }
    return v.size() > 0;
  }
}

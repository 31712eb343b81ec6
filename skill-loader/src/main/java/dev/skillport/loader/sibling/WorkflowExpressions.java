package dev.skillport.loader.sibling;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Syntax of the expressions workflows use: {@code {{…}}} templates and the JSONPath subset a {@code
 * foreach} accepts.
 *
 * <p>Accepted JSONPath: {@code $} followed by any of {@code .name}, {@code .*}, {@code ..name},
 * {@code ..*}, {@code [0]} (negative allowed), {@code [*]}, {@code ['name']} or {@code ["name"]}
 * (several quoted names separated by commas allowed). A name is a letter or {@code _} then letters,
 * digits, {@code _} or {@code -}. Filters ({@code [?(…)]}) and slices ({@code [1:3]}) are not
 * accepted. A whole-string template {@code {{root.path}}} is accepted too, where the path uses the
 * same segments without {@code $} and without {@code ..}.
 */
final class WorkflowExpressions {
  private static final Pattern TEMPLATE = Pattern.compile("\\{\\{(.*?)}}", Pattern.DOTALL);
  private static final Pattern ROOT = Pattern.compile("^\\s*([A-Za-z_][A-Za-z0-9_]*)");

  private WorkflowExpressions() {}

  /** The root identifier of each {@code {{…}}} in {@code text} ("" when it has none). */
  static List<String> templateRoots(String text) {
    List<String> roots = new ArrayList<>();
    Matcher m = TEMPLATE.matcher(text);
    while (m.find()) {
      Matcher r = ROOT.matcher(m.group(1));
      roots.add(r.find() ? r.group(1) : "");
    }
    return roots;
  }

  /** Whether {@code text} is exactly one template and nothing else. */
  static boolean isWholeTemplate(String text) {
    String s = text.strip();
    return s.startsWith("{{")
        && s.endsWith("}}")
        && s.indexOf("{{", 2) < 0
        && s.indexOf("}}") == s.length() - 2;
  }

  /** Whether {@code items} is an accepted JSONPath or a whole-string template path. */
  static boolean validItems(String items) {
    String s = items.strip();
    if (isWholeTemplate(s)) {
      String inner = s.substring(2, s.length() - 2).strip();
      Matcher r = ROOT.matcher(inner);
      if (!r.find() || r.start(1) != 0) {
        return false;
      }
      return segments(inner, r.end(1), false);
    }
    return s.startsWith("$") && segments(s, 1, true);
  }

  /** Parses segments of {@code s} from {@code i} to its end. */
  private static boolean segments(String s, int start, boolean allowDescent) {
    int i = start;
    int n = s.length();
    while (i < n) {
      char c = s.charAt(i);
      if (c == '.') {
        i++;
        if (i < n && s.charAt(i) == '.') {
          if (!allowDescent) {
            return false;
          }
          i++;
          if (i < n && s.charAt(i) == '[') {
            continue;
          }
        }
        if (i < n && s.charAt(i) == '*') {
          i++;
          continue;
        }
        int end = name(s, i);
        if (end == i) {
          return false;
        }
        i = end;
      } else if (c == '[') {
        int close = bracket(s, i + 1);
        if (close < 0) {
          return false;
        }
        i = close + 1;
      } else {
        return false;
      }
    }
    return true;
  }

  private static int name(String s, int i) {
    int j = i;
    if (j < s.length() && (Character.isLetter(s.charAt(j)) || s.charAt(j) == '_')) {
      j++;
      while (j < s.length()
          && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_' || s.charAt(j) == '-')) {
        j++;
      }
    }
    return j;
  }

  /** Parses a bracket body starting after {@code [}; returns the index of {@code ]} or -1. */
  private static int bracket(String s, int i) {
    int n = s.length();
    int j = skipSpaces(s, i);
    if (j >= n) {
      return -1;
    }
    char c = s.charAt(j);
    if (c == '*') {
      j = skipSpaces(s, j + 1);
    } else if (c == '-' || Character.isDigit(c)) {
      int k = c == '-' ? j + 1 : j;
      int digits = k;
      while (k < n && Character.isDigit(s.charAt(k))) {
        k++;
      }
      if (k == digits) {
        return -1;
      }
      j = skipSpaces(s, k);
    } else if (c == '\'' || c == '"') {
      while (true) {
        char quote = s.charAt(j);
        if (quote != '\'' && quote != '"') {
          return -1;
        }
        int end = s.indexOf(quote, j + 1);
        if (end < 0 || end == j + 1) {
          return -1;
        }
        j = skipSpaces(s, end + 1);
        if (j < n && s.charAt(j) == ',') {
          j = skipSpaces(s, j + 1);
          if (j >= n) {
            return -1;
          }
          continue;
        }
        break;
      }
    } else {
      return -1;
    }
    return j < n && s.charAt(j) == ']' ? j : -1;
  }

  private static int skipSpaces(String s, int i) {
    int j = i;
    while (j < s.length() && s.charAt(j) == ' ') {
      j++;
    }
    return j;
  }
}

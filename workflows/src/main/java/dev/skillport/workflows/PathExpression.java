package dev.skillport.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The path syntax workflows use after a template root ({@code inputs.files[0].name}) and in {@code
 * foreach} JSONPaths ({@code $.steps.list.output.items[*]}): {@code .name}, {@code [n]} (negative
 * counts from the end), {@code ['name']}, and in JSONPaths also {@code .*}, {@code [*]}, {@code
 * ..name}, {@code ..*} and several quoted names. The loader has checked the syntax; this class
 * evaluates it.
 */
final class PathExpression {
  /** One step of a path. */
  sealed interface Segment {}

  record Name(String name) implements Segment {}

  record Index(int index) implements Segment {}

  record Names(List<String> names) implements Segment {}

  record Wildcard() implements Segment {}

  /** {@code ..name} or {@code ..*} ({@code name} null). */
  record Descent(String name) implements Segment {}

  private final String text;
  private final List<Segment> segments;

  private PathExpression(String text, List<Segment> segments) {
    this.text = text;
    this.segments = List.copyOf(segments);
  }

  List<Segment> segments() {
    return segments;
  }

  /** Whether the path selects at most one node (no wildcard, descent or name list). */
  boolean definite() {
    return segments.stream().allMatch(s -> s instanceof Name || s instanceof Index);
  }

  /** Parses {@code text} from {@code start} to its end. */
  static PathExpression parse(String text, int start) throws TemplateException {
    List<Segment> out = new ArrayList<>();
    int i = start;
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      if (c == '.') {
        i++;
        boolean descent = i < n && text.charAt(i) == '.';
        if (descent) {
          i++;
        }
        if (i < n && text.charAt(i) == '*') {
          out.add(descent ? new Descent(null) : new Wildcard());
          i++;
          continue;
        }
        if (descent && i < n && text.charAt(i) == '[') {
          // "..[*]" and "..['a']": descend, then apply the bracket to every node.
          out.add(new Descent(null));
          continue;
        }
        int end = i;
        while (end < n && text.charAt(end) != '.' && text.charAt(end) != '[') {
          end++;
        }
        if (end == i) {
          throw new TemplateException("'" + text + "' has an empty name at position " + i);
        }
        String name = text.substring(i, end).strip();
        out.add(descent ? new Descent(name) : new Name(name));
        i = end;
      } else if (c == '[') {
        int close = text.indexOf(']', i);
        if (close < 0) {
          throw new TemplateException("'" + text + "' has an unclosed '['");
        }
        out.add(bracket(text, text.substring(i + 1, close).strip()));
        i = close + 1;
      } else if (c == ' ') {
        i++;
      } else {
        throw new TemplateException("'" + text + "' has an unexpected '" + c + "'");
      }
    }
    return new PathExpression(text, out);
  }

  private static Segment bracket(String text, String body) throws TemplateException {
    if (body.equals("*")) {
      return new Wildcard();
    }
    if (!body.isEmpty() && (body.charAt(0) == '\'' || body.charAt(0) == '"')) {
      List<String> names = new ArrayList<>();
      for (String part : body.split(",")) {
        String p = part.strip();
        if (p.length() < 2) {
          throw new TemplateException("'" + text + "' has a bad quoted name");
        }
        names.add(p.substring(1, p.length() - 1));
      }
      return names.size() == 1 ? new Name(names.get(0)) : new Names(names);
    }
    try {
      return new Index(Integer.parseInt(body));
    } catch (NumberFormatException e) {
      throw new TemplateException("'" + text + "' has a bad index [" + body + "]");
    }
  }

  /**
   * Follows a definite path from {@code node}; a missing field or index is an error naming it.
   *
   * @param described how the start node is named in messages ({@code inputs})
   */
  JsonNode follow(JsonNode node, String described) throws TemplateException {
    JsonNode current = node;
    StringBuilder at = new StringBuilder(described);
    for (Segment s : segments) {
      if (s instanceof Name name) {
        if (current == null || !current.isObject() || !current.has(name.name())) {
          throw new TemplateException(at + " has no field '" + name.name() + "'");
        }
        current = current.get(name.name());
        at.append('.').append(name.name());
      } else if (s instanceof Index index) {
        if (current == null || !current.isArray()) {
          throw new TemplateException(at + " is not a list, so it has no [" + index.index() + "]");
        }
        int i = index.index() < 0 ? current.size() + index.index() : index.index();
        if (i < 0 || i >= current.size()) {
          throw new TemplateException(
              at + " has " + current.size() + " items, so it has no [" + index.index() + "]");
        }
        current = current.get(i);
        at.append('[').append(index.index()).append(']');
      } else {
        throw new TemplateException("'" + text + "': wildcards are for foreach items only");
      }
    }
    return current;
  }

  /** Every node the path selects from {@code root}, in document order. */
  List<JsonNode> select(JsonNode root) {
    List<JsonNode> current = List.of(root);
    for (Segment s : segments) {
      List<JsonNode> next = new ArrayList<>();
      for (JsonNode node : current) {
        apply(s, node, next);
      }
      current = next;
    }
    return current;
  }

  private static void apply(Segment s, JsonNode node, List<JsonNode> out) {
    if (s instanceof Name name) {
      if (node.isObject() && node.has(name.name())) {
        out.add(node.get(name.name()));
      }
    } else if (s instanceof Names names) {
      for (String n : names.names()) {
        if (node.isObject() && node.has(n)) {
          out.add(node.get(n));
        }
      }
    } else if (s instanceof Index index) {
      if (node.isArray()) {
        int i = index.index() < 0 ? node.size() + index.index() : index.index();
        if (i >= 0 && i < node.size()) {
          out.add(node.get(i));
        }
      }
    } else if (s instanceof Wildcard) {
      children(node).forEachRemaining(out::add);
    } else if (s instanceof Descent descent) {
      List<JsonNode> all = new ArrayList<>();
      descendants(node, all);
      for (JsonNode d : all) {
        if (descent.name() == null) {
          if (d != node) {
            out.add(d);
          }
        } else if (d.isObject() && d.has(descent.name())) {
          out.add(d.get(descent.name()));
        }
      }
    }
  }

  private static Iterator<JsonNode> children(JsonNode node) {
    return node.isContainerNode() ? node.elements() : List.<JsonNode>of().iterator();
  }

  private static void descendants(JsonNode node, List<JsonNode> out) {
    out.add(node);
    children(node).forEachRemaining(c -> descendants(c, out));
  }
}

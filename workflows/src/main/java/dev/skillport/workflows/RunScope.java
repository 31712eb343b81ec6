package dev.skillport.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What templates and JSONPaths of one run can refer to: {@code inputs}, {@code steps.<id>.output}
 * of the steps that finished, and inside a {@code foreach} the current {@code item} (also under its
 * {@code as} name). A whole-string template keeps the JSON type of the value; an embedded one is
 * rendered as text.
 */
final class RunScope {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Pattern TEMPLATE = Pattern.compile("\\{\\{(.*?)}}", Pattern.DOTALL);
  private static final Pattern ROOT = Pattern.compile("^\\s*([A-Za-z_][A-Za-z0-9_-]*)");

  private final JsonNode inputs;
  private final Map<String, JsonNode> outputs;
  private final Map<String, JsonNode> variables;

  private RunScope(
      JsonNode inputs, Map<String, JsonNode> outputs, Map<String, JsonNode> variables) {
    this.inputs = inputs;
    this.outputs = outputs;
    this.variables = variables;
  }

  /** The scope of a new run; step outputs are shared by every nested scope of the run. */
  static RunScope of(JsonNode inputs) {
    return new RunScope(
        inputs == null ? NODES.objectNode() : inputs.deepCopy(),
        new ConcurrentHashMap<>(),
        Map.of());
  }

  /** A nested scope where {@code item} and {@code as} name the current item. */
  RunScope withItem(String as, JsonNode item) {
    Map<String, JsonNode> vars = new LinkedHashMap<>(variables);
    vars.put("item", item);
    vars.put(as, item);
    return new RunScope(inputs, outputs, Map.copyOf(vars));
  }

  void recordOutput(String stepId, JsonNode output) {
    outputs.put(stepId, output == null ? NODES.nullNode() : output);
  }

  JsonNode inputs() {
    return inputs;
  }

  /** Renders every string in {@code node} (objects and lists recursively). */
  JsonNode render(JsonNode node) throws TemplateException {
    if (node == null) {
      return null;
    }
    if (node.isTextual()) {
      return renderValue(node.asText());
    }
    if (node.isObject()) {
      ObjectNode out = NODES.objectNode();
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        out.set(e.getKey(), render(e.getValue()));
      }
      return out;
    }
    if (node.isArray()) {
      var out = NODES.arrayNode();
      for (JsonNode e : node) {
        out.add(render(e));
      }
      return out;
    }
    return node.deepCopy();
  }

  /** A whole-string template keeps its value's type; any other text is rendered as text. */
  JsonNode renderValue(String text) throws TemplateException {
    String s = text.strip();
    if (s.startsWith("{{")
        && s.endsWith("}}")
        && s.indexOf("{{", 2) < 0
        && s.indexOf("}}") == s.length() - 2) {
      return resolve(s.substring(2, s.length() - 2)).deepCopy();
    }
    return NODES.textNode(renderText(text));
  }

  /** Replaces each template in {@code text} with its value as text. */
  String renderText(String text) throws TemplateException {
    Matcher m = TEMPLATE.matcher(text);
    StringBuilder out = new StringBuilder();
    int last = 0;
    while (m.find()) {
      out.append(text, last, m.start());
      out.append(asText(resolve(m.group(1))));
      last = m.end();
    }
    return out.append(text.substring(last)).toString();
  }

  private static String asText(JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return "";
    }
    return value.isValueNode() ? value.asText() : value.toString();
  }

  /** The value of one template expression ({@code inputs.x}, {@code steps.a.output.n}, …). */
  JsonNode resolve(String expression) throws TemplateException {
    String expr = expression.strip();
    Matcher r = ROOT.matcher(expr);
    if (!r.find()) {
      throw new TemplateException("'{{" + expr + "}}' does not start with a name");
    }
    String root = r.group(1);
    PathExpression path = PathExpression.parse(expr, r.end(1));
    return switch (root) {
      case "inputs" -> path.follow(inputs, "inputs");
      case "steps" -> stepPath(expr, path);
      default -> {
        JsonNode value = variables.get(root);
        if (value == null) {
          throw new TemplateException(
              "'{{"
                  + expr
                  + "}}' refers to '"
                  + root
                  + "', which is not inputs, steps or an item of an enclosing foreach");
        }
        yield path.follow(value, root);
      }
    };
  }

  private JsonNode stepPath(String expr, PathExpression path) throws TemplateException {
    List<PathExpression.Segment> segments = path.segments();
    if (segments.isEmpty() || !(segments.get(0) instanceof PathExpression.Name id)) {
      throw new TemplateException("'{{" + expr + "}}' must name a step: steps.<id>.output…");
    }
    JsonNode output = outputs.get(id.name());
    if (output == null) {
      throw new TemplateException(
          "'{{"
              + expr
              + "}}' refers to step '"
              + id.name()
              + "', which has no output (unknown, or it has not completed yet)");
    }
    ObjectNode holder = NODES.objectNode();
    holder.putObject(id.name()).set("output", output);
    return path.follow(holder, "steps");
  }

  /** The document a {@code foreach} JSONPath starts from: {@code {inputs, steps, item, …}}. */
  ObjectNode document() {
    ObjectNode doc = NODES.objectNode();
    doc.set("inputs", inputs);
    ObjectNode steps = doc.putObject("steps");
    outputs.forEach((id, out) -> steps.putObject(id).set("output", out));
    variables.forEach(doc::set);
    return doc;
  }

  /**
   * The items a {@code foreach} iterates: a whole-string template or a definite JSONPath must name
   * a list (its elements are the items); a JSONPath with wildcards yields the nodes it selects.
   */
  List<JsonNode> items(String expression) throws TemplateException {
    String s = expression.strip();
    if (s.startsWith("{{")) {
      return elements(renderValue(s), s);
    }
    if (!s.startsWith("$")) {
      throw new TemplateException("items '" + s + "' is neither a JSONPath nor a template");
    }
    PathExpression path = PathExpression.parse(s, 1);
    if (path.definite()) {
      return elements(path.follow(document(), "$"), s);
    }
    return path.select(document());
  }

  private static List<JsonNode> elements(JsonNode value, String expression)
      throws TemplateException {
    if (value == null || !value.isArray()) {
      throw new TemplateException(
          "items '"
              + expression
              + "' must select a list, but it is "
              + (value == null
                  ? "nothing"
                  : value.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
    }
    List<JsonNode> out = new java.util.ArrayList<>();
    value.forEach(out::add);
    return out;
  }
}

package dev.skillport.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The inputs of a run: the caller's values plus the declared defaults. Declarations come in two
 * forms: a JSON Schema ({@code {type: object, properties, required}}) or a map of name to {@code
 * {description, required, default}}.
 */
public final class WorkflowInputs {
  private WorkflowInputs() {}

  /** The declared input names that are required but missing from {@code given}. */
  public static List<String> missing(JsonNode declared, JsonNode given) {
    List<String> out = new ArrayList<>();
    if (declared == null || !declared.isObject()) {
      return out;
    }
    if (isSchema(declared)) {
      for (JsonNode name : declared.path("required")) {
        if (!given.has(name.asText())
            && !declared.path("properties").path(name.asText()).has("default")) {
          out.add(name.asText());
        }
      }
      return out;
    }
    for (Map.Entry<String, JsonNode> e : declared.properties()) {
      JsonNode spec = e.getValue();
      if (spec.path("required").asBoolean(false)
          && !spec.has("default")
          && !given.has(e.getKey())) {
        out.add(e.getKey());
      }
    }
    return out;
  }

  /** {@code given} with the declared defaults of the inputs it lacks. */
  public static ObjectNode withDefaults(JsonNode declared, ObjectNode given) {
    ObjectNode out = given.deepCopy();
    if (declared == null || !declared.isObject()) {
      return out;
    }
    JsonNode specs = isSchema(declared) ? declared.path("properties") : declared;
    for (Map.Entry<String, JsonNode> e : specs.properties()) {
      if (!out.has(e.getKey()) && e.getValue().isObject() && e.getValue().has("default")) {
        out.set(e.getKey(), e.getValue().get("default").deepCopy());
      }
    }
    return out;
  }

  private static boolean isSchema(JsonNode declared) {
    return declared.has("properties") && declared.path("properties").isObject()
        || "object".equals(declared.path("type").asText(null));
  }
}

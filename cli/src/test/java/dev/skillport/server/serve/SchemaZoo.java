package dev.skillport.server.serve;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes a generated skill whose tools declare one input or output schema shape each: every form a
 * skill author may write that MCP's listing rules (root {@code type: object}, object-valued
 * properties) or a client's validator (Ajv without the 2020-12 dialect) could trip over. Each tool
 * is a shell script printing a result its declared output schema accepts.
 */
final class SchemaZoo {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Tool name → {input_schema?, output_schema?, stdout}. */
  static final Map<String, ObjectNode> TOOLS = tools();

  private SchemaZoo() {}

  private static Map<String, ObjectNode> tools() {
    Map<String, ObjectNode> t = new LinkedHashMap<>();
    t.put("in_string_root", tool("{\"type\":\"string\"}", null, "ok"));
    t.put(
        "in_boolean_properties",
        tool("{\"type\":\"object\",\"properties\":{\"a\":true,\"b\":false}}", null, "ok"));
    t.put(
        "in_dialect_2020",
        tool(
            "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"type\":\"object\","
                + "\"$defs\":{\"p\":{\"type\":\"string\"}},\"properties\":{\"a\":{\"$ref\":"
                + "\"#/$defs/p\"},\"pair\":{\"type\":\"array\",\"prefixItems\":[{\"type\":"
                + "\"number\"},{\"type\":\"number\"}]}}}",
            null,
            "ok"));
    t.put(
        "in_dialect_without_type",
        tool(
            "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"properties\":"
                + "{\"a\":{\"type\":\"integer\"}}}",
            null,
            "ok"));
    t.put(
        "in_combinators",
        tool(
            "{\"type\":\"object\",\"properties\":{\"mode\":{\"anyOf\":[{\"type\":\"string\"},"
                + "{\"type\":\"null\"}]},\"size\":{\"oneOf\":[{\"type\":\"integer\"},{\"type\":"
                + "\"string\"}]}},\"allOf\":[{\"required\":[\"mode\"]}],\"not\":{\"required\":"
                + "[\"x\"]}}",
            null,
            "ok"));
    t.put("in_nullable_root", tool("{\"type\":[\"object\",\"null\"]}", null, "ok"));
    t.put("in_no_type", tool("{\"properties\":{\"a\":{\"type\":\"string\"}}}", null, "ok"));
    t.put("out_string", tool(null, "{\"type\":\"string\"}", "hello"));
    t.put("out_number", tool(null, "{\"type\":\"number\"}", "42"));
    t.put(
        "out_array",
        tool(null, "{\"type\":\"array\",\"items\":{\"type\":\"integer\"}}", "[1, 2, 3]"));
    t.put(
        "out_dialect_2020",
        tool(
            null,
            "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"type\":\"object\","
                + "\"properties\":{\"n\":{\"type\":\"integer\"}},\"required\":[\"n\"]}",
            "{\"n\": 1}"));
    t.put(
        "out_no_type", tool(null, "{\"properties\":{\"n\":{\"type\":\"integer\"}}}", "{\"n\": 2}"));
    t.put(
        "out_local_ref",
        tool(
            null,
            "{\"type\":\"object\",\"$defs\":{\"p\":{\"type\":\"string\"}},\"properties\":"
                + "{\"x\":{\"$ref\":\"#/$defs/p\"}},\"required\":[\"x\"]}",
            "{\"x\": \"a\"}"));
    t.put(
        "out_nullable_object",
        tool(
            null,
            "{\"type\":[\"object\",\"null\"],\"properties\":{\"n\":{\"type\":\"integer\"}}}",
            "{\"n\": 3}"));
    t.put("out_true", tool(null, "true", "{\"any\": 1}"));
    t.put(
        "out_boolean_property",
        tool(null, "{\"type\":\"object\",\"properties\":{\"any\":true}}", "{\"any\": [1]}"));
    return t;
  }

  private static ObjectNode tool(String input, String output, String stdout) {
    try {
      ObjectNode o = JSON.createObjectNode();
      if (input != null) {
        o.set("input_schema", JSON.readTree(input));
      }
      if (output != null) {
        o.set("output_schema", JSON.readTree(output));
      }
      o.put("stdout", stdout);
      return o;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes the skill folder {@code dir} (named {@code schema-zoo}). */
  static void writeTo(Path dir) throws IOException {
    Files.createDirectories(dir.resolve("scripts"));
    Files.writeString(
        dir.resolve("SKILL.md"),
        """
        ---
        name: schema-zoo
        description: Generated tools, one per input or output schema shape a skill may declare.
        metadata:
          dcc-mcp:
            tools: tools.yaml
        ---
        # schema-zoo
        """);
    ObjectNode file = JSON.createObjectNode();
    ArrayNode list = file.putArray("tools");
    for (Map.Entry<String, ObjectNode> e : TOOLS.entrySet()) {
      ObjectNode entry = list.addObject().put("name", e.getKey());
      entry.put("description", "Declares " + e.getKey().replace('_', ' ') + ".");
      for (String key : new String[] {"input_schema", "output_schema"}) {
        if (e.getValue().has(key)) {
          entry.set(key, e.getValue().get(key));
        }
      }
      Files.writeString(
          dir.resolve("scripts/" + e.getKey() + ".sh"),
          "printf '%s\\n' '" + e.getValue().get("stdout").asText() + "'\n");
    }
    // JSON is YAML: the tools file is written as one JSON document.
    Files.writeString(dir.resolve("tools.yaml"), JSON.writeValueAsString(file));
  }
}

package dev.skillport.loader.sibling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import com.networknt.schema.path.PathType;
import dev.skillport.model.schema.SchemaPrecheck;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JSON Schemas (2020-12) that sibling files and their entries are checked against, shipped as
 * resources under {@code dev/skillport/loader/schemas/}. Each is compiled once, when the first
 * entry that the prechecks cannot vouch for is validated, and shared by every thread: a compiled
 * networknt schema is immutable. Valid skills of the plain shapes never need the compiled schemas.
 *
 * <p>File-level schemas check only the envelope (is {@code tools} a list?), so that one bad entry
 * can be dropped alone; entry schemas ({@code $defs} of the same file) check one entry each.
 */
enum SiblingSchema {
  TOOLS_FILE("tools-file", ""),
  TOOL("tools-file", "/$defs/tool"),
  GROUPS_FILE("groups-file", ""),
  GROUP("groups-file", "/$defs/group"),
  PROMPTS_FILE("prompts-file", ""),
  PROMPT("prompts-file", "/$defs/prompt"),
  WORKFLOW_PROMPT("prompts-file", "/$defs/workflowPrompt"),
  RESOURCES_FILE("resources-file", ""),
  RESOURCE("resources-file", "/$defs/resource"),
  WORKFLOW_FILE("workflow", ""),
  WORKFLOW("workflow", "/$defs/workflow"),
  EXTERNAL_DEPS("external-deps", ""),
  EXTERNAL_DEP("external-deps", "/$defs/dependency"),
  RUNTIMES("runtimes", ""),
  RUNTIME("runtimes", "/$defs/runtime"),
  MCP_BRIDGE("mcp-bridge", ""),
  /** The JSON Schema 2020-12 meta-schema, served from the validator's own jar (never fetched). */
  META_2020_12(null, null);

  private static final String RESOURCE_ROOT = "classpath:dev/skillport/loader/schemas/";
  private static final String META_SCHEMA_ID = "https://json-schema.org/draft/2020-12/schema";

  private final String file;
  private final String fragment;

  SiblingSchema(String file, String fragment) {
    this.file = file;
    this.fragment = fragment;
  }

  /** One validation failure: where in the instance, and why. */
  record Issue(String pointer, String message) {
    /** {@code pointer: message}, or the message alone at the root. */
    String describe() {
      return pointer.isEmpty() ? message : pointer + ": " + message;
    }
  }

  /** The failures of {@code instance}, in the validator's order; empty when it is valid. */
  List<Issue> validate(JsonNode instance) {
    if (certainlyValid(instance)) {
      return List.of();
    }
    return validateFully(instance);
  }

  private static void findNonFinite(JsonNode node, String pointer, List<Issue> out) {
    if (node == null) {
      return;
    }
    if (node.isFloatingPointNumber()) {
      double value = node.doubleValue();
      if (Double.isNaN(value) || Double.isInfinite(value)) {
        out.add(new Issue(pointer, "must be a finite number, not " + node.asText()));
      }
    } else if (node.isObject()) {
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        findNonFinite(
            field.getValue(),
            pointer + "/" + field.getKey().replace("~", "~0").replace("/", "~1"),
            out);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        findNonFinite(node.get(i), pointer + "/" + i, out);
      }
    }
  }

  /**
   * True when a shortcut knows {@code instance} is valid without the full validator; false means
   * "not known". Valid entries of the plain shapes skill files use take this path.
   */
  boolean certainlyValid(JsonNode instance) {
    return this == META_2020_12
        ? MetaSchemaShortcut.certainlyValid(instance)
        : Prechecks.of(this).certainlyValid(instance);
  }

  /** {@link #validate} without the shortcuts: always the full validator. */
  List<Issue> validateFully(JsonNode instance) {
    List<Error> errors;
    try {
      errors = Compiled.SCHEMAS.get(this).validate(instance);
    } catch (NumberFormatException e) {
      // YAML's .nan and .inf are numbers JSON has no place for: the validator fails to compare
      // them with a bound. They are the entry's problem, reported where they are.
      List<Issue> nonFinite = new ArrayList<>(1);
      findNonFinite(instance, "", nonFinite);
      if (nonFinite.isEmpty()) {
        throw e;
      }
      return nonFinite;
    }
    List<Issue> issues = new ArrayList<>(errors.size());
    for (Error e : errors) {
      issues.add(new Issue(pointer(e.getInstanceLocation()), e.getMessage()));
    }
    return issues;
  }

  private static String pointer(NodePath path) {
    if (path == null) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < path.getNameCount(); i++) {
      sb.append('/')
          .append(String.valueOf(path.getElement(i)).replace("~", "~0").replace("/", "~1"));
    }
    return sb.toString();
  }

  /**
   * A precheck per shipped schema, read from the same resources the validator compiles. Each is
   * made when first needed and each resource read once: a skill of tools alone never reads the
   * prompts' or workflows' schemas, and prechecking never compiles the validator's.
   */
  private static final class Prechecks {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<SiblingSchema, SchemaPrecheck> MADE = new ConcurrentHashMap<>();
    private static final Map<String, JsonNode> FILES = new ConcurrentHashMap<>();

    static SchemaPrecheck of(SiblingSchema schema) {
      return MADE.computeIfAbsent(
          schema,
          s -> new SchemaPrecheck(FILES.computeIfAbsent(s.file, Prechecks::read), s.fragment));
    }

    private static JsonNode read(String file) {
      String resource = RESOURCE_ROOT.substring("classpath:".length()) + file + ".schema.json";
      try (InputStream in = SiblingSchema.class.getClassLoader().getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException("missing schema resource " + resource);
        }
        return JSON.readTree(in);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read schema resource " + resource, e);
      }
    }
  }

  /**
   * Lazy holder: class initialisation makes compilation happen once and publishes it safely.
   * Compiling every schema costs a cold start tens of milliseconds, so it waits for the first entry
   * the prechecks cannot vouch for.
   */
  private static final class Compiled {
    static final Map<SiblingSchema, Schema> SCHEMAS = compileAll();

    private static Map<SiblingSchema, Schema> compileAll() {
      // The default schema loader resolves meta-schemas and classpath: IRIs from jars and does not
      // fetch http(s) resources; it is kept that way so no $ref ever reaches the network.
      SchemaRegistry registry =
          SchemaRegistry.withDefaultDialect(
              SpecificationVersion.DRAFT_2020_12,
              b ->
                  b.schemaRegistryConfig(
                      SchemaRegistryConfig.builder().pathType(PathType.JSON_POINTER).build()));
      Map<SiblingSchema, Schema> compiled = new EnumMap<>(SiblingSchema.class);
      for (SiblingSchema s : values()) {
        String location =
            s.file == null
                ? META_SCHEMA_ID
                : RESOURCE_ROOT
                    + s.file
                    + ".schema.json"
                    + (s.fragment.isEmpty() ? "" : "#" + s.fragment);
        Schema schema = registry.getSchema(SchemaLocation.of(location));
        schema.initializeValidators();
        compiled.put(s, schema);
      }
      return compiled;
    }
  }
}

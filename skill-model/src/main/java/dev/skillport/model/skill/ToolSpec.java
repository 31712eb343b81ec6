package dev.skillport.model.skill;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One tool a skill declares.
 *
 * @param name unique within its skill
 * @param description shown to agents (already defaulted when the author left it empty)
 * @param inputSchema full JSON Schema of the arguments: a deeply immutable copy (every mutator
 *     throws {@link UnsupportedOperationException}; {@link JsonNode#deepCopy()} gives a mutable
 *     one), taken once: a schema that is already such a copy, such as another spec's, is shared
 * @param outputSchema JSON Schema of {@code structuredContent}, or {@code null}; immutable like
 *     {@code inputSchema}
 * @param annotations MCP hints
 * @param nextTools suggested follow-up tools
 * @param group the group the tool belongs to, or {@code null} when always active
 * @param execution sync or async
 * @param timeoutHintSecs expected duration and script timeout, or {@code null}
 * @param affinity which thread the tool needs
 * @param binding the code that answers a call
 * @param requiredCapabilities capabilities the server or adapter must declare
 * @param searchAliases extra search terms
 * @param extras the other documented keys kept verbatim ({@code call_examples}, {@code risk}, …)
 * @param paths the arguments that are file-system paths and where each may point; checked before
 *     the tool runs, at most one entry per argument
 */
public record ToolSpec(
    String name,
    String description,
    JsonNode inputSchema,
    JsonNode outputSchema,
    ToolAnnotations annotations,
    NextTools nextTools,
    String group,
    Execution execution,
    Integer timeoutHintSecs,
    ThreadAffinity affinity,
    ToolBinding binding,
    List<String> requiredCapabilities,
    List<String> searchAliases,
    Map<String, Object> extras,
    List<PathArgument> paths) {

  public ToolSpec {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("tool name must not be blank");
    }
    description = description == null ? "" : description;
    // Frozen rather than deep-copied: the copy is compact and immutable, so specs built from one
    // another (toBuilder, bindings) share it instead of copying again.
    inputSchema = FrozenJson.freeze(Objects.requireNonNull(inputSchema, "inputSchema"));
    outputSchema = outputSchema == null ? null : FrozenJson.freeze(outputSchema);
    annotations = annotations == null ? ToolAnnotations.NONE : annotations;
    nextTools = nextTools == null ? NextTools.NONE : nextTools;
    execution = execution == null ? Execution.SYNC : execution;
    if (timeoutHintSecs != null && timeoutHintSecs <= 0) {
      throw new IllegalArgumentException("timeoutHintSecs must be positive");
    }
    affinity = affinity == null ? ThreadAffinity.ANY : affinity;
    binding = binding == null ? new ToolBinding.Unbound() : binding;
    requiredCapabilities = Immutables.list(requiredCapabilities);
    searchAliases = Immutables.list(searchAliases);
    extras = Immutables.map(extras);
    paths = Immutables.list(paths);
    if (paths.stream().map(PathArgument::argument).distinct().count() != paths.size()) {
      throw new IllegalArgumentException("tool '" + name + "' declares a path argument twice");
    }
  }

  /**
   * Whether {@code schema} admits only JSON objects at its root, as MCP requires of a listed {@code
   * inputSchema} and {@code outputSchema}: the boolean schema {@code true}, or a mapping whose
   * {@code type} is absent, {@code "object"}, or a list of {@code "object"} with at most {@code
   * "null"} beside it. A missing {@code type} counts: MCP adds {@code type: object} to what the
   * schema says, and a result or arguments are objects anyway.
   */
  public static boolean admitsOnlyObjects(JsonNode schema) {
    if (schema == null || schema.isBoolean()) {
      return schema == null || schema.booleanValue();
    }
    if (!schema.isObject()) {
      return false;
    }
    JsonNode type = schema.get("type");
    if (type == null) {
      return true;
    }
    if (type.isTextual()) {
      return type.asText().equals("object");
    }
    if (!type.isArray()) {
      return false;
    }
    boolean object = false;
    for (JsonNode t : type) {
      if (t.asText().equals("object")) {
        object = true;
      } else if (!t.asText().equals("null")) {
        return false;
      }
    }
    return object;
  }

  /**
   * Whether this tool's result is served wrapped: its {@code output_schema} describes a value that
   * need not be an object (a string, a list, …), so {@code structuredContent} carries the value as
   * {@code {"result": value}} and the listed {@code outputSchema} says so. The declared schema
   * still checks the value itself.
   */
  public boolean wrapsOutput() {
    return outputSchema != null && !admitsOnlyObjects(outputSchema);
  }

  /** The schema used when a tool declares none: {@code {"type":"object"}}. */
  public static JsonNode defaultInputSchema() {
    return JsonNodeFactory.instance.objectNode().put("type", "object");
  }

  public static Builder builder(String name, JsonNode inputSchema) {
    return new Builder(name, inputSchema);
  }

  public Builder toBuilder() {
    return new Builder(name, inputSchema)
        .description(description)
        .outputSchema(outputSchema)
        .annotations(annotations)
        .nextTools(nextTools)
        .group(group)
        .execution(execution)
        .timeoutHintSecs(timeoutHintSecs)
        .affinity(affinity)
        .binding(binding)
        .requiredCapabilities(requiredCapabilities)
        .searchAliases(searchAliases)
        .extras(extras)
        .paths(paths);
  }

  /** Builds a {@link ToolSpec}; required fields are the constructor's arguments. */
  public static final class Builder {
    private final String name;
    private final JsonNode inputSchema;
    private String description = "";
    private JsonNode outputSchema;
    private ToolAnnotations annotations = ToolAnnotations.NONE;
    private NextTools nextTools = NextTools.NONE;
    private String group;
    private Execution execution = Execution.SYNC;
    private Integer timeoutHintSecs;
    private ThreadAffinity affinity = ThreadAffinity.ANY;
    private ToolBinding binding = new ToolBinding.Unbound();
    private List<String> requiredCapabilities = List.of();
    private List<String> searchAliases = List.of();
    private Map<String, Object> extras = Map.of();
    private List<PathArgument> paths = List.of();

    private Builder(String name, JsonNode inputSchema) {
      this.name = name;
      this.inputSchema = inputSchema;
    }

    public Builder description(String value) {
      this.description = value;
      return this;
    }

    public Builder outputSchema(JsonNode value) {
      this.outputSchema = value;
      return this;
    }

    public Builder annotations(ToolAnnotations value) {
      this.annotations = value;
      return this;
    }

    public Builder nextTools(NextTools value) {
      this.nextTools = value;
      return this;
    }

    public Builder group(String value) {
      this.group = value;
      return this;
    }

    public Builder execution(Execution value) {
      this.execution = value;
      return this;
    }

    public Builder timeoutHintSecs(Integer value) {
      this.timeoutHintSecs = value;
      return this;
    }

    public Builder affinity(ThreadAffinity value) {
      this.affinity = value;
      return this;
    }

    public Builder binding(ToolBinding value) {
      this.binding = value;
      return this;
    }

    public Builder requiredCapabilities(List<String> value) {
      this.requiredCapabilities = value;
      return this;
    }

    public Builder searchAliases(List<String> value) {
      this.searchAliases = value;
      return this;
    }

    public Builder extras(Map<String, Object> value) {
      this.extras = value;
      return this;
    }

    public Builder paths(List<PathArgument> value) {
      this.paths = value;
      return this;
    }

    public ToolSpec build() {
      return new ToolSpec(
          name,
          description,
          inputSchema,
          outputSchema,
          annotations,
          nextTools,
          group,
          execution,
          timeoutHintSecs,
          affinity,
          binding,
          requiredCapabilities,
          searchAliases,
          extras,
          paths);
    }
  }
}

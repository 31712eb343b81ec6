package dev.skillport.sdk.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.skillport.api.diagnostic.Diagnostic;
import dev.skillport.api.skill.Scope;
import dev.skillport.api.skill.Skill;
import dev.skillport.api.skill.ToolBinding;
import dev.skillport.api.skill.ToolSpec;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolHandlerProvider;
import dev.skillport.api.tool.ToolInvocation;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Loads one skill folder with the real loader and calls its tools in-process, so a skill's own unit
 * tests exercise the same tools file, schemas and handler ids the server serves.
 *
 * <pre>{@code
 * SkillTestKit kit = SkillTestKit.load(skillDir, new GreetingHandlers());
 * assertThat(kit.diagnostics()).isEmpty();
 * ToolResult result = kit.call("hello", Map.of("name", "Ada"));
 * }</pre>
 *
 * <p>Arguments are validated against the tool's input schema first, as the server does. Java tools
 * ({@code handler: <id>}) run on the calling thread; script tools run as a child process that reads
 * the arguments as JSON on stdin ({@code .py} with {@code python3}, {@code .sh}/{@code .bash} with
 * their shell, {@code .js}/{@code .mjs} with {@code node}).
 */
public final class SkillTestKit {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final LoadResult loaded;
  private final Skill skill;
  private final Map<String, ToolHandler> handlers;
  private final SchemaRegistry schemas =
      SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

  private SkillTestKit(LoadResult loaded, Map<String, ToolHandler> handlers) {
    this.loaded = loaded;
    this.skill = loaded.skills().isEmpty() ? null : loaded.skills().get(0);
    this.handlers = Map.copyOf(handlers);
  }

  /**
   * Reads the skill in {@code skillDir} (default, not strict, options) and binds its {@code
   * handler:} tools to the handlers of {@code providers}.
   *
   * @throws IllegalArgumentException when two providers register the same handler id
   */
  public static SkillTestKit load(Path skillDir, ToolHandlerProvider... providers) {
    return load(skillDir, LoaderOptions.DEFAULTS, providers);
  }

  /** As {@link #load(Path, ToolHandlerProvider...)}, with the given loader options. */
  public static SkillTestKit load(
      Path skillDir, LoaderOptions options, ToolHandlerProvider... providers) {
    Objects.requireNonNull(skillDir, "skillDir");
    Map<String, ToolHandler> byId = new HashMap<>();
    for (ToolHandlerProvider provider : providers) {
      provider
          .handlers()
          .forEach(
              (id, handler) -> {
                if (byId.putIfAbsent(id, handler) != null) {
                  throw new IllegalArgumentException("handler id '" + id + "' is provided twice");
                }
              });
    }
    LoadResult loaded = new SkillLoader(options).loadSkill(skillDir, Scope.USER);
    return new SkillTestKit(loaded, byId);
  }

  /** The skill as the loader read it, or empty when the folder holds none. */
  public Optional<Skill> skill() {
    return Optional.ofNullable(skill);
  }

  /** Everything the loader reported about the folder. */
  public List<Diagnostic> diagnostics() {
    return loaded.diagnostics();
  }

  /** The tools the skill declares, in file order. */
  public List<ToolSpec> tools() {
    return skill == null ? List.of() : skill.tools();
  }

  /** Calls {@code toolName} with arguments given as a map (converted to a JSON object). */
  public ToolResult call(String toolName, Map<String, ?> arguments) {
    JsonNode tree = JSON.valueToTree(arguments == null ? Map.of() : arguments);
    return call(toolName, tree);
  }

  /**
   * Calls {@code toolName} with a JSON object of arguments, after checking them against the tool's
   * input schema. A handler's exception becomes an {@code isError} result with its message, as in
   * the server.
   *
   * @throws IllegalArgumentException when the tool is unknown or the arguments break its schema
   *     (the message lists every violation)
   * @throws IllegalStateException when the tool has no code bound (no handler among the providers,
   *     no script)
   */
  public ToolResult call(String toolName, JsonNode arguments) {
    JsonNode args = arguments == null ? JsonNodeFactory.instance.objectNode() : arguments;
    ToolSpec tool =
        tools().stream()
            .filter(t -> t.name().equals(toolName))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "no tool '" + toolName + "' in this skill; tools: " + toolNames()));
    List<String> violations = violations(tool.inputSchema(), args);
    if (!violations.isEmpty()) {
      throw new IllegalArgumentException(
          "arguments of '" + toolName + "' break its input schema: " + violations);
    }
    return tool.binding()
        .accept(
            new ToolBinding.Visitor<ToolResult>() {
              @Override
              public ToolResult handler(ToolBinding.Handler h) {
                ToolHandler handler = handlers.get(h.handlerId());
                if (handler == null) {
                  throw new IllegalStateException(
                      "tool '"
                          + toolName
                          + "' is bound to handler '"
                          + h.handlerId()
                          + "', which no given provider registers");
                }
                return invoke(
                    handler, new ToolInvocation(skill.name(), toolName, args, ToolContext.NONE));
              }

              @Override
              public ToolResult script(ToolBinding.Script s) {
                return ScriptProcess.run(s.script(), args, tool.timeoutHintSecs());
              }

              @Override
              public ToolResult bridge(ToolBinding.Bridge b) {
                throw new IllegalStateException(
                    "tool '"
                        + toolName
                        + "' is a bridged MCP server's tool; the kit does not start bridges");
              }

              @Override
              public ToolResult unbound(ToolBinding.Unbound u) {
                throw new IllegalStateException("tool '" + toolName + "' has no code bound to it");
              }
            });
  }

  private static ToolResult invoke(ToolHandler handler, ToolInvocation invocation) {
    try {
      return handler.call(invocation);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ToolResult.error("interrupted");
    } catch (Exception e) {
      return ToolResult.error(e.getMessage() == null ? e.toString() : e.getMessage());
    }
  }

  private List<String> violations(JsonNode schema, JsonNode arguments) {
    Schema compiled = schemas.getSchema(schema);
    List<Error> errors = compiled.validate(arguments);
    return errors.stream().map(Error::toString).toList();
  }

  private List<String> toolNames() {
    return tools().stream().map(ToolSpec::name).toList();
  }
}

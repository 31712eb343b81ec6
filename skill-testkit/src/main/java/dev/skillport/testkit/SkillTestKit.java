package dev.skillport.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolHandlerProvider;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.registry.Catalog;
import dev.skillport.runtime.HandlerRegistry;
import dev.skillport.runtime.HostExecutors;
import dev.skillport.runtime.ScriptPolicy;
import dev.skillport.runtime.ScriptToolRunner;
import dev.skillport.runtime.ToolBindings;
import dev.skillport.runtime.ToolRunner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Loads one skill folder with the real loader and calls its tools in-process through the server's
 * own runtime, so a skill's unit tests see what a client of the server would: the same input-schema
 * check, the same handler binding (an unregistered handler id is the {@code HANDLER_NOT_REGISTERED}
 * diagnostic at load), the same script runner (arguments on stdin and as {@code --key value} flags,
 * the environment reduced to what the server passes on, the same timeouts and output caps) and the
 * same output-schema check and the same failures ({@code INVALID_ARGUMENTS}, {@code
 * HANDLER_FAILED}, {@code SCRIPT_*}, {@code OUTPUT_SCHEMA_MISMATCH}, with their codes in the
 * structured result): the calls run through the server's {@link ToolRunner}.
 *
 * <pre>{@code
 * try (SkillTestKit kit = SkillTestKit.load(skillDir, new GreetingHandlers())) {
 *   assertThat(kit.diagnostics()).isEmpty();
 *   ToolResult result = kit.call("hello", Map.of("name", "Ada"));
 * }
 * }</pre>
 *
 * <p>What needs a running server is refused with the server's failure for its absence: a tool on a
 * host's main thread or in a product's own Python ({@code HOST_ADAPTER_MISSING}, {@code
 * DCC_INTERPRETER_MISSING}) and a bridged MCP server's tool ({@code BRIDGE_UNAVAILABLE}).
 */
public final class SkillTestKit implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final LoadResult loaded;
  private final Skill skill;
  private final ToolBindings bindings;
  private final List<Diagnostic> diagnostics;
  private final ToolRunner runner;

  private SkillTestKit(LoadResult loaded, HandlerRegistry handlers, ScriptPolicy policy) {
    this.loaded = loaded;
    this.skill = loaded.skills().isEmpty() ? null : loaded.skills().get(0);
    this.bindings =
        ToolBindings.bind(Catalog.of(1, loaded.skills(), loaded.diagnostics()), handlers);
    List<Diagnostic> all = new ArrayList<>(loaded.diagnostics());
    all.addAll(bindings.diagnostics());
    all.sort(Diagnostic.ORDER);
    this.diagnostics = List.copyOf(all);
    this.runner =
        new ToolRunner(
            new ScriptToolRunner(policy),
            HostExecutors.none("the test kit runs no host adapters"),
            (s, tool, args, ctx) ->
                ToolResult.failure(
                    ToolFailureCode.BRIDGE_UNAVAILABLE,
                    "tool '" + tool.name() + "' belongs to a bridged MCP server",
                    "the kit starts no bridges; test the bridge on a server"));
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
    return load(skillDir, options, ScriptPolicy.defaults(), providers);
  }

  /**
   * As {@link #load(Path, LoaderOptions, ToolHandlerProvider...)}, running scripts under {@code
   * policy} (the server's {@code --script-*} and {@code --python} settings).
   */
  public static SkillTestKit load(
      Path skillDir, LoaderOptions options, ScriptPolicy policy, ToolHandlerProvider... providers) {
    Objects.requireNonNull(skillDir, "skillDir");
    Objects.requireNonNull(policy, "policy");
    HandlerRegistry registry = new HandlerRegistry();
    Set<String> ids = new HashSet<>();
    for (ToolHandlerProvider provider : providers) {
      for (Map.Entry<String, ToolHandler> e : provider.handlers().entrySet()) {
        if (!ids.add(e.getKey())) {
          throw new IllegalArgumentException("handler id '" + e.getKey() + "' is provided twice");
        }
        registry.register(e.getKey(), e.getValue());
      }
    }
    LoadResult loaded = new SkillLoader(options).loadSkill(skillDir, Scope.USER);
    return new SkillTestKit(loaded, registry, policy);
  }

  /** The skill as the loader read it, or empty when the folder holds none. */
  public Optional<Skill> skill() {
    return Optional.ofNullable(skill);
  }

  /**
   * Everything reported about the folder: the loader's diagnostics and, as on the server, one
   * {@code HANDLER_NOT_REGISTERED} per tool whose handler id no given provider registers.
   */
  public List<Diagnostic> diagnostics() {
    return diagnostics;
  }

  /** The loader's result as it is, without the binding diagnostics. */
  public LoadResult loadResult() {
    return loaded;
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
   * Calls {@code toolName} with a JSON object of arguments and answers what the server's {@code
   * tools/call} would carry: arguments that break the input schema are the {@code
   * INVALID_ARGUMENTS} failure, a handler's exception {@code HANDLER_FAILED}, a tool bound to no
   * code {@code NO_HANDLER}.
   *
   * @throws IllegalArgumentException when the skill has no tool of that name (a mistake in the
   *     test, not in the skill)
   */
  public ToolResult call(String toolName, JsonNode arguments) {
    return call(toolName, arguments, ToolContext.NONE);
  }

  /** As {@link #call(String, JsonNode)}, with {@code context} for progress, cancel and asking. */
  public ToolResult call(String toolName, JsonNode arguments, ToolContext context) {
    JsonNode args = arguments == null ? JsonNodeFactory.instance.objectNode() : arguments;
    ToolSpec tool =
        tools().stream()
            .filter(t -> t.name().equals(toolName))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "no tool '" + toolName + "' in this skill; tools: " + toolNames()));
    if (!args.isObject()) {
      return ToolResult.failure(
          ToolFailureCode.INVALID_ARGUMENTS, "arguments must be a JSON object", null);
    }
    ToolResult invalid = runner.invalidArguments(skill, tool, args);
    if (invalid != null) {
      return invalid;
    }
    return runner.run(bindings, skill, tool, args, context);
  }

  /** Ends scripts still running (their whole process trees). */
  @Override
  public void close() {
    runner.scripts().close();
  }

  private List<String> toolNames() {
    return tools().stream().map(ToolSpec::name).toList();
  }
}

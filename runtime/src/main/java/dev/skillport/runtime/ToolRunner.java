package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.host.HostCall;
import dev.skillport.api.host.HostExecutor;
import dev.skillport.api.tool.ClientRequestException;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolInvocation;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.ThreadAffinity;
import dev.skillport.model.skill.ToolBinding;
import dev.skillport.model.skill.ToolSpec;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one tool of a skill, the same way for the server and for {@code SkillTestKit}: its arguments
 * checked against the input schema, its code run by what it is bound to (a Java handler, a script
 * as a process or inside its host, a bridged server's tool), and its result checked against the
 * output schema. Failures are {@link ToolResult} failures with a {@link ToolFailureCode}; nothing
 * here throws for a tool's fault.
 */
public final class ToolRunner {
  private static final Logger LOG = LoggerFactory.getLogger(ToolRunner.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final ArgumentValidator validator = new ArgumentValidator();
  private final ScriptToolRunner scripts;
  private final HostExecutors hosts;
  private final BridgedTools bridges;

  /**
   * @param scripts runs script tools as processes
   * @param hosts runs main-thread scripts (and a product's Python) inside their host
   * @param bridges calls the tools of bridge skills
   */
  public ToolRunner(ScriptToolRunner scripts, HostExecutors hosts, BridgedTools bridges) {
    this.scripts = Objects.requireNonNull(scripts, "scripts");
    this.hosts = Objects.requireNonNull(hosts, "hosts");
    this.bridges = Objects.requireNonNull(bridges, "bridges");
  }

  /**
   * The host adapter a queued call of {@code tool} needs: the skill's {@code dcc} when the tool
   * runs on its host's main thread, or when this instance has the host and would run it there; else
   * null (any instance runs it as a process).
   */
  public String hostFor(Skill skill, ToolSpec tool) {
    String dcc = skill.manifest().extensions().dcc();
    if (dcc == null || dcc.isBlank()) {
      return null;
    }
    return tool.affinity() == ThreadAffinity.MAIN || hasHost(skill) ? dcc : null;
  }

  /** Whether this instance has a host adapter that runs {@code skill}'s tools. */
  public boolean hasHost(Skill skill) {
    return hosts.mainThreadExecutor(skill).isPresent();
  }

  /** The script runner behind script tools. */
  public ScriptToolRunner scripts() {
    return scripts;
  }

  /**
   * The {@code INVALID_ARGUMENTS} failure for {@code args} against {@code tool}'s input schema, or
   * null when they conform (or the schema cannot be used, which the loader has reported).
   */
  public ToolResult invalidArguments(Skill skill, ToolSpec tool, JsonNode args) {
    List<String> violations = violations(skill, tool, "input", tool.inputSchema(), args);
    if (violations.isEmpty()) {
      return null;
    }
    return ToolResult.failure(
        ToolFailureCode.INVALID_ARGUMENTS,
        "arguments do not match the input schema: " + String.join("; ", violations),
        "fix every listed argument and call again");
  }

  /**
   * Runs {@code tool} with arguments already checked by {@link #invalidArguments}, and answers its
   * result, or the {@code OUTPUT_SCHEMA_MISMATCH} failure when the tool declares an output schema
   * that the result breaks.
   *
   * @param bound the handlers of the catalog generation {@code skill} belongs to
   */
  public ToolResult run(
      ToolBindings bound, Skill skill, ToolSpec tool, JsonNode args, ToolContext ctx) {
    return checkOutput(skill, tool, execute(bound, skill, tool, args, ctx));
  }

  private ToolResult execute(
      ToolBindings bound, Skill skill, ToolSpec tool, JsonNode args, ToolContext ctx) {
    return tool.binding()
        .accept(
            new ToolBinding.Visitor<ToolResult>() {
              @Override
              public ToolResult handler(ToolBinding.Handler h) {
                ToolHandler handler = bound.handler(tool).orElse(null);
                if (handler == null) {
                  return ToolResult.failure(
                      ToolFailureCode.NO_HANDLER,
                      "no Java handler is registered with id '" + h.handlerId() + "'",
                      "install the plugin or SDK jar that provides it");
                }
                return callHandler(
                    handler, new ToolInvocation(skill.name(), tool.name(), args, ctx));
              }

              @Override
              public ToolResult script(ToolBinding.Script s) {
                return runScript(skill, tool, s, args, ctx);
              }

              @Override
              public ToolResult bridge(ToolBinding.Bridge b) {
                return bridges.call(skill, tool, args, ctx);
              }

              @Override
              public ToolResult unbound(ToolBinding.Unbound u) {
                return ToolResult.failure(
                    ToolFailureCode.NO_HANDLER,
                    "tool '" + tool.name() + "' is bound to no code",
                    "declare handler or source_file in the tools file, or add a script named"
                        + " after the tool");
              }
            });
  }

  /** Runs a Java handler; a {@code null} result is an empty text, an exception a failure. */
  private static ToolResult callHandler(ToolHandler handler, ToolInvocation invocation) {
    try {
      ToolResult result = handler.call(invocation);
      return result == null ? ToolResult.text("") : result;
    } catch (ClientRequestException e) {
      return e.reason() == ClientRequestException.Reason.INPUT_REQUIRED
          ? ToolResult.failure(
              ToolFailureCode.INPUT_REQUIRED, "the client is asked for input", null)
          : failed(ToolFailureCode.HANDLER_FAILED, e);
    } catch (InterruptedException e) {
      return interrupted();
    } catch (Exception e) {
      LOG.debug("handler of {}/{} failed", invocation.skill(), invocation.tool(), e);
      return failed(ToolFailureCode.HANDLER_FAILED, e);
    }
  }

  /** The {@code CANCELLED} failure of a call whose thread was interrupted, the flag kept set. */
  static ToolResult interrupted() {
    Thread.currentThread().interrupt();
    return ToolResult.failure(ToolFailureCode.CANCELLED, "the call was interrupted", null);
  }

  /** The failure {@code code} for an exception: its class's simple name and its message. */
  static ToolResult failed(ToolFailureCode code, Exception e) {
    return ToolResult.failure(code, e.getClass().getSimpleName() + ": " + e.getMessage(), null);
  }

  /** A script: in its host when it needs the host's main thread or Python, else a process. */
  private ToolResult runScript(
      Skill skill, ToolSpec tool, ToolBinding.Script s, JsonNode args, ToolContext ctx) {
    if (tool.affinity() == ThreadAffinity.MAIN) {
      return runInHost(skill, tool, s, args, ctx);
    }
    String dcc = skill.manifest().extensions().dcc();
    if (scripts.needsHost(s.script(), dcc)) {
      // A product's Python never runs on the machine's own interpreter: its adapter, or refusal.
      return hosts.mainThreadExecutor(skill).isPresent()
          ? runInHost(skill, tool, s, args, ctx)
          : ScriptToolRunner.dccInterpreterMissing(dcc);
    }
    return scripts.run(
        s.script(), skill.location().directory(), args, tool.timeoutHintSecs(), ctx, dcc);
  }

  /** A main-thread script runs inside its host, through the adapter's executor. */
  private ToolResult runInHost(
      Skill skill, ToolSpec tool, ToolBinding.Script s, JsonNode args, ToolContext ctx) {
    HostExecutor executor = hosts.mainThreadExecutor(skill).orElse(null);
    if (executor == null) {
      return ToolResult.failure(
          ToolFailureCode.HOST_ADAPTER_MISSING,
          hosts
              .refusal(skill)
              .orElse("no host adapter runs '" + skill.name() + "' on its main thread"),
          "install the host adapter plugin for '" + skill.manifest().extensions().dcc() + "'");
    }
    // The same timeout a subprocess would get: the tool's hint, else the server's script default.
    Duration timeout =
        tool.timeoutHintSecs() == null
            ? scripts.policy().defaultTimeout()
            : Duration.ofSeconds(tool.timeoutHintSecs());
    try {
      ToolResult result =
          executor.execute(
              new HostCall(
                  skill.name(),
                  tool.name(),
                  s.script(),
                  skill.location().directory(),
                  args,
                  timeout,
                  ctx));
      return result == null ? ToolResult.text("") : result;
    } catch (InterruptedException e) {
      return interrupted();
    } catch (Exception e) {
      LOG.debug("host call {}/{} failed", skill.name(), tool.name(), e);
      return failed(ToolFailureCode.HOST_CALL_FAILED, e);
    }
  }

  /**
   * A tool that declares {@code output_schema} must return conforming structured content; a result
   * that does not is the tool's failure, reported with every violation.
   */
  private ToolResult checkOutput(Skill skill, ToolSpec tool, ToolResult result) {
    if (result.isError() || tool.outputSchema() == null) {
      return result;
    }
    if (tool.wrapsOutput()) {
      return wrapOutput(skill, tool, result);
    }
    if (result.structured() == null) {
      return ToolResult.failure(
          ToolFailureCode.OUTPUT_SCHEMA_MISMATCH,
          "tool '" + tool.name() + "' declares output_schema but returned no structured content",
          "return a JSON object matching output_schema");
    }
    List<String> violations =
        violations(skill, tool, "output", tool.outputSchema(), result.structured());
    if (violations.isEmpty()) {
      return result;
    }
    return ToolResult.failure(
        ToolFailureCode.OUTPUT_SCHEMA_MISMATCH,
        "structuredContent does not match output_schema: " + String.join("; ", violations),
        "the tool or its output_schema needs fixing");
  }

  /**
   * A tool whose {@code output_schema} describes a value that need not be an object (see {@link
   * ToolSpec#wrapsOutput()}) returns structured content {@code {"result": value}}. The value is the
   * structured result, else the text read as JSON, else the text itself, whichever the declared
   * schema accepts (so {@code 42} can be a number or a string).
   */
  private ToolResult wrapOutput(Skill skill, ToolSpec tool, ToolResult result) {
    List<JsonNode> candidates = new ArrayList<>(2);
    if (result.structured() != null) {
      candidates.add(result.structured());
    } else {
      StringBuilder text = new StringBuilder();
      for (Content c : result.content()) {
        if (c instanceof Content.Text t) {
          text.append(t.text());
        }
      }
      String raw = text.toString();
      try {
        JsonNode parsed = JSON.readTree(raw.strip());
        if (parsed != null && !parsed.isMissingNode()) {
          candidates.add(parsed);
        }
      } catch (IOException e) {
        // Not JSON: the text is the value.
      }
      // The line break a script's last print leaves is not part of the value.
      candidates.add(NODES.textNode(raw.replaceAll("[\\r\\n]+$", "")));
    }
    List<String> violations = List.of();
    for (JsonNode value : candidates) {
      violations = violations(skill, tool, "output", tool.outputSchema(), value);
      if (violations.isEmpty()) {
        ObjectNode wrapped = NODES.objectNode();
        wrapped.set("result", value);
        List<Content> content =
            result.structured() != null
                ? List.of(new Content.Text(wrapped.toString()))
                : result.content();
        return new ToolResult(content, wrapped, false);
      }
    }
    return ToolResult.failure(
        ToolFailureCode.OUTPUT_SCHEMA_MISMATCH,
        "the result does not match output_schema: " + String.join("; ", violations),
        "the tool or its output_schema needs fixing");
  }

  /** The violations of {@code value} against a schema; none when the schema cannot be used. */
  private List<String> violations(
      Skill skill, ToolSpec tool, String which, JsonNode schema, JsonNode value) {
    try {
      return validator.violations(schema, value);
    } catch (RuntimeException e) {
      LOG.warn(
          "{} schema of {}/{} could not be used: {}",
          which,
          skill.name(),
          tool.name(),
          e.toString());
      return List.of();
    }
  }
}

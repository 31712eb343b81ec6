package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.registry.SessionView;
import dev.skillport.registry.ToolNames;
import dev.skillport.registry.ToolResolution;
import dev.skillport.runtime.jobs.Claimant;
import dev.skillport.runtime.jobs.JobResult;
import dev.skillport.runtime.jobs.StoredCall;
import dev.skillport.runtime.jobs.StoredCallRunner;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Routes a {@code tools/call} from its name to what answers it, on one catalog snapshot per call:
 * resolves the name against the session's (or the stateless listing's) {@link ToolNames}, checks
 * the arguments are an object, then hands a skill's tool to {@link ToolCalls}, a platform tool to
 * {@link PlatformTools}, and answers {@code call_tool} itself by routing its target the same way.
 * Names that are listed but cannot run now (a group not active, a skill not loaded) are refused
 * with the call that fixes them. Every call is audited once, whatever it came to.
 */
public final class CallRouter {
  /** The stateless era's tool that calls any tool of the catalog by its qualified name. */
  public static final String CALL_TOOL = "call_tool";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** The naming a called name resolves against. */
  public interface Naming {
    /** The names a session with {@code view} lists on {@code snapshot}. */
    ToolNames names(Catalog snapshot, SessionView view);

    /** The names a stateless request with {@code state} lists on {@code snapshot}. */
    ToolNames statelessNames(Catalog snapshot, SessionState state);
  }

  /** The platform's own tools: the core tools and the session tools listed among them. */
  @FunctionalInterface
  public interface PlatformTools {
    /**
     * Runs platform tool {@code name} on {@code snapshot}, the snapshot the call resolved on.
     *
     * @param router routes the calls the tool makes of other tools
     */
    CallOutcome call(
        Catalog snapshot,
        SessionState session,
        String name,
        JsonNode args,
        ToolContext ctx,
        CallMeta meta,
        CallRouter router)
        throws CapabilityRequiredException;
  }

  /** Whether a stateless caller's group handle activates a group. */
  @FunctionalInterface
  public interface GroupHandles {
    boolean activates(String handle, String skill, String group, String principal);
  }

  private final CatalogHolder catalog;
  private final Naming naming;
  private final CurrentBindings bindings;
  private final ToolCalls calls;
  private final PlatformTools platform;
  private final GroupHandles handles;
  private final Function<Skill, Optional<String>> refusal;
  private final DynamicTools dynamic;

  /**
   * @param catalog the catalog each call takes its snapshot of
   * @param naming the names calls resolve against
   * @param bindings the handlers of each generation's tools
   * @param calls runs a resolved skill tool (guard, jobs, audit)
   * @param platform runs the core and session tools
   * @param handles checks stateless group handles
   * @param refusal why a skill may not run in this server, or empty
   */
  public CallRouter(
      CatalogHolder catalog,
      Naming naming,
      CurrentBindings bindings,
      ToolCalls calls,
      PlatformTools platform,
      GroupHandles handles,
      Function<Skill, Optional<String>> refusal) {
    this(catalog, naming, bindings, calls, platform, handles, refusal, DynamicTools.toolsOnly());
  }

  /**
   * A router that also calls the dynamic tools callers registered in {@code dynamic}.
   *
   * @param dynamic the dynamic tools, reached by their assigned names
   */
  public CallRouter(
      CatalogHolder catalog,
      Naming naming,
      CurrentBindings bindings,
      ToolCalls calls,
      PlatformTools platform,
      GroupHandles handles,
      Function<Skill, Optional<String>> refusal,
      DynamicTools dynamic) {
    this.dynamic = Objects.requireNonNull(dynamic, "dynamic");
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.naming = Objects.requireNonNull(naming, "naming");
    this.bindings = Objects.requireNonNull(bindings, "bindings");
    this.calls = Objects.requireNonNull(calls, "calls");
    this.platform = Objects.requireNonNull(platform, "platform");
    this.handles = Objects.requireNonNull(handles, "handles");
    this.refusal = Objects.requireNonNull(refusal, "refusal");
  }

  /**
   * Calls tool {@code name} for {@code session} and answers what the call came to; a call that
   * {@code meta} marks async, or to a tool declaring {@code execution: async}, is queued as a job.
   *
   * @throws UnknownToolException when the name resolves to nothing (a protocol error)
   * @throws CapabilityRequiredException when the tool needs a capability the client lacks
   */
  public CallOutcome call(
      SessionState session, String name, JsonNode arguments, ToolContext ctx, CallMeta meta)
      throws UnknownToolException, CapabilityRequiredException {
    long start = System.nanoTime();
    String word = "UNKNOWN_TOOL";
    try {
      CallOutcome outcome = route(catalog.current(), session, name, arguments, ctx, meta);
      word = outcome.auditWord();
      return outcome;
    } finally {
      calls.audit(meta, name, arguments, Duration.ofNanos(System.nanoTime() - start), word);
    }
  }

  /**
   * Runs the stored calls of queued jobs that this instance claims: each on the catalog current
   * then, only when the skill there is the one the call was accepted for (the same digest).
   */
  public StoredCallRunner storedCalls() {
    return new StoredCallRunner() {
      private Catalog offered;
      private List<Skill> served = List.of();

      @Override
      public synchronized Claimant claimant() {
        Catalog snapshot = catalog.current();
        if (snapshot != offered) {
          served =
              snapshot.skills().stream()
                  .filter(s -> s.state() == SkillState.AVAILABLE)
                  .filter(s -> refusal.apply(s).isEmpty())
                  .toList();
          offered = snapshot;
        }
        return calls.claimant(served);
      }

      @Override
      public JobResult run(StoredCall call, String owner, ToolContext context) {
        Catalog snapshot = catalog.current();
        Skill skill = snapshot.skill(call.skill()).orElse(null);
        ToolSpec tool = skill == null ? null : skill.tool(call.tool()).orElse(null);
        if (tool == null) {
          return JobResult.of(
              ToolResult.failure(
                  ToolFailureCode.SKILL_NOT_AVAILABLE,
                  "tool '" + call.tool() + "' of skill '" + call.skill() + "' is not served here",
                  null));
        }
        if (!calls.claimant(List.of(skill)).skills().contains(call.skillKey())) {
          return JobResult.of(
              ToolResult.failure(
                  ToolFailureCode.SKILL_NOT_AVAILABLE,
                  "skill '" + call.skill() + "' changed since the call was queued",
                  "call the tool again"));
        }
        return calls.runStored(bindings.of(snapshot), skill, tool, call, owner, context);
      }
    };
  }

  /** The declaration of the skill tool {@code name} calls for {@code session}, if it names one. */
  public Optional<ToolSpec> declared(SessionState session, String name) {
    return resolve(catalog.current(), session, name).declared();
  }

  /** What a called name stands for, for a session or for a stateless request. */
  private ToolResolution resolve(Catalog snapshot, SessionState session, String name) {
    if (!session.isStateless()) {
      return naming.names(snapshot, session.view()).resolve(snapshot, session.view(), name);
    }
    ToolResolution listed =
        naming.statelessNames(snapshot, session).resolve(snapshot, session.listedView(), name);
    // Not listed: any reachable skill's tool by its qualified name.
    return listed.accept(
        new ToolResolution.Visitor<ToolResolution, RuntimeException>() {
          @Override
          public ToolResolution core(ToolResolution.Core core) {
            return core;
          }

          @Override
          public ToolResolution tool(ToolResolution.Tool tool) {
            return tool;
          }

          @Override
          public ToolResolution groupNotActive(ToolResolution.GroupNotActive group) {
            return group;
          }

          @Override
          public ToolResolution skillNotLoaded(ToolResolution.SkillNotLoaded skill) {
            return reachable(skill);
          }

          @Override
          public ToolResolution notFound(ToolResolution.NotFound notFound) {
            return reachable(notFound);
          }

          private ToolResolution reachable(ToolResolution otherwise) {
            ToolResolution found = ToolNames.resolveQualified(snapshot, session.view(), name);
            return found.owner().isPresent() ? found : otherwise;
          }
        });
  }

  /** A call on one catalog snapshot, from resolving the name to what answers it. */
  private CallOutcome route(
      Catalog snapshot,
      SessionState session,
      String name,
      JsonNode arguments,
      ToolContext ctx,
      CallMeta meta)
      throws UnknownToolException, CapabilityRequiredException {
    ToolResolution resolution = resolve(snapshot, session, name);
    DynamicTools.Tool dyn = null;
    if (resolution instanceof ToolResolution.NotFound) {
      dyn = dynamic.find(session, caller(ctx), name).orElseThrow(() -> unknownTool(session, name));
    }
    if (arguments != null && !arguments.isNull() && !arguments.isObject()) {
      return CallOutcome.refused(
          ToolFailureCode.INVALID_ARGUMENTS, "arguments must be a JSON object", null);
    }
    if (dyn != null) {
      return dynamic(snapshot, session, dyn, objectOrEmpty(arguments), ctx, meta);
    }
    return route(snapshot, session, resolution, objectOrEmpty(arguments), ctx, meta, null);
  }

  /**
   * A call of the caller's dynamic tool {@code tool}: its arguments checked against its own input
   * schema, then its code run, or its target called with the preset arguments under the call's own,
   * exactly as a direct call of the target (access, validation, path rules, jobs).
   */
  private CallOutcome dynamic(
      Catalog snapshot,
      SessionState session,
      DynamicTools.Tool tool,
      JsonNode args,
      ToolContext ctx,
      CallMeta meta)
      throws CapabilityRequiredException {
    List<String> violations = dynamic.violations(tool, args);
    if (!violations.isEmpty()) {
      return CallOutcome.refused(
          ToolFailureCode.INVALID_ARGUMENTS,
          "invalid arguments for " + tool.name() + ": " + String.join("; ", violations),
          "list_dynamic_tools shows its input_schema");
    }
    if (tool.isCode()) {
      return new CallOutcome.Completed(dynamic.runCode(tool, args, ctx), null);
    }
    ObjectNode merged = tool.preset().deepCopy();
    merged.setAll((ObjectNode) args);
    ToolResolution target = resolve(snapshot, session, tool.target());
    if (target instanceof ToolResolution.NotFound) {
      return CallOutcome.refused(
          ToolFailureCode.ACTION_NOT_FOUND,
          "the tool " + tool.name() + " calls, '" + tool.target() + "', no longer exists",
          "deregister_tool it and register it again with a tool that exists");
    }
    CallOutcome outcome = route(snapshot, session, target, merged, ctx, meta, null);
    return new CallOutcome.Delegated(
        outcome,
        tool.target(),
        target.owner().map(Skill::name).orElse(null),
        target.declared().orElse(null));
  }

  private static UnknownToolException unknownTool(SessionState session, String name) {
    return new UnknownToolException(
        name,
        session.isStateless()
            ? "call search_tools or search_skills to find a tool, then call it by the name"
                + " load_skill shows (with call_tool when it is not listed)"
            : "call search_tools or search_skills to find a tool, then load_skill");
  }

  private static Principal caller(ToolContext ctx) {
    return ctx == null ? Principal.LOCAL : ctx.principal();
  }

  private static JsonNode objectOrEmpty(JsonNode arguments) {
    return arguments == null || arguments.isNull() ? NODES.objectNode() : arguments;
  }

  /**
   * A resolved call with its arguments already checked to be an object; {@code resolution} is not
   * {@link ToolResolution.NotFound}.
   */
  private CallOutcome route(
      Catalog snapshot,
      SessionState session,
      ToolResolution resolution,
      JsonNode args,
      ToolContext ctx,
      CallMeta meta,
      String groupHandle)
      throws CapabilityRequiredException {
    return resolution.accept(
        new ToolResolution.Visitor<CallOutcome, CapabilityRequiredException>() {
          @Override
          public CallOutcome core(ToolResolution.Core core) throws CapabilityRequiredException {
            return platform(snapshot, session, core.tool().name(), args, ctx, meta);
          }

          @Override
          public CallOutcome tool(ToolResolution.Tool tool) throws CapabilityRequiredException {
            return calls.call(bindings.of(snapshot), tool.skill(), tool.tool(), args, ctx, meta);
          }

          @Override
          public CallOutcome groupNotActive(ToolResolution.GroupNotActive g)
              throws CapabilityRequiredException {
            if (!session.isStateless()) {
              return groupNotActive(g, "\") first");
            }
            if (g.tool() != null
                && handles.activates(groupHandle, g.skill().name(), g.group(), meta.principal())) {
              return calls.call(bindings.of(snapshot), g.skill(), g.tool(), args, ctx, meta);
            }
            return groupNotActive(g, "\") and pass its group_handle to call_tool");
          }

          private CallOutcome groupNotActive(ToolResolution.GroupNotActive g, String hintEnd) {
            return CallOutcome.refused(
                ToolFailureCode.GROUP_NOT_ACTIVATED,
                "group '" + g.group() + "' of skill '" + g.skill().name() + "' is not active",
                "call activate_tool_group(\""
                    + g.group()
                    + "\", skill_name=\""
                    + g.skill().name()
                    + hintEnd);
          }

          @Override
          public CallOutcome skillNotLoaded(ToolResolution.SkillNotLoaded s) {
            if (session.isStateless()) {
              String why = refusal.apply(s.skill()).orElse("it is " + s.skill().state().label());
              return CallOutcome.refused(
                  ToolFailureCode.SKILL_NOT_AVAILABLE,
                  "skill '" + s.skill().name() + "' cannot be called: " + why,
                  "search_skills shows the skills this server runs");
            }
            return CallOutcome.refused(
                ToolFailureCode.SKILL_NOT_LOADED,
                "skill '" + s.skill().name() + "' is not loaded in this session",
                "call load_skill(\"" + s.skill().name() + "\") first");
          }

          @Override
          public CallOutcome notFound(ToolResolution.NotFound notFound) {
            throw new IllegalStateException("an unknown tool is refused before it is routed");
          }
        });
  }

  /** A platform tool, after {@code call_tool} and the job-ownership check. */
  private CallOutcome platform(
      Catalog snapshot,
      SessionState session,
      String name,
      JsonNode args,
      ToolContext ctx,
      CallMeta meta)
      throws CapabilityRequiredException {
    if (session.isStateless() && name.equals(CALL_TOOL)) {
      return callThrough(snapshot, session, args, ctx, meta);
    }
    return platform.call(snapshot, session, name, args, ctx, meta, this);
  }

  /**
   * {@code call_tool}: calls the named catalog tool exactly as a direct call would, and reports the
   * called tool in a {@link CallOutcome.Delegated}.
   */
  private CallOutcome callThrough(
      Catalog snapshot, SessionState session, JsonNode args, ToolContext ctx, CallMeta meta)
      throws CapabilityRequiredException {
    JsonNode target = args.get("name");
    if (target == null || !target.isTextual() || target.asText().isBlank()) {
      return CallOutcome.refused(
          ToolFailureCode.INVALID_ARGUMENTS, "name (a qualified tool name) is required", null);
    }
    if (target.asText().equals(CALL_TOOL)) {
      return CallOutcome.refused(
          ToolFailureCode.INVALID_ARGUMENTS, "call_tool cannot call itself", null);
    }
    JsonNode inner = args.get("arguments");
    if (inner != null && !inner.isNull() && !inner.isObject()) {
      return CallOutcome.refused(
          ToolFailureCode.INVALID_ARGUMENTS, "arguments must be a JSON object", null);
    }
    String handle =
        args.path("group_handle").isTextual() ? args.get("group_handle").asText() : null;
    ToolResolution resolution = resolve(snapshot, session, target.asText());
    if (resolution instanceof ToolResolution.NotFound) {
      DynamicTools.Tool dyn = dynamic.find(session, caller(ctx), target.asText()).orElse(null);
      if (dyn != null) {
        return dynamic(snapshot, session, dyn, objectOrEmpty(inner), ctx, meta);
      }
      UnknownToolException e = unknownTool(session, target.asText());
      return CallOutcome.refused(ToolFailureCode.ACTION_NOT_FOUND, e.getMessage(), e.hint());
    }
    CallOutcome outcome =
        route(snapshot, session, resolution, objectOrEmpty(inner), ctx, meta, handle);
    ToolSpec declared = resolution.declared().orElse(null);
    return new CallOutcome.Delegated(
        outcome,
        target.asText(),
        declared == null ? null : resolution.owner().orElseThrow().name(),
        declared);
  }
}

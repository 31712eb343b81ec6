package dev.skillport.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.loader.LoadResult;
import dev.skillport.mcp.client.McpClient;
import dev.skillport.mcp.client.McpClientException;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolBinding;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.runtime.process.ProcessTree;
import dev.skillport.runtime.secrets.Redactor;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every bridge skill's server, and the one entry the rest of the server uses for them.
 *
 * <ul>
 *   <li><b>Catalog</b>: {@link #decorate} takes the loader's result and adds, per bridge skill, the
 *       operator's verdict as a diagnostic, the tools its server listed when it last ran, and what
 *       went wrong in its life. Whatever changes that (a start, a crash, a list change) publishes a
 *       new catalog through the callback given to {@link #onCatalogChange}: a catalog swap is the
 *       safe point, so a call in flight keeps the tools it started with.
 *   <li><b>Lifecycle</b>: nothing starts at discovery. A server starts on first need ({@link
 *       #prepare} when a skill is loaded and its tools are not known yet, or a call); one that ends
 *       on its own is started again after a backoff (1 s doubling to 60 s) while it is in use; one
 *       idle for the idle time, or no longer loaded by any session ({@link #release}), is stopped;
 *       {@link #close} stops all. Stopping closes its stdin, then kills it and every process it
 *       started.
 *   <li><b>Calls</b>: {@link #call} forwards a call with a progress token (the server's progress
 *       reaches the caller), the server's log messages go to the calls in flight, cancelling the
 *       call sends {@code notifications/cancelled}; the result is bounded ({@link
 *       BridgedResultReader}).
 * </ul>
 */
public final class BridgeRuntime implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BridgeRuntime.class);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final int MAX_CONTENT_CHARS = 8 * 1024 * 1024;

  /**
   * How bridged servers are run.
   *
   * @param idle how long a server may sit without a call before it is stopped
   * @param firstBackoff the wait before the first restart after a failure; it doubles
   * @param maxBackoff the longest wait between restarts
   * @param probeTimeout how long the era probe ({@code server/discover}) may take
   */
  public record Options(
      Duration idle, Duration firstBackoff, Duration maxBackoff, Duration probeTimeout) {
    public Options {
      Objects.requireNonNull(idle, "idle");
      Objects.requireNonNull(firstBackoff, "firstBackoff");
      Objects.requireNonNull(maxBackoff, "maxBackoff");
      Objects.requireNonNull(probeTimeout, "probeTimeout");
    }

    /** Ten minutes idle, restarts after 1 s doubling to 60 s, a 2 s probe. */
    public static Options defaults() {
      return new Options(
          Duration.ofMinutes(10),
          Duration.ofSeconds(1),
          Duration.ofSeconds(60),
          Duration.ofSeconds(2));
    }

    public Options withIdle(Duration value) {
      return new Options(value, firstBackoff, maxBackoff, probeTimeout);
    }
  }

  private final BridgeTrust trust;
  private final Redactor redactor;
  private final Map<String, String> environment;
  private final Clock clock;
  private final Options options;
  private final McpClient.Options clientOptions;
  // Named when the first bridged server starts (a random UUID seeds a SecureRandom, milliseconds of
  // a stdio server's start); a runtime that started none looks for no leftovers when it closes.
  private final AtomicReference<String> markerPrefix = new AtomicReference<>();
  private final Map<String, Bridge> bridges = new ConcurrentHashMap<>();
  private final ScheduledThreadPoolExecutor supervisor;
  private final Map<String, ScheduledFuture<?>> relists = new ConcurrentHashMap<>();
  private final AtomicBoolean republishQueued = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile Runnable catalogChange = () -> {};
  private volatile Consumer<String> contentChange = skill -> {};

  public BridgeRuntime(
      BridgeTrust trust,
      Redactor redactor,
      Map<String, String> serverEnvironment,
      Clock clock,
      Options options,
      String version) {
    this.trust = Objects.requireNonNull(trust, "trust");
    this.redactor = Objects.requireNonNull(redactor, "redactor");
    this.environment = Map.copyOf(serverEnvironment);
    this.clock = Objects.requireNonNull(clock, "clock");
    this.options = Objects.requireNonNull(options, "options");
    this.clientOptions =
        McpClient.Options.defaults("skillport", version).withProbeTimeout(options.probeTimeout());
    this.supervisor =
        new ScheduledThreadPoolExecutor(
            2,
            r -> {
              Thread t = new Thread(r, "bridge-supervisor");
              t.setDaemon(true);
              return t;
            });
    supervisor.setRemoveOnCancelPolicy(true);
    long check = Math.max(200, Math.min(options.idle().toMillis() / 2, 10_000));
    supervisor.scheduleWithFixedDelay(this::stopIdle, check, check, TimeUnit.MILLISECONDS);
  }

  /** A runtime that trusts no bridge: bridge skills are listed with a diagnostic, never run. */
  public static BridgeRuntime none(String version) {
    return none(version, new Redactor());
  }

  /** Like {@link #none(String)}, masking what it reports with {@code redactor}. */
  public static BridgeRuntime none(String version, Redactor redactor) {
    return new BridgeRuntime(
        BridgeTrust.none(redactor),
        redactor,
        Map.of(),
        Clock.systemUTC(),
        Options.defaults(),
        version);
  }

  /** Sets how a new catalog is published (the catalog reloader's republish); called once. */
  public void onCatalogChange(Runnable republish) {
    this.catalogChange = Objects.requireNonNull(republish, "republish");
  }

  /** Sets who hears that a skill's bridged prompts or resources changed; called once. */
  public void onContentChange(Consumer<String> listener) {
    this.contentChange = Objects.requireNonNull(listener, "listener");
  }

  Clock clock() {
    return clock;
  }

  Redactor redactor() {
    return redactor;
  }

  Map<String, String> serverEnvironment() {
    return environment;
  }

  McpClient.Options clientOptions() {
    return clientOptions;
  }

  String markerPrefix() {
    String prefix = markerPrefix.get();
    if (prefix == null) {
      markerPrefix.compareAndSet(null, "bridge-" + UUID.randomUUID() + "-");
      prefix = markerPrefix.get();
    }
    return prefix;
  }

  /** The operator's verdict on what {@code skill}'s bridge runs, read from disk now. */
  BridgeTrust.Verdict verify(Skill skill) {
    trust.refresh();
    return trust.check(skill);
  }

  /** The wait before restart number {@code failures}: doubling from the first, capped. */
  Duration backoff(int failures) {
    long ms = options.firstBackoff().toMillis() << Math.min(Math.max(0, failures - 1), 20);
    return Duration.ofMillis(Math.min(ms, options.maxBackoff().toMillis()));
  }

  // ---- catalog ---------------------------------------------------------------------------

  /**
   * The loader's result with each bridge skill's verdict, known tools and problems; bridges of
   * skills no longer served are stopped.
   */
  public synchronized LoadResult decorate(LoadResult loaded) {
    trust.refresh();
    List<Skill> skills = new ArrayList<>(loaded.skills().size());
    List<Diagnostic> diagnostics = new ArrayList<>(loaded.diagnostics());
    Set<String> present = new HashSet<>();
    for (Skill s : loaded.skills()) {
      if (s.bridge().isEmpty()
          || s.state() != SkillState.AVAILABLE
          || loaded.skill(s.name()).orElse(null) != s) {
        skills.add(s);
        continue;
      }
      present.add(s.name());
      Bridge bridge = bridges.computeIfAbsent(s.name(), n -> new Bridge(n, this));
      BridgeTrust.Verdict verdict = trust.check(s);
      bridge.update(s, verdict);
      skills.add(withKnownTools(s, bridge.known()));
      verdictDiagnostic(s, verdict).ifPresent(diagnostics::add);
      diagnostics.addAll(bridge.problems());
    }
    for (Bridge gone : List.copyOf(bridges.values())) {
      if (!present.contains(gone.name())) {
        bridges.remove(gone.name());
        supervisor.execute(() -> gone.stop("its skill is no longer served"));
      }
    }
    diagnostics.sort(Diagnostic.ORDER);
    return new LoadResult(skills, diagnostics);
  }

  private static Skill withKnownTools(Skill s, Bridge.Known known) {
    if (known == null || known.tools().isEmpty()) {
      return s;
    }
    Set<String> declared = new HashSet<>();
    s.tools().forEach(t -> declared.add(t.name()));
    List<ToolSpec> all = new ArrayList<>(s.tools());
    for (ToolSpec t : known.tools()) {
      if (!declared.contains(t.name())) {
        all.add(t);
      }
    }
    return s.withTools(all);
  }

  private Optional<Diagnostic> verdictDiagnostic(Skill s, BridgeTrust.Verdict verdict) {
    if (!(verdict instanceof BridgeTrust.Verdict.Refused refused)) {
      return Optional.empty();
    }
    DiagnosticCode code = refused.diagnosticCode();
    String message = refused.message();
    String hint = refused.hint();
    return Optional.of(
        redactor.diagnostic(
            new Diagnostic(
                code.defaultSeverity(),
                code,
                message,
                s.bridge().orElseThrow().file(),
                0,
                0,
                s.name(),
                hint)));
  }

  /** Publishes a new catalog soon, on the supervisor (never under a bridge's lock). */
  void republish() {
    if (closed.get() || !republishQueued.compareAndSet(false, true)) {
      return;
    }
    supervisor.execute(
        () -> {
          republishQueued.set(false);
          publishNow();
        });
  }

  private void publishNow() {
    try {
      catalogChange.run();
    } catch (RuntimeException e) {
      LOG.warn("publishing the catalog after a bridge change failed", e);
    }
  }

  void contentChanged(String skill) {
    try {
      contentChange.accept(skill);
    } catch (RuntimeException e) {
      LOG.warn("announcing the bridged content of {} failed", skill, e);
    }
  }

  void relistLater(Bridge bridge, String feature) {
    if (closed.get()) {
      return;
    }
    // A burst of list changes is one re-list, 200 ms after the last.
    relists.compute(
        bridge.name(),
        (k, previous) -> {
          if (previous != null) {
            previous.cancel(false);
          }
          return supervisor.schedule(() -> bridge.relist(feature), 200, TimeUnit.MILLISECONDS);
        });
  }

  void restartLater(Bridge bridge, Duration wait) {
    if (!closed.get()) {
      supervisor.schedule(bridge::restart, Math.max(1, wait.toMillis()), TimeUnit.MILLISECONDS);
    }
  }

  void stopLater(String skill, BridgeConnection connection, String why) {
    if (closed.get()) {
      connection.stop(Duration.ZERO);
      return;
    }
    supervisor.execute(
        () -> {
          int killed = connection.stop(Duration.ofSeconds(2));
          LOG.info("MCP bridge of {} stopped ({}; {} processes killed)", skill, why, killed);
        });
  }

  /** Rereads the trust file; when its entries changed, publishes the new verdicts now. */
  public void refreshTrust() {
    boolean changed;
    synchronized (this) {
      changed = trust.refresh();
    }
    if (changed) {
      publishNow();
    }
  }

  // ---- requests ----------------------------------------------------------------------------

  /**
   * Gets a bridge skill ready to be loaded: refused while its bridge is not trusted; otherwise,
   * when its tools are not known yet, its server is started and listed and a catalog with its tools
   * is published before this returns.
   *
   * @return the refusal, or empty when the skill can be loaded (or has no bridge)
   */
  public Optional<BridgeOutcome.Refused> prepare(Skill skill) {
    if (skill.bridge().isEmpty()) {
      return Optional.empty();
    }
    refreshTrust();
    Bridge bridge = bridges.get(skill.name());
    if (bridge == null) {
      return Optional.empty();
    }
    Optional<BridgeOutcome.Refused> refused = refusal(bridge);
    if (refused.isPresent()) {
      return refused;
    }
    bridge.wanted(true);
    bridge.used();
    if (bridge.known() != null) {
      return Optional.empty();
    }
    try {
      bridge.connect();
    } catch (BridgeUnavailableException e) {
      // The refusal points at get_skill_info: its diagnostic is published before this returns.
      publishNow();
      return Optional.of(
          e.refusal()
              .orElseGet(
                  () ->
                      new BridgeOutcome.Refused(
                          ToolFailureCode.MCP_BRIDGE_START_FAILED,
                          e.getMessage(),
                          "see get_skill_info(\"" + skill.name() + "\") for the diagnostics")));
    }
    publishNow();
    return Optional.empty();
  }

  /** {@link #prepare} for many skills at once (a listing), in parallel; refusals are ignored. */
  public void prepareAll(Collection<Skill> skills) {
    List<CompletableFuture<?>> starts = new ArrayList<>();
    for (Skill s : skills) {
      Bridge b = s.bridge().isPresent() ? bridges.get(s.name()) : null;
      if (b != null && b.known() == null && refusal(b).isEmpty()) {
        starts.add(CompletableFuture.runAsync(() -> prepare(s)));
      }
    }
    if (!starts.isEmpty()) {
      try {
        CompletableFuture.allOf(starts.toArray(CompletableFuture<?>[]::new)).join();
      } catch (RuntimeException e) {
        LOG.debug("starting bridges for a listing failed", e);
      }
    }
  }

  private Optional<BridgeOutcome.Refused> refusal(Bridge bridge) {
    return refusal(bridge.verdict());
  }

  /** The refusal a load or call gets for {@code verdict}, or empty when it may run. */
  static Optional<BridgeOutcome.Refused> refusal(BridgeTrust.Verdict verdict) {
    if (verdict instanceof BridgeTrust.Verdict.Refused r) {
      return Optional.of(new BridgeOutcome.Refused(r.failureCode(), r.message(), r.hint()));
    }
    return Optional.empty();
  }

  /** Calls a bridged tool; see the class comment. */
  public BridgeOutcome call(Skill skill, ToolSpec tool, JsonNode args, ToolContext ctx) {
    refreshTrust();
    Bridge bridge = bridges.get(skill.name());
    if (bridge == null || !(tool.binding() instanceof ToolBinding.Bridge binding)) {
      return new BridgeOutcome.Refused(
          ToolFailureCode.BRIDGE_UNAVAILABLE,
          "skill '" + skill.name() + "' has no MCP bridge",
          null);
    }
    Optional<BridgeOutcome.Refused> refused = refusal(bridge);
    if (refused.isPresent()) {
      return refused.get();
    }
    bridge.wanted(true);
    BridgeConnection connection;
    try {
      connection = bridge.connect();
    } catch (BridgeUnavailableException e) {
      return e.refusal()
          .orElseGet(
              () ->
                  new BridgeOutcome.Refused(
                      ToolFailureCode.BRIDGE_UNAVAILABLE,
                      e.getMessage(),
                      "call again later; get_skill_info(\"" + skill.name() + "\") shows why"));
    }
    ObjectNode params = NODES.objectNode().put("name", binding.remoteName());
    params.set("arguments", args.deepCopy());
    Duration timeout = Duration.ofSeconds(bridge.spec().timeoutSecs());
    bridge.callStarted(ctx);
    McpClient.Call call = connection.client().request("tools/call", params, timeout, ctx::progress);
    try {
      JsonNode result = call.await();
      if ("input_required".equals(result.path("resultType").asText())) {
        return new BridgeOutcome.Refused(
            ToolFailureCode.BRIDGE_INPUT_REQUIRED,
            "the MCP server of skill '"
                + skill.name()
                + "' asked for input during the call, which bridges do not forward",
            null);
      }
      return new BridgeOutcome.Completed(BridgedResultReader.read(skill.name(), result));
    } catch (InterruptedException e) {
      call.cancel("the client cancelled the call");
      Thread.currentThread().interrupt();
      return new BridgeOutcome.Refused(ToolFailureCode.CANCELLED, "the call was cancelled", null);
    } catch (McpClientException e) {
      return failed(skill, e, timeout);
    } finally {
      bridge.callEnded(ctx);
    }
  }

  private BridgeOutcome.Refused failed(Skill skill, McpClientException e, Duration timeout) {
    String who = "the MCP server of skill '" + skill.name() + "'";
    return switch (e.kind()) {
      case TIMEOUT ->
          new BridgeOutcome.Refused(
              ToolFailureCode.BRIDGE_TIMEOUT,
              who + " did not answer within " + timeout.toSeconds() + " s; the call was cancelled",
              "raise timeout_secs in mcp.yaml if the tool needs longer");
      case CANCELLED ->
          new BridgeOutcome.Refused(ToolFailureCode.CANCELLED, "the call was cancelled", null);
      case ERROR_RESPONSE ->
          new BridgeOutcome.Refused(
              ToolFailureCode.BRIDGE_CALL_FAILED,
              who
                  + " answered with error "
                  + e.code()
                  + ": "
                  + redactor.text(Text.clean(e.getMessage(), 2000)),
              null);
      case CLOSED, PROTOCOL ->
          new BridgeOutcome.Refused(
              ToolFailureCode.BRIDGE_UNAVAILABLE,
              who + " ended during the call (" + redactor.text(e.getMessage()) + ")",
              "it is started again; call again");
    };
  }

  /**
   * Stops a bridge skill's server because no session has the skill loaded any more; what it listed
   * stays known.
   */
  public void release(String skill) {
    Bridge bridge = bridges.get(skill);
    if (bridge != null) {
      bridge.wanted(false);
      bridge.stop("no session has the skill loaded");
    }
  }

  private void stopIdle() {
    try {
      for (Bridge b : bridges.values()) {
        b.stopIfIdle(options.idle());
      }
    } catch (RuntimeException e) {
      LOG.warn("stopping idle bridges failed", e);
    }
  }

  // ---- prompts and resources ---------------------------------------------------------------

  /** The prompts a skill's server listed, namespaced ({@code name}, {@code description}, …). */
  public List<JsonNode> prompts(String skill) {
    Bridge b = bridges.get(skill);
    Bridge.Known k = b == null ? null : b.known();
    return k == null ? List.of() : k.prompts();
  }

  /** The resources a skill's server listed, with {@code bridge://} URIs. */
  public List<JsonNode> resources(String skill) {
    Bridge b = bridges.get(skill);
    Bridge.Known k = b == null ? null : b.known();
    return k == null ? List.of() : k.resources();
  }

  /** The resource templates a skill's server listed, with {@code bridge://} URI templates. */
  public List<JsonNode> templates(String skill) {
    Bridge b = bridges.get(skill);
    Bridge.Known k = b == null ? null : b.known();
    return k == null ? List.of() : k.templates();
  }

  /**
   * Gets one of a skill's bridged prompts from its server.
   *
   * @param name the namespaced name, as {@link #prompts} lists it
   * @return the {@code GetPromptResult}, its description marked as third-party text
   * @throws BridgeContentException when the prompt is not listed or the server cannot answer
   */
  public JsonNode getPrompt(String skill, String name, JsonNode arguments)
      throws BridgeContentException {
    Bridge b = bridges.get(skill);
    JsonNode prompt =
        prompts(skill).stream()
            .filter(p -> p.path("name").asText().equals(name))
            .findFirst()
            .orElseThrow(() -> new BridgeContentException(true, "no prompt named " + name));
    ObjectNode params = NODES.objectNode().put("name", prompt.get("remote").asText());
    if (arguments != null && arguments.isObject()) {
      params.set("arguments", arguments.deepCopy());
    }
    JsonNode result = request(b, "prompts/get", params);
    ObjectNode out = NODES.objectNode();
    out.put("description", prompt.path("description").asText(""));
    ArrayNode messages = out.putArray("messages");
    for (JsonNode m : result.path("messages")) {
      messages.add(m);
    }
    if (out.toString().length() > MAX_CONTENT_CHARS) {
      throw new BridgeContentException(
          false, "the prompt from the MCP server of skill '" + skill + "' is larger than 8 MiB");
    }
    return out;
  }

  /**
   * Reads a {@code bridge://} resource from its skill's server; every {@code uri} in the answer is
   * namespaced like the one asked for.
   *
   * @param loaded whether the asking session may see the skill
   * @return the {@code contents} array, or empty when {@code uri} is no bridged resource it sees
   * @throws BridgeContentException when the server cannot answer
   */
  public Optional<JsonNode> read(String uri, java.util.function.Predicate<String> loaded)
      throws BridgeContentException {
    Optional<String[]> parsed = BridgedContent.parse(uri);
    if (parsed.isEmpty() || !loaded.test(parsed.get()[0])) {
      return Optional.empty();
    }
    String skill = parsed.get()[0];
    Bridge b = bridges.get(skill);
    if (b == null) {
      return Optional.empty();
    }
    JsonNode result = request(b, "resources/read", NODES.objectNode().put("uri", parsed.get()[1]));
    ArrayNode contents = NODES.arrayNode();
    for (JsonNode c : result.path("contents")) {
      if (!c.isObject()) {
        continue;
      }
      ObjectNode copy = (ObjectNode) c.deepCopy();
      copy.put("uri", BridgedContent.uri(skill, c.path("uri").asText(parsed.get()[1])));
      contents.add(copy);
    }
    if (contents.toString().length() > MAX_CONTENT_CHARS) {
      throw new BridgeContentException(
          false, "the resource from the MCP server of skill '" + skill + "' is larger than 8 MiB");
    }
    return Optional.of(contents);
  }

  private JsonNode request(Bridge b, String method, ObjectNode params)
      throws BridgeContentException {
    if (b == null) {
      throw new BridgeContentException(true, "the skill has no MCP bridge");
    }
    Optional<BridgeOutcome.Refused> refused = refusal(b);
    if (refused.isPresent()) {
      throw new BridgeContentException(
          false, refused.get().message() + " (" + refused.get().hint() + ")");
    }
    try {
      BridgeConnection c = b.connect();
      b.used();
      return c.client()
          .request(method, params, Duration.ofSeconds(b.spec().timeoutSecs()), null)
          .await();
    } catch (BridgeUnavailableException e) {
      throw new BridgeContentException(false, e.getMessage());
    } catch (McpClientException e) {
      boolean callers = e.kind() == McpClientException.Kind.ERROR_RESPONSE && e.code() == -32602;
      throw new BridgeContentException(
          callers,
          "the MCP server of skill '"
              + b.name()
              + "' answered "
              + method
              + " with: "
              + redactor.text(Text.clean(e.getMessage(), 2000)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BridgeContentException(false, "interrupted");
    }
  }

  // ---- status and shutdown -----------------------------------------------------------------

  /** The running server's process id for a bridge skill, or -1 when it does not run. */
  public long pid(String skill) {
    Bridge b = bridges.get(skill);
    return b == null ? -1 : b.pid();
  }

  /** Stops every server and kills whatever any of them left running. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    supervisor.shutdownNow();
    List<CompletableFuture<?>> stops = new ArrayList<>();
    for (Bridge b : bridges.values()) {
      stops.add(CompletableFuture.runAsync(() -> b.stop("the server is stopping")));
    }
    try {
      CompletableFuture.allOf(stops.toArray(CompletableFuture<?>[]::new)).get(3, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.debug("stopping bridges", e);
    }
    String prefix = markerPrefix.get();
    int left = prefix == null ? 0 : ProcessTree.killMarked(prefix);
    if (left > 0) {
      LOG.info("{} processes left by bridged servers were killed", left);
    }
  }
}

package dev.skillport.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.mcp.client.McpClient;
import dev.skillport.mcp.client.McpClientException;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.McpBridgeSpec;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.ToolSpec;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One skill's bridged server over its life: the spec and verdict the catalog last gave it, what it
 * listed (kept while it is stopped, so listings stay stable), its connection, and what went wrong.
 * A start is serialised by the bridge's lock; calls run concurrently over one connection.
 */
final class Bridge {
  private static final Logger LOG = LoggerFactory.getLogger(Bridge.class);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** How many pages of one list are followed. */
  private static final int MAX_PAGES = 50;

  /** A connection that lived this long ends a run of failures. */
  private static final Duration STABLE = Duration.ofSeconds(60);

  /** What the server listed, normalised; null lists were not offered. */
  record Known(
      List<ToolSpec> tools,
      List<JsonNode> prompts,
      List<JsonNode> resources,
      List<JsonNode> templates,
      List<String> dropped) {
    Known {
      tools = List.copyOf(tools);
      prompts = List.copyOf(prompts);
      resources = List.copyOf(resources);
      templates = List.copyOf(templates);
      dropped = List.copyOf(dropped);
    }
  }

  private final String name;
  private final BridgeRuntime runtime;
  private volatile Skill skill;
  private volatile BridgeTrust.Verdict verdict;
  private volatile Known known;
  private volatile BridgeConnection connection;
  private volatile McpClient.Handshake handshake;
  private McpClient.Era era;
  private final Map<DiagnosticCode, Diagnostic> problems = new ConcurrentHashMap<>();
  private final Set<ToolContext> calls = ConcurrentHashMap.newKeySet();
  private final AtomicInteger inFlight = new AtomicInteger();
  private int failures;
  private Instant notBefore = Instant.MIN;
  private volatile Instant lastUsed = Instant.MIN;
  private volatile boolean wanted;
  private Instant startedAt;
  // What the current or last connection was started with.
  private BridgeFingerprint startedWith;
  // The first line of the current connection's stdout that was not JSON-RPC, redacted.
  private volatile String malformedLine;

  Bridge(String name, BridgeRuntime runtime) {
    this.name = name;
    this.runtime = runtime;
  }

  String name() {
    return name;
  }

  Skill skill() {
    return skill;
  }

  McpBridgeSpec spec() {
    return skill.bridge().orElseThrow();
  }

  BridgeTrust.Verdict verdict() {
    return verdict;
  }

  Known known() {
    return known;
  }

  boolean isRunning() {
    BridgeConnection c = connection;
    return c != null && c.isAlive() && c.client().isOpen();
  }

  /** The running server's process id, or -1. */
  long pid() {
    BridgeConnection c = connection;
    return c == null ? -1 : c.pid();
  }

  int inFlight() {
    return inFlight.get();
  }

  boolean wanted() {
    return wanted;
  }

  void wanted(boolean value) {
    this.wanted = value;
  }

  /**
   * Takes the catalog's latest reading of the skill. A different fingerprint stops a running server
   * (it is not the one that was trusted or started); what it listed is kept until a new start lists
   * again, so its tools stay listed and their calls are refused with the verdict.
   */
  synchronized void update(Skill next, BridgeTrust.Verdict nextVerdict) {
    Skill previous = this.skill;
    this.skill = next;
    this.verdict = nextVerdict;
    boolean changed = previous != null && !sameSpec(previous, next);
    boolean stale =
        nextVerdict instanceof BridgeTrust.Verdict.Trusted t
            && startedWith != null
            && !t.fingerprint().equals(startedWith);
    if (changed || stale || !(nextVerdict instanceof BridgeTrust.Verdict.Trusted)) {
      BridgeConnection c = connection;
      connection = null;
      if (c != null) {
        runtime.stopLater(name, c, "what it runs changed or is no longer trusted");
      }
      if (changed) {
        failures = 0;
        notBefore = Instant.MIN;
        problems.remove(DiagnosticCode.MCP_BRIDGE_START_FAILED);
        problems.remove(DiagnosticCode.MCP_BRIDGE_CRASHED);
      }
    }
  }

  /** Whether two readings of the skill have the same {@code mcp.yaml} (by its digest). */
  private static boolean sameSpec(Skill a, Skill b) {
    McpBridgeSpec x = a.bridge().orElseThrow();
    McpBridgeSpec y = b.bridge().orElseThrow();
    return x.digest().equals(y.digest())
        && a.location().directory().equals(b.location().directory());
  }

  /** The diagnostics of this bridge's life so far (start failures, crashes, dropped tools). */
  List<Diagnostic> problems() {
    return List.copyOf(problems.values());
  }

  /** The server's connection, starting the server when it is not running. */
  BridgeConnection connect() throws BridgeUnavailableException {
    BridgeConnection c = connection;
    if (c != null && c.isAlive() && c.client().isOpen()) {
      return c;
    }
    synchronized (this) {
      c = connection;
      if (c != null && c.isAlive() && c.client().isOpen()) {
        return c;
      }
      Optional<BridgeOutcome.Refused> refused = BridgeRuntime.refusal(verdict);
      if (refused.isPresent()) {
        throw new BridgeUnavailableException(refused.get());
      }
      Instant now = runtime.clock().instant();
      if (now.isBefore(notBefore)) {
        throw new BridgeUnavailableException(
            "the MCP server of skill '"
                + name
                + "' failed and is started again in "
                + Math.max(1, Duration.between(now, notBefore).toSeconds())
                + " s");
      }
      return start();
    }
  }

  /** Starts the server, opens the conversation and lists what it offers; the lock is held. */
  private BridgeConnection start() throws BridgeUnavailableException {
    McpBridgeSpec spec = spec();
    Duration timeout = Duration.ofSeconds(spec.timeoutSecs());
    // What runs is read again right before it is started: a file edited since the catalog was
    // read, or since the last start, refuses this start.
    BridgeTrust.Verdict now = runtime.verify(skill);
    if (!(now instanceof BridgeTrust.Verdict.Trusted trusted)) {
      verdict = now;
      runtime.republish();
      LOG.warn(
          "MCP bridge of {} is not started: {}",
          name,
          BridgeRuntime.refusal(now).orElseThrow().message());
      throw new BridgeUnavailableException(BridgeRuntime.refusal(now).orElseThrow());
    }
    BridgeConnection c = null;
    try {
      Map<String, String> env =
          BridgeEnvironment.of(spec, runtime.serverEnvironment(), runtime.redactor());
      String marker = runtime.markerPrefix() + UUID.randomUUID();
      malformedLine = null;
      BridgeConnection started =
          BridgeConnection.start(
              name,
              spec,
              trusted.fingerprint().program(),
              env,
              marker,
              runtime.clientOptions(),
              new Events(),
              runtime.redactor(),
              code -> crashed(code));
      c = started;
      connection = c;
      startedWith = trusted.fingerprint();
      startedAt = runtime.clock().instant();
      McpClient.Handshake hs = c.client().initialize(era, timeout);
      era = hs.era();
      handshake = hs;
      if (hs.era() == McpClient.Era.LEGACY && hs.offers("logging")) {
        c.client()
            .request("logging/setLevel", NODES.objectNode().put("level", "info"), timeout, null);
      } else if (hs.era() == McpClient.Era.MODERN) {
        c.client().logLevel("info");
        listen(c, hs);
      }
      Known listed = list(c, hs, timeout);
      c.track();
      boolean toolsChanged = known == null || !known.tools().equals(listed.tools());
      known = listed;
      problems.remove(DiagnosticCode.MCP_BRIDGE_START_FAILED);
      problems.remove(DiagnosticCode.MCP_BRIDGE_PROTOCOL);
      if (listed.dropped().isEmpty()) {
        problems.remove(DiagnosticCode.MCP_BRIDGE_TOOL_DROPPED);
      } else {
        problem(DiagnosticCode.MCP_BRIDGE_TOOL_DROPPED, droppedMessage(listed.dropped()), null);
      }
      LOG.info(
          "MCP bridge of {} started (pid {}, {} era, {} tools)",
          name,
          c.pid(),
          hs.era() == McpClient.Era.MODERN ? "2026-07-28" : hs.protocolVersion(),
          listed.tools().size());
      if (toolsChanged) {
        runtime.republish();
      }
      // A fresh start counts as use: the idle check must not stop it before its first call.
      lastUsed = runtime.clock().instant();
      return c;
    } catch (BridgeEnvironment.MissingVariableException e) {
      throw failedToStart(null, e.getMessage(), "set the variable where the server starts");
    } catch (IOException e) {
      throw failedToStart(
          c, "its command could not be started: " + e.getMessage(), "check command and cwd");
    } catch (McpClientException e) {
      throw failedToStart(c, e.getMessage(), null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failedToStart(c, "the start was interrupted", null);
    }
  }

  private BridgeUnavailableException failedToStart(BridgeConnection c, String why, String hint) {
    String tail = c == null ? "" : c.stderrTail(1000);
    if (c != null) {
      connection = null;
      c.stop(Duration.ofMillis(200));
    }
    String stdout = malformedLine;
    if (stdout != null) {
      why += "; it wrote a line to stdout that is not a JSON-RPC message: '" + stdout + "'";
    }
    failures++;
    notBefore = runtime.clock().instant().plus(runtime.backoff(failures));
    String message =
        "The MCP server of skill '"
            + name
            + "' did not start: "
            + why
            + (tail.isEmpty() ? "" : " (stderr: " + tail + ")");
    problem(DiagnosticCode.MCP_BRIDGE_START_FAILED, message, hint);
    runtime.republish();
    return new BridgeUnavailableException(runtime.redactor().text(message));
  }

  /** The server ended on its own: say so, and start it again after a backoff if it is in use. */
  private void crashed(int exitCode) {
    synchronized (this) {
      BridgeConnection c = connection;
      if (c == null) {
        return;
      }
      connection = null;
      Instant now = runtime.clock().instant();
      if (startedAt != null && Duration.between(startedAt, now).compareTo(STABLE) >= 0) {
        failures = 0;
      }
      failures++;
      Duration wait = runtime.backoff(failures);
      notBefore = now.plus(wait);
      String tail = c.stderrTail(1000);
      problem(
          DiagnosticCode.MCP_BRIDGE_CRASHED,
          "The MCP server of skill '"
              + name
              + "' ended with exit code "
              + exitCode
              + (tail.isEmpty() ? "" : " (stderr: " + tail + ")")
              + "; it is started again in "
              + wait.toMillis()
              + " ms",
          null);
      c.stop(Duration.ZERO);
      LOG.warn("MCP server of skill {} ended with exit code {}", name, exitCode);
      if (wanted || inFlight.get() > 0) {
        runtime.restartLater(this, wait);
      }
    }
    runtime.republish();
  }

  /** Starts the server again after a crash, when nothing started it meanwhile. */
  void restart() {
    if (isRunning() || !(verdict instanceof BridgeTrust.Verdict.Trusted) || !wanted) {
      return;
    }
    try {
      connect();
    } catch (BridgeUnavailableException e) {
      LOG.debug("restarting the MCP server of {} failed: {}", name, e.getMessage());
      if (wanted) {
        synchronized (this) {
          runtime.restartLater(this, Duration.between(runtime.clock().instant(), notBefore));
        }
      }
    }
  }

  /**
   * Stops the server when it has had no call in flight for {@code idle}. Decided under the lock a
   * start holds, so a server started while the check waited is not stopped for its predecessor's
   * idleness.
   */
  synchronized boolean stopIfIdle(Duration idle) {
    if (isRunning()
        && inFlight() == 0
        && Duration.between(lastUsed, runtime.clock().instant()).compareTo(idle) >= 0) {
      wanted = false;
      stop("idle for " + idle.toSeconds() + " s");
      return true;
    }
    return false;
  }

  /** Stops a running server and everything it started; what it listed is kept. */
  synchronized void stop(String why) {
    BridgeConnection c = connection;
    connection = null;
    if (c != null) {
      int killed = c.stop(Duration.ofSeconds(2));
      LOG.info(
          "MCP bridge of {} stopped ({}){}",
          name,
          why,
          killed > 0 ? ", " + killed + " processes killed" : "");
    }
  }

  /** Lists tools, prompts, resources and templates, following cursors up to a bound. */
  private Known list(BridgeConnection c, McpClient.Handshake hs, Duration timeout)
      throws McpClientException, InterruptedException {
    List<String> dropped = new ArrayList<>();
    List<JsonNode> tools =
        hs.offers("tools") ? all(c, "tools/list", "tools", timeout, dropped) : List.of();
    BridgedToolReader.Mounted mounted =
        BridgedToolReader.mount(
            name,
            spec(),
            skill.tools().stream().map(ToolSpec::name).collect(Collectors.toSet()),
            tools);
    dropped.addAll(mounted.dropped());
    List<JsonNode> prompts =
        hs.offers("prompts") ? all(c, "prompts/list", "prompts", timeout, dropped) : List.of();
    List<JsonNode> resources = List.of();
    List<JsonNode> templates = List.of();
    if (hs.offers("resources")) {
      resources = all(c, "resources/list", "resources", timeout, dropped);
      try {
        templates = all(c, "resources/templates/list", "resourceTemplates", timeout, dropped);
      } catch (McpClientException e) {
        if (e.kind() != McpClientException.Kind.ERROR_RESPONSE) {
          throw e;
        }
      }
    }
    return new Known(
        mounted.tools(),
        BridgedContent.prompts(name, prompts, dropped),
        BridgedContent.resources(name, resources, dropped),
        BridgedContent.templates(name, templates, dropped),
        dropped);
  }

  private List<JsonNode> all(
      BridgeConnection c, String method, String field, Duration timeout, List<String> dropped)
      throws McpClientException, InterruptedException {
    List<JsonNode> out = new ArrayList<>();
    String cursor = null;
    for (int page = 0; page < MAX_PAGES; page++) {
      ObjectNode params = NODES.objectNode();
      if (cursor != null) {
        params.put("cursor", cursor);
      }
      JsonNode result = c.client().request(method, params, timeout, null).await();
      for (JsonNode item : result.path(field)) {
        if (out.size() >= BridgedToolReader.MAX_TOOLS * 2) {
          dropped.add(
              method + " listed more than " + out.size() + " entries; the rest were not read");
          return out;
        }
        out.add(item);
      }
      JsonNode next = result.get("nextCursor");
      if (next == null || !next.isTextual() || next.asText().isEmpty()) {
        return out;
      }
      cursor = next.asText();
    }
    dropped.add(method + " had more than " + MAX_PAGES + " pages; the rest were not read");
    return out;
  }

  /** Opens a {@code subscriptions/listen} stream for the list changes a modern server offers. */
  private void listen(BridgeConnection c, McpClient.Handshake hs) {
    ObjectNode filter = NODES.objectNode();
    for (String feature : List.of("tools", "prompts", "resources")) {
      if (hs.announcesListChanges(feature)) {
        filter.put(feature + "ListChanged", true);
      }
    }
    if (filter.isEmpty()) {
      return;
    }
    ObjectNode params = NODES.objectNode();
    params.set("notifications", filter);
    // Long-lived: it ends with the connection.
    c.client().request("subscriptions/listen", params, Duration.ofDays(3650), null);
  }

  /** Lists again after the server said a list changed; publishes a difference. */
  void relist(String feature) {
    BridgeConnection c = connection;
    McpClient.Handshake hs = handshake;
    if (c == null || hs == null || !c.client().isOpen()) {
      return;
    }
    Known before = known;
    try {
      Known after = list(c, hs, Duration.ofSeconds(spec().timeoutSecs()));
      known = after;
      if (after.dropped().isEmpty()) {
        problems.remove(DiagnosticCode.MCP_BRIDGE_TOOL_DROPPED);
      } else {
        problem(DiagnosticCode.MCP_BRIDGE_TOOL_DROPPED, droppedMessage(after.dropped()), null);
      }
      boolean tools = before == null || !before.tools().equals(after.tools());
      boolean content =
          before == null
              || !before.prompts().equals(after.prompts())
              || !before.resources().equals(after.resources())
              || !before.templates().equals(after.templates());
      LOG.debug("MCP bridge of {} listed again after {} changed", name, feature);
      if (tools) {
        runtime.republish();
      }
      if (content) {
        runtime.contentChanged(name);
      }
    } catch (McpClientException e) {
      LOG.debug("listing the MCP server of {} again failed: {}", name, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Notes a call's start; its context hears the server's log messages while it runs. */
  void callStarted(ToolContext ctx) {
    inFlight.incrementAndGet();
    lastUsed = runtime.clock().instant();
    calls.add(ctx);
  }

  void callEnded(ToolContext ctx) {
    calls.remove(ctx);
    inFlight.decrementAndGet();
    lastUsed = runtime.clock().instant();
  }

  void used() {
    lastUsed = runtime.clock().instant();
  }

  private void problem(DiagnosticCode code, String message, String hint) {
    McpBridgeSpec spec = spec();
    problems.put(
        code,
        runtime
            .redactor()
            .diagnostic(
                new Diagnostic(
                    code.defaultSeverity(), code, message, spec.file(), 0, 0, name, hint)));
  }

  private static String droppedMessage(List<String> dropped) {
    List<String> shown = dropped.size() <= 10 ? dropped : dropped.subList(0, 10);
    return "Not everything the MCP server offers was mounted: "
        + String.join("; ", shown)
        + (dropped.size() > shown.size()
            ? "; and " + (dropped.size() - shown.size()) + " more"
            : "");
  }

  /** What the server sends outside an answer: list changes, log messages, protocol trouble. */
  private final class Events implements McpClient.Listener {
    private final AtomicInteger malformed = new AtomicInteger();

    @Override
    public void notification(String method, JsonNode params) {
      switch (method) {
        case "notifications/tools/list_changed" -> runtime.relistLater(Bridge.this, "tools");
        case "notifications/prompts/list_changed" -> runtime.relistLater(Bridge.this, "prompts");
        case "notifications/resources/list_changed" ->
            runtime.relistLater(Bridge.this, "resources");
        case "notifications/message" -> logged(params);
        default -> LOG.debug("MCP bridge of {} sent {}", name, method);
      }
    }

    @Override
    public void malformed(String excerpt) {
      if (malformed.incrementAndGet() == 1) {
        malformedLine = runtime.redactor().text(excerpt);
        problem(
            DiagnosticCode.MCP_BRIDGE_PROTOCOL,
            "The MCP server of skill '"
                + name
                + "' wrote a line to stdout that is not a JSON-RPC message: '"
                + runtime.redactor().text(excerpt)
                + "'",
            null);
        runtime.republish();
      }
    }

    @Override
    public void closed(McpClientException why) {
      if (why.kind() == McpClientException.Kind.PROTOCOL) {
        problem(
            DiagnosticCode.MCP_BRIDGE_PROTOCOL,
            "The MCP server of skill '" + name + "': " + why.getMessage(),
            null);
        runtime.republish();
      }
    }

    private void logged(JsonNode params) {
      String level = params.path("level").asText("info");
      JsonNode data = params.get("data");
      String text = data == null ? "" : data.isTextual() ? data.asText() : data.toString();
      String line = runtime.redactor().text(Text.clean(text, 4000));
      if (calls.isEmpty()) {
        LOG.debug("[bridge {}] {}: {}", name, level, line);
        return;
      }
      for (ToolContext ctx : calls) {
        ctx.log(level, line);
      }
    }
  }

  @Override
  public String toString() {
    return "Bridge[" + name + "]";
  }
}

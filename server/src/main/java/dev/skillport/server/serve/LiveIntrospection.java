package dev.skillport.server.serve;

import dev.skillport.api.host.HostAdapter;
import dev.skillport.api.owner.Principal;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.status.AdapterStatus;
import dev.skillport.model.status.AuditEntry;
import dev.skillport.model.status.ServerIntrospection;
import dev.skillport.model.status.ServerStatus;
import dev.skillport.model.status.ToolMetrics;
import dev.skillport.plugins.PluginHost;
import dev.skillport.registry.Catalog;
import dev.skillport.runtime.AuditTrail;
import dev.skillport.server.app.SkillportService;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A running server seen through {@link ServerIntrospection}: every answer read when asked. */
final class LiveIntrospection implements ServerIntrospection {
  private static final Logger LOG = LoggerFactory.getLogger(LiveIntrospection.class);

  private final String version;
  private final Clock clock;
  private final Instant startedAt;
  private final SkillportService service;
  private final PluginHost plugins;
  private final List<String> transports = new CopyOnWriteArrayList<>();
  private final AuditTrail trail;

  /** How many of a fleet's latest calls are read from its shared trail. */
  static final int FLEET_CALLS = 200;

  LiveIntrospection(String version, Clock clock, SkillportService service, PluginHost plugins) {
    this(version, clock, service, plugins, null);
  }

  /**
   * An introspection whose recent calls are the fleet's, read from {@code trail} (this instance's
   * own when null, or while the trail cannot be read).
   */
  LiveIntrospection(
      String version, Clock clock, SkillportService service, PluginHost plugins, AuditTrail trail) {
    this.trail = trail;
    this.version = version == null ? "unknown" : version;
    this.clock = clock;
    this.startedAt = clock.instant();
    this.service = service;
    this.plugins = plugins;
  }

  void transportStarted(String description) {
    transports.add(description);
  }

  @Override
  public ServerStatus status() {
    Catalog catalog = service.catalog();
    Map<SkillState, Integer> byState = new EnumMap<>(SkillState.class);
    for (Skill s : catalog.skills()) {
      byState.merge(s.state(), 1, Integer::sum);
    }
    List<AdapterStatus> adapters = new ArrayList<>();
    for (HostAdapter a : plugins.adapters().adapters()) {
      adapters.add(new AdapterStatus(a.id(), a.products(), ready(a), detail(a)));
    }
    Instant now = clock.instant();
    return new ServerStatus(
        version,
        startedAt,
        Duration.between(startedAt, now),
        transports,
        service.openSessions(),
        catalog.generation(),
        byState,
        plugins.pluginIds(),
        adapters,
        plugins.diagnostics().size());
  }

  /** An adapter that throws while asked is not ready; plugin code must not break the status. */
  private static boolean ready(HostAdapter adapter) {
    try {
      return adapter.isReady();
    } catch (RuntimeException | LinkageError e) {
      LOG.debug("host adapter {} failed its readiness check: {}", adapter.id(), e.toString());
      return false;
    }
  }

  private static String detail(HostAdapter adapter) {
    try {
      return adapter.statusDetail();
    } catch (RuntimeException | LinkageError e) {
      LOG.debug("host adapter {} failed to describe its state: {}", adapter.id(), e.toString());
      return "the adapter failed to describe its state: " + e;
    }
  }

  @Override
  public List<Diagnostic> skillDiagnostics() {
    return service.skillDiagnostics();
  }

  @Override
  public List<Diagnostic> pluginDiagnostics() {
    return plugins.diagnostics();
  }

  @Override
  public List<AuditEntry> recentCalls(Principal viewer) {
    if (trail != null) {
      try {
        return trail.recent(viewer, FLEET_CALLS);
      } catch (RuntimeException e) {
        LOG.debug("the fleet's audit trail cannot be read; showing this instance's calls", e);
      }
    }
    return service.calls().recent(viewer).stream()
        .map(LiveIntrospection::withSessionLabel)
        .toList();
  }

  /**
   * The entry with its session shown as a label: on HTTP a session id is what a client presents to
   * act as that session, so another client reading recent calls must not learn it.
   */
  private static AuditEntry withSessionLabel(AuditEntry e) {
    if (e.session() == null) {
      return e;
    }
    return new AuditEntry(
        e.time(),
        sessionLabel(e.session()),
        e.tool(),
        e.duration(),
        e.outcome(),
        e.argumentNames(),
        e.caller());
  }

  /** {@code s-} and the first 12 hex digits of the id's SHA-256: stable, not reversible. */
  static String sessionLabel(String sessionId) {
    return AuditTrail.sessionLabel(sessionId);
  }

  @Override
  public List<ToolMetrics> toolMetrics(Principal viewer) {
    return service.calls().metrics(viewer);
  }
}

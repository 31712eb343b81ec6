package dev.skillport.server.app;

import dev.skillport.bridge.BridgeOutcome;
import dev.skillport.bridge.BridgeRuntime;
import dev.skillport.model.skill.Skill;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.registry.SessionView;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.core.SkillServers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sessions a service has open, and the bridge skills' servers they keep running: a bridged
 * server starts when a session first needs its tools and stops when no session has its skill
 * loaded.
 */
final class OpenSessions implements SkillServers {
  private final CatalogHolder catalog;
  // Null when bridge skills do not run.
  private final BridgeRuntime bridges;
  private final Set<SessionState> sessions = ConcurrentHashMap.newKeySet();

  OpenSessions(CatalogHolder catalog, BridgeRuntime bridges) {
    this.catalog = catalog;
    this.bridges = bridges;
  }

  void add(SessionState session) {
    sessions.add(session);
  }

  /** Forgets {@code session} and stops the bridged servers only it had loaded. */
  void remove(SessionState session) {
    sessions.remove(session);
    for (String skill : session.view().loadedSkills()) {
      releaseIfUnused(skill);
    }
  }

  int count() {
    return sessions.size();
  }

  /** Tells every open session that the catalog changed. */
  void catalogChanged() {
    sessions.forEach(SessionState::notifyCatalogChanged);
  }

  /** Tells every session that has {@code skill} loaded that its prompts and resources changed. */
  void contentChanged(String skill) {
    for (SessionState session : sessions) {
      if (session.view().isLoaded(skill)) {
        session.notifyContentChanged();
      }
    }
  }

  @Override
  public Map<String, String> prepare(List<String> names) {
    Map<String, String> refused = new LinkedHashMap<>();
    if (bridges == null) {
      return refused;
    }
    Catalog snapshot = catalog.current();
    for (String name : names) {
      for (String needed : snapshot.loadOrder(name)) {
        snapshot
            .skill(needed)
            .filter(s -> s.bridge().isPresent() && !refused.containsKey(s.name()))
            .ifPresent(s -> bridges.prepare(s).ifPresent(r -> refused.put(s.name(), text(r))));
      }
    }
    return refused;
  }

  private static String text(BridgeOutcome.Refused refused) {
    return refused.code() + ": " + refused.message() + " (" + refused.hint() + ")";
  }

  @Override
  public void releaseIfUnused(String skill) {
    if (bridges == null || catalog.current().skill(skill).flatMap(Skill::bridge).isEmpty()) {
      return;
    }
    for (SessionState other : sessions) {
      if (other.view().isLoaded(skill)) {
        return;
      }
    }
    bridges.release(skill);
  }

  /** Starts the bridged servers a listing of {@code view} needs whose tools are not known yet. */
  void prepareListed(SessionView view) {
    if (bridges == null) {
      return;
    }
    Catalog snapshot = catalog.current();
    List<Skill> needed = new ArrayList<>();
    for (String name : view.loadedSkills()) {
      snapshot.skill(name).filter(s -> s.bridge().isPresent()).ifPresent(needed::add);
    }
    if (!needed.isEmpty()) {
      bridges.prepareAll(needed);
    }
  }
}

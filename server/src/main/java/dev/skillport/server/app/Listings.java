package dev.skillport.server.app;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CoreTool;
import dev.skillport.registry.ListedTool;
import dev.skillport.registry.SessionView;
import dev.skillport.registry.ToolNames;
import dev.skillport.runtime.CallRouter;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.core.CoreTools;
import dev.skillport.runtime.core.ListedEntries;
import dev.skillport.runtime.core.StatelessTools;
import dev.skillport.server.listing.ToolListing;
import java.util.ArrayList;
import java.util.List;

/**
 * The four listings a service serves: the session era's and the stateless era's, each with and
 * without the session tools (listed only while {@link SessionTools#listedIn} holds). They are made
 * from the core tools' definitions alone, before any tool runs.
 */
final class Listings implements CallRouter.Naming, ListedEntries {
  // Null when the service has no session tools; then the extended listings are null too.
  private final SessionTools sessionTools;
  private final ToolListing session;
  private final ToolListing sessionExtended;
  private final ToolListing stateless;
  private final ToolListing statelessExtended;
  // Which stateless listing the shared state of one catalog generation sees, worked out once: the
  // state reaches every skill of the catalog, so asking the session tools on every request would
  // look at each of them.
  private volatile StatelessChoice statelessChoice;

  Listings(SessionTools sessionTools, int pageSize) {
    this.sessionTools = sessionTools;
    List<CoreTool> core = CoreTools.DEFINITIONS;
    List<CoreTool> statelessCore = StatelessTools.definitions(core);
    this.session = new ToolListing(core, pageSize);
    this.stateless = new ToolListing(statelessCore, pageSize, false);
    if (sessionTools == null) {
      this.sessionExtended = null;
      this.statelessExtended = null;
    } else {
      this.sessionExtended = new ToolListing(concat(core, sessionTools.definitions()), pageSize);
      this.statelessExtended =
          new ToolListing(concat(statelessCore, sessionTools.definitions()), pageSize, false);
    }
  }

  private static List<CoreTool> concat(List<CoreTool> first, List<CoreTool> second) {
    List<CoreTool> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }

  /** The listing a session with {@code view} sees on {@code snapshot}. */
  ToolListing of(Catalog snapshot, SessionView view) {
    if (sessionTools != null && sessionTools.listedIn(snapshot, view)) {
      return sessionExtended;
    }
    return session;
  }

  /**
   * The listing a stateless request with {@code state} sees on {@code snapshot}. The stateless
   * state is one per catalog generation and never changes, so the choice is kept for the last state
   * and generation asked.
   */
  ToolListing statelessListing(Catalog snapshot, SessionState state) {
    if (sessionTools == null) {
      return stateless;
    }
    StatelessChoice last = statelessChoice;
    if (last != null && last.state() == state && last.generation() == snapshot.generation()) {
      return last.listing();
    }
    ToolListing listing =
        sessionTools.listedIn(snapshot, state.view()) ? statelessExtended : stateless;
    statelessChoice = new StatelessChoice(state, snapshot.generation(), listing);
    return listing;
  }

  /** The stateless listing {@code state} sees while the catalog is at {@code generation}. */
  private record StatelessChoice(SessionState state, long generation, ToolListing listing) {}

  @Override
  public ToolNames names(Catalog snapshot, SessionView view) {
    return of(snapshot, view).names();
  }

  @Override
  public ToolNames statelessNames(Catalog snapshot, SessionState state) {
    return statelessListing(snapshot, state).names();
  }

  @Override
  public List<ListedTool> session(Catalog snapshot, SessionView view) {
    return of(snapshot, view).all(snapshot, view);
  }

  @Override
  public List<ListedTool> stateless(Catalog snapshot, SessionState state) {
    return statelessListing(snapshot, state).all(snapshot, state.listedView());
  }

  @Override
  public ObjectNode shown(ListedTool tool) {
    return ToolListing.shown(tool);
  }

  @Override
  public ObjectNode shown(String callName, ToolSpec tool) {
    return ToolListing.shown(callName, tool);
  }

  /** Forgets what the session-era listings keep for {@code view} (its session closed). */
  void forget(SessionView view) {
    session.invalidate(view);
    if (sessionExtended != null) {
      sessionExtended.invalidate(view);
    }
  }
}

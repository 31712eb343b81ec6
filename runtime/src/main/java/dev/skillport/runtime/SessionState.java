package dev.skillport.runtime;

import dev.skillport.registry.SessionView;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The application's state for one MCP session: its view of the catalog and how to send it a
 * notification (a method name such as {@code notifications/tools/list_changed}).
 *
 * <p>The stateless era has one shared, never-changed state per catalog generation instead: its
 * {@link #view()} has every skill the server may run loaded (so any of them can be called), and its
 * {@link #listedView()} holds the skills whose tools are listed under the listing policy (their
 * prompts and resources are listed for every skill that may be run). Nothing a request does changes
 * either.
 */
public final class SessionState {
  public static final String TOOLS_CHANGED = "notifications/tools/list_changed";
  public static final String PROMPTS_CHANGED = "notifications/prompts/list_changed";
  public static final String RESOURCES_CHANGED = "notifications/resources/list_changed";

  private final SessionView view;
  private final SessionView listedView;
  private final boolean stateless;
  private final Consumer<String> notifier;
  // The loaded skills when prompts and resources were last announced; they change only with it.
  private Set<String> announcedSkills;

  /** A session's state: {@code view} is what it loaded, {@code notifier} gets method names. */
  public SessionState(SessionView view, Consumer<String> notifier) {
    this(view, view, false, notifier);
  }

  private SessionState(
      SessionView view, SessionView listedView, boolean stateless, Consumer<String> notifier) {
    this.view = Objects.requireNonNull(view, "view");
    this.listedView = Objects.requireNonNull(listedView, "listedView");
    this.stateless = stateless;
    this.notifier = Objects.requireNonNull(notifier, "notifier");
    this.announcedSkills = Set.copyOf(view.loadedSkills());
  }

  /**
   * The stateless era's shared state: {@code reachable} may be called, {@code listed} is listed.
   */
  public static SessionState stateless(SessionView reachable, SessionView listed) {
    return new SessionState(reachable, listed, true, method -> {});
  }

  /** The skills this state may call (for a session: those it loaded), and their active groups. */
  public SessionView view() {
    return view;
  }

  /** The skills whose tools, prompts and resources are listed; a session lists what it loaded. */
  public SessionView listedView() {
    return listedView;
  }

  /** Whether this is the stateless era's shared state rather than a session's. */
  public boolean isStateless() {
    return stateless;
  }

  /**
   * Tells the session its tools changed, and its prompts and resources too when the set of loaded
   * skills differs from the last announcement.
   */
  public void notifyListChanged() {
    notifier.accept(TOOLS_CHANGED);
    Set<String> now = Set.copyOf(view.loadedSkills());
    boolean skillsChanged;
    synchronized (this) {
      skillsChanged = !now.equals(announcedSkills);
      announcedSkills = now;
    }
    if (skillsChanged) {
      notifier.accept(PROMPTS_CHANGED);
      notifier.accept(RESOURCES_CHANGED);
    }
  }

  /** Tells the session its prompts and resources changed (a bridged server's lists). */
  public void notifyContentChanged() {
    notifier.accept(PROMPTS_CHANGED);
    notifier.accept(RESOURCES_CHANGED);
  }

  /** Tells the session that tools, prompts and resources may all have changed (a reload). */
  public void notifyCatalogChanged() {
    synchronized (this) {
      announcedSkills = Set.copyOf(view.loadedSkills());
    }
    notifier.accept(TOOLS_CHANGED);
    notifier.accept(PROMPTS_CHANGED);
    notifier.accept(RESOURCES_CHANGED);
  }
}

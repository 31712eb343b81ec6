package dev.skillport.server.app;

import dev.skillport.registry.SessionView;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The application's state for one MCP session: its view of the catalog and how to send it a
 * notification (a method name such as {@code notifications/tools/list_changed}).
 */
public final class SessionState {
  private final SessionView view;
  private final Consumer<String> notifier;

  SessionState(SessionView view, Consumer<String> notifier) {
    this.view = Objects.requireNonNull(view, "view");
    this.notifier = Objects.requireNonNull(notifier, "notifier");
  }

  public SessionView view() {
    return view;
  }

  void notifyListChanged() {
    notifier.accept("notifications/tools/list_changed");
  }
}

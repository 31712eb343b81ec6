package dev.skillport.web;

import dev.skillport.api.owner.Principal;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * People signed in with the login form: each gets a random cookie value that stands for the token
 * they entered (the token itself never goes into a cookie or a URL), valid for {@link #LIFETIME}.
 * Wrong tokens typed into the form are limited per client by the transport's token check, exactly
 * as wrong tokens sent to {@code /mcp} are.
 */
final class PageSessions {
  static final String COOKIE = "skillport_page";
  static final Duration LIFETIME = Duration.ofHours(12);
  static final int MAX_SESSIONS = 1000;

  private final Map<String, Instant> sessions = new ConcurrentHashMap<>();
  // Who signed in with each cookie: the page shows that caller's own calls.
  private final Map<String, Principal> signedIn = new ConcurrentHashMap<>();
  private final SecureRandom random = new SecureRandom();
  private final Clock clock;

  PageSessions(Clock clock) {
    this.clock = clock;
  }

  /** A new session's cookie value, for a sign-in as {@code who}. */
  String open(Principal who) {
    sweep();
    if (sessions.size() >= MAX_SESSIONS) {
      // The oldest sign-in goes first.
      sessions.entrySet().stream()
          .min(Map.Entry.comparingByValue())
          .ifPresent(e -> close(e.getKey()));
    }
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    signedIn.put(id, who);
    sessions.put(id, clock.instant().plus(LIFETIME));
    return id;
  }

  /** Who signed in with cookie value {@code id}, while it is valid. */
  java.util.Optional<Principal> who(String id) {
    return valid(id) ? java.util.Optional.ofNullable(signedIn.get(id)) : java.util.Optional.empty();
  }

  boolean valid(String id) {
    if (id == null) {
      return false;
    }
    Instant until = sessions.get(id);
    if (until == null) {
      return false;
    }
    if (!until.isAfter(clock.instant())) {
      close(id);
      return false;
    }
    return true;
  }

  void close(String id) {
    if (id != null) {
      sessions.remove(id);
      signedIn.remove(id);
    }
  }

  private void sweep() {
    Instant now = clock.instant();
    for (Iterator<Map.Entry<String, Instant>> it = sessions.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Instant> session = it.next();
      if (!session.getValue().isAfter(now)) {
        it.remove();
        signedIn.remove(session.getKey());
      }
    }
  }
}

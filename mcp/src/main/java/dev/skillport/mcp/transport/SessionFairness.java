package dev.skillport.mcp.transport;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.server.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes room for a new session when the cap is reached, at the expense of whoever holds the most.
 *
 * <p>Each session is remembered with its client (the remote address). At the cap, the client with
 * the most open sessions gives up its least recently used one that is idle (no event stream open,
 * no request being answered); that client's own session was the one a flood of abandoned sessions
 * would otherwise keep, so one process opening sessions in a loop cannot lock every other client
 * out. Only when no session is idle is the newcomer refused.
 */
final class SessionFairness {
  private static final Logger LOG = LoggerFactory.getLogger(SessionFairness.class);

  private final Map<String, HttpSession> sessions;
  private final Map<String, String> clientOf = new ConcurrentHashMap<>();

  SessionFairness(Map<String, HttpSession> sessions) {
    this.sessions = sessions;
  }

  /** Who a request comes from: its remote address, without the port. */
  static String client(Request request) {
    SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
    if (remote instanceof InetSocketAddress inet && inet.getAddress() != null) {
      return inet.getAddress().getHostAddress();
    }
    return String.valueOf(remote);
  }

  void opened(String sessionId, String client) {
    clientOf.put(sessionId, client);
  }

  /** Forgets the clients of sessions that are gone. */
  void forgetClosed() {
    clientOf.keySet().retainAll(sessions.keySet());
  }

  /** Ends one idle session of the client holding the most; false when none is idle. */
  synchronized boolean evictOne() {
    forgetClosed();
    Map<String, Integer> held = new HashMap<>();
    for (String id : sessions.keySet()) {
      held.merge(clientOf.getOrDefault(id, ""), 1, Integer::sum);
    }
    HttpSession victim = null;
    int victimHeld = -1;
    for (HttpSession s : sessions.values()) {
      if (s.hasOpenGetStream() || s.hasExchanges()) {
        continue;
      }
      int count = held.getOrDefault(clientOf.getOrDefault(s.id(), ""), 0);
      if (count > victimHeld
          || (count == victimHeld
              && s.mcp().lastActivity().isBefore(victim.mcp().lastActivity()))) {
        victim = s;
        victimHeld = count;
      }
    }
    if (victim == null || !sessions.remove(victim.id(), victim)) {
      return false;
    }
    clientOf.remove(victim.id());
    victim.close();
    LOG.debug("HTTP session {} ended to make room for a new one", victim.id());
    return true;
  }
}

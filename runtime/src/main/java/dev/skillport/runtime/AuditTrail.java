package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.model.status.AuditEntry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Where the audit lines of a fleet's calls are kept besides (or instead of) an instance's audit
 * file: a shared store every instance appends to and reads from. A line is the one the file gets
 * ({@link CallGuard#record}), already masked by the redactor, with the session shown as a label
 * ({@link #sessionLabel}): a session id is what an HTTP client presents to act as that session.
 */
public interface AuditTrail {
  /**
   * Appends one masked audit line ({@code time, session, caller?, traceparent?, tool, duration_ms,
   * outcome, arguments}); never blocks the call on the store, and never fails it.
   */
  void append(ObjectNode line);

  /**
   * The newest entries of the whole fleet {@code viewer} may see ({@link Principal#sees(String)}),
   * newest first, at most {@code limit}, each with the instance that served it.
   */
  List<AuditEntry> recent(Principal viewer, int limit);

  /** {@code s-} and the first 12 hex digits of the id's SHA-256: stable, not reversible. */
  static String sessionLabel(String sessionId) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(sessionId.getBytes(StandardCharsets.UTF_8));
      return "s-" + HexFormat.of().formatHex(digest, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      // Every Java platform ships SHA-256.
      throw new IllegalStateException("SHA-256 is missing", e);
    }
  }

  /** The entry an audit line stands for, served by {@code instance}. */
  static AuditEntry entry(JsonNode line, String instance) {
    List<String> names = new ArrayList<>();
    line.path("arguments").forEach(n -> names.add(n.asText()));
    return new AuditEntry(
        Instant.parse(line.path("time").asText()),
        line.hasNonNull("session") ? line.get("session").asText() : null,
        line.path("tool").asText(),
        Duration.ofMillis(line.path("duration_ms").asLong()),
        line.path("outcome").asText(),
        names,
        line.hasNonNull("caller") ? line.get("caller").asText() : null,
        instance);
  }
}

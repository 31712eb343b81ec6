package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs state the stateless era hands to clients and gets back later (a group activation handle, a
 * multi round-trip request's {@code requestState}), so any server instance with the same key can
 * trust it and nobody without the key can forge or alter it. A token is {@code
 * base64url(payload).base64url(HMAC-SHA256)}; the MAC covers a purpose too, so a token minted for
 * one use is refused for another, and every payload carries an expiry.
 *
 * <p>The key comes from configuration (every instance behind one load balancer needs the same);
 * without one, a random key lives as long as the process, so tokens do not survive a restart.
 */
public final class StateSigner {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
  private static final String ALGORITHM = "HmacSHA256";

  private final Supplier<byte[]> material;
  private final Clock clock;
  private final boolean shared;
  // Made at the first token or key id, not at start: the platform's security providers (a random
  // source, HMAC) load on first use, and a session that never sees a token never needs them.
  private volatile Key key;

  /** The HMAC key and its public id. */
  private record Key(SecretKeySpec spec, String id) {}

  private StateSigner(Supplier<byte[]> material, Clock clock, boolean shared) {
    this.material = material;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.shared = shared;
  }

  private Key key() {
    Key k = key;
    if (k == null) {
      synchronized (this) {
        k = key;
        if (k == null) {
          byte[] bytes = material.get();
          k = new Key(new SecretKeySpec(bytes, ALGORITHM), keyId(bytes));
          key = k;
        }
      }
    }
    return k;
  }

  /** The key's public name: the first 8 bytes of an HMAC of a fixed text, in hex; not the key. */
  private static String keyId(byte[] key) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(new SecretKeySpec(key, ALGORITHM));
      byte[] id = mac.doFinal("skillport state key id".getBytes(StandardCharsets.US_ASCII));
      return java.util.HexFormat.of().formatHex(id, 0, 8);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA256 is required by every Java platform", e);
    }
  }

  /**
   * A signer keyed by {@code configured} (any text; it is hashed to the key), or by 256 random bits
   * when null.
   */
  public static StateSigner of(String configured, Clock clock) {
    if (configured != null && !configured.isBlank()) {
      return new StateSigner(() -> sha256(configured), clock, true);
    }
    return new StateSigner(
        () -> {
          byte[] random = new byte[32];
          new SecureRandom().nextBytes(random);
          return random;
        },
        clock,
        false);
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  /** A signer with a random key and the system clock. */
  public static StateSigner random() {
    return of(null, Clock.systemUTC());
  }

  /** Whether the key was configured (and so may be shared by several instances). */
  public boolean shared() {
    return shared;
  }

  /**
   * The key's id: the same for every instance given the same key, and safe to log and compare (it
   * does not reveal the key). Every token names it.
   */
  public String keyId() {
    return key().id();
  }

  /**
   * The key id a token names when it is not this signer's: the token was signed by an instance with
   * another key. Empty for this signer's tokens and for anything not a token.
   */
  public Optional<String> foreignKeyId(String token) {
    if (token == null) {
      return Optional.empty();
    }
    int dot = token.indexOf('.');
    if (dot <= 0) {
      return Optional.empty();
    }
    try {
      JsonNode payload = JSON.readTree(DECODER.decode(token.substring(0, dot)));
      String kid = payload == null ? null : payload.path("kid").asText(null);
      return kid == null || kid.equals(keyId()) ? Optional.empty() : Optional.of(kid);
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** Now, by this signer's clock. */
  public Clock clock() {
    return clock;
  }

  /** Signs {@code payload} for {@code purpose}, valid for {@code ttl} from now. */
  public String sign(String purpose, ObjectNode payload, Duration ttl) {
    ObjectNode body = payload.deepCopy();
    body.put("exp", clock.instant().plus(ttl).getEpochSecond());
    body.put("kid", keyId());
    byte[] json;
    try {
      json = JSON.writeValueAsBytes(body);
    } catch (IOException e) {
      throw new IllegalStateException("a JSON tree could not be written", e);
    }
    String encoded = ENCODER.encodeToString(json);
    return encoded + "." + ENCODER.encodeToString(mac(purpose, encoded));
  }

  /**
   * The payload of a token minted for {@code purpose}, if its signature holds and it has not
   * expired; empty for anything else (altered, forged, expired, another purpose, not a token).
   */
  public Optional<ObjectNode> verify(String purpose, String token) {
    if (token == null) {
      return Optional.empty();
    }
    int dot = token.indexOf('.');
    if (dot <= 0 || dot == token.length() - 1 || token.indexOf('.', dot + 1) >= 0) {
      return Optional.empty();
    }
    String encoded = token.substring(0, dot);
    // The signature's text is compared, not its decoded bytes: the last character of unpadded
    // base64 carries spare bits a decoder ignores, so another text could decode to the same MAC.
    byte[] presented = token.substring(dot + 1).getBytes(StandardCharsets.US_ASCII);
    byte[] expected = ENCODER.encode(mac(purpose, encoded));
    if (!MessageDigest.isEqual(presented, expected)) {
      return Optional.empty();
    }
    try {
      JsonNode payload = JSON.readTree(DECODER.decode(encoded));
      if (!(payload instanceof ObjectNode object)) {
        return Optional.empty();
      }
      long exp = object.path("exp").asLong(0);
      if (exp < clock.instant().getEpochSecond()) {
        return Optional.empty();
      }
      return Optional.of(object);
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private byte[] mac(String purpose, String encoded) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key().spec());
      mac.update(purpose.getBytes(StandardCharsets.UTF_8));
      mac.update((byte) '\n');
      return mac.doFinal(encoded.getBytes(StandardCharsets.US_ASCII));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA256 is required by every Java platform", e);
    }
  }
}

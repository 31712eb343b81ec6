package dev.skillport.store.postgres;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The gateway registry of instances on many machines, in {@code skillport_gateway_instances}: each
 * instance's entry (JSON, as the gateway's folder registry keeps it), its last heartbeat, and the
 * proof that it knew the registration token, an HMAC-SHA256 of its id and URL under the token.
 * Instances write their row; gateways (any number, behind a load balancer) read the rows. A reader
 * that holds the token sees only the rows that prove it, so a database account that can write the
 * table but does not know the token cannot make a gateway route to an address of its choice.
 */
public final class PostgresInstances implements AutoCloseable {
  /** A registered instance as stored: its id, its entry's JSON text and its heartbeat. */
  public record Row(String id, String entry, Instant heartbeat) {}

  private final HikariDataSource pool;
  private final byte[] token;

  private PostgresInstances(HikariDataSource pool, byte[] token) {
    this.pool = pool;
    this.token = token;
  }

  /**
   * Opens the registry at {@code location} (migrating the schema it lacks).
   *
   * @param token the registration token, or null for none: rows are then written without a proof
   *     and every row is read
   * @throws StoreOpenException when the database cannot be reached or its schema is newer
   */
  public static PostgresInstances open(
      PostgresLocation location, Map<String, String> environment, String token) {
    HikariDataSource pool = PostgresStore.pool(location, environment);
    try {
      Schema.migrate(pool, location);
      return new PostgresInstances(
          pool, token == null ? null : token.getBytes(StandardCharsets.UTF_8));
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  /** Writes (or replaces) an instance's row; {@code url} is what the proof binds with its id. */
  public void put(String id, String url, String entry, Instant heartbeat) {
    String sql =
        "INSERT INTO skillport_gateway_instances (id, entry, heartbeat, proof)"
            + " VALUES (?, ?::jsonb, ?, ?)"
            + " ON CONFLICT (id) DO UPDATE SET entry = EXCLUDED.entry,"
            + " heartbeat = EXCLUDED.heartbeat, proof = EXCLUDED.proof";
    try (Connection c = pool.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, id);
      s.setString(2, entry);
      s.setTimestamp(3, PostgresStore.timestamp(heartbeat));
      s.setString(4, token == null ? null : proof(token, id, url));
      s.executeUpdate();
    } catch (SQLException e) {
      throw new StoreAccessException("cannot register instance " + id + ": " + e.getMessage(), e);
    }
  }

  /** Removes an instance's row, if there is one. */
  public void remove(String id) {
    try (Connection c = pool.getConnection();
        PreparedStatement s =
            c.prepareStatement("DELETE FROM skillport_gateway_instances WHERE id = ?")) {
      s.setString(1, id);
      s.executeUpdate();
    } catch (SQLException e) {
      throw new StoreAccessException("cannot remove instance " + id + ": " + e.getMessage(), e);
    }
  }

  /**
   * The registered instances, by id; with a token, only the rows whose proof matches their id and
   * {@code urlOf} their entry.
   */
  public List<Row> list(java.util.function.Function<String, String> urlOf) {
    List<Row> rows = new ArrayList<>();
    try (Connection c = pool.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT id, entry::text, heartbeat, proof FROM skillport_gateway_instances"
                    + " ORDER BY id");
        ResultSet r = s.executeQuery()) {
      while (r.next()) {
        String id = r.getString(1);
        String entry = r.getString(2);
        if (token != null && !proves(r.getString(4), id, urlOf.apply(entry))) {
          continue;
        }
        rows.add(new Row(id, entry, r.getTimestamp(3).toInstant()));
      }
    } catch (SQLException e) {
      throw new StoreAccessException("cannot list the instances: " + e.getMessage(), e);
    }
    return rows;
  }

  private boolean proves(String proof, String id, String url) {
    if (proof == null || url == null) {
      return false;
    }
    return MessageDigest.isEqual(
        proof.getBytes(StandardCharsets.US_ASCII),
        proof(token, id, url).getBytes(StandardCharsets.US_ASCII));
  }

  /** HMAC-SHA256 of {@code id} and {@code url} under {@code token}, Base64url without padding. */
  static String proof(byte[] token, String id, String url) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(token, "HmacSHA256"));
      byte[] sum = mac.doFinal((id + "\n" + url).getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(sum);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  @Override
  public void close() {
    pool.close();
  }
}

package dev.skillport.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.gateway.InstanceEntry;
import dev.skillport.gateway.InstanceRegistry;
import dev.skillport.store.postgres.PostgresInstances;
import dev.skillport.store.postgres.PostgresLocation;
import dev.skillport.store.postgres.StoreAccessException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The gateway registry of instances on many machines, in a fleet's PostgreSQL store ({@link
 * PostgresInstances}) behind the gateway's {@link InstanceRegistry}: instances write their entries
 * there, and any number of gateways read them. With a registration token, an instance's row carries
 * the proof that it knew it and a gateway reads only rows that prove it (decision 0063).
 */
final class PostgresRegistry implements InstanceRegistry, AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final PostgresInstances rows;
  private final String where;

  PostgresRegistry(PostgresInstances rows, String where) {
    this.rows = rows;
    this.where = where;
  }

  /** Opens the registry at {@code location} with the token in {@code tokenFile} (or none). */
  static PostgresRegistry open(PostgresLocation location, Map<String, String> env, Path tokenFile)
      throws IOException {
    return new PostgresRegistry(
        PostgresInstances.open(location, env, readToken(tokenFile)), location.toString());
  }

  /** The first line of {@code file}, stripped; null without a file. */
  static String readToken(Path file) throws IOException {
    if (file == null) {
      return null;
    }
    String token = Files.readString(file, StandardCharsets.UTF_8).lines().findFirst().orElse("");
    if (token.strip().length() < 16) {
      throw new IOException("the registration token in " + file + " is shorter than 16 characters");
    }
    return token.strip();
  }

  @Override
  public void put(InstanceEntry entry) throws IOException {
    try {
      rows.put(
          entry.id(),
          entry.url().toString(),
          JSON.writeValueAsString(entry.toJson(JSON)),
          entry.heartbeat());
    } catch (StoreAccessException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  @Override
  public void remove(String id) throws IOException {
    try {
      rows.remove(id);
    } catch (StoreAccessException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  @Override
  public List<InstanceEntry> list() throws IOException {
    List<InstanceEntry> out = new ArrayList<>();
    try {
      for (PostgresInstances.Row row : rows.list(PostgresRegistry::urlOf)) {
        try {
          out.add(InstanceEntry.fromJson(JSON.readTree(row.entry())));
        } catch (IOException | IllegalArgumentException e) {
          // an entry this build cannot read is no instance of ours
        }
      }
    } catch (StoreAccessException e) {
      throw new IOException(e.getMessage(), e);
    }
    return out;
  }

  private static String urlOf(String entry) {
    try {
      JsonNode node = JSON.readTree(entry);
      return node.path("url").asText(null);
    } catch (IOException e) {
      return null;
    }
  }

  @Override
  public void close() {
    rows.close();
  }

  @Override
  public String toString() {
    return where;
  }
}

package dev.skillport.store.postgres;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * Where a PostgreSQL store is: {@code postgresql://host[:port]/database[?param=value&...]}. The
 * password never comes from the URL (a URL lands in shell histories, process lists and logs): it is
 * read from a file ({@code passwordFile=} or {@link #withPasswordFile}), else {@code PGPASSWORD},
 * else the driver reads {@code ~/.pgpass} ({@code PGPASSFILE}) as libpq does.
 *
 * @param jdbcUrl the driver's URL, without the password file parameter
 * @param user the role, from {@code user=} or {@code PGUSER}, or null for the driver's default
 * @param passwordFile the file holding the password, or null
 */
public record PostgresLocation(String jdbcUrl, String user, Path passwordFile) {
  /** The scheme {@code --store} takes for this store. */
  public static final String SCHEME = "postgresql";

  /**
   * Parses {@code url}.
   *
   * @param environment the process environment ({@code PGUSER})
   * @throws IllegalArgumentException when it is not such a URL or carries a password
   */
  public static PostgresLocation parse(String url, Map<String, String> environment) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("not a postgresql:// URL: " + e.getMessage(), e);
    }
    if (!SCHEME.equals(uri.getScheme()) || uri.getHost() == null) {
      throw new IllegalArgumentException(
          "not a postgresql:// URL: give postgresql://host[:port]/database");
    }
    if (uri.getUserInfo() != null && uri.getUserInfo().contains(":")) {
      throw new IllegalArgumentException(
          "the store URL carries a password: give it in PGPASSWORD, ~/.pgpass or passwordFile=FILE");
    }
    String database = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
    if (database.isEmpty()) {
      throw new IllegalArgumentException("the store URL names no database: postgresql://host/db");
    }
    Map<String, String> params = params(uri.getRawQuery());
    if (params.keySet().stream().anyMatch(k -> k.equalsIgnoreCase("password"))) {
      throw new IllegalArgumentException(
          "the store URL carries a password: give it in PGPASSWORD, ~/.pgpass or passwordFile=FILE");
    }
    String user = params.remove("user");
    if (user == null) {
      user = uri.getUserInfo() != null ? uri.getUserInfo() : environment.get("PGUSER");
    }
    String file = params.remove("passwordFile");
    StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
    params.forEach((k, v) -> query.add(k + "=" + v));
    String hostPort = uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "");
    return new PostgresLocation(
        "jdbc:postgresql://" + hostPort + "/" + database + query,
        user,
        file == null ? null : Path.of(file));
  }

  /** This location with the password read from {@code file}. */
  public PostgresLocation withPasswordFile(Path file) {
    return new PostgresLocation(jdbcUrl, user, file);
  }

  /**
   * The password: the file's first line, else {@code PGPASSWORD}; empty to let the driver read
   * {@code ~/.pgpass}.
   *
   * @throws IOException when the password file cannot be read
   */
  Optional<String> password(Map<String, String> environment) throws IOException {
    if (passwordFile != null) {
      String text = Files.readString(passwordFile, StandardCharsets.UTF_8);
      int eol = text.indexOf('\n');
      return Optional.of((eol < 0 ? text : text.substring(0, eol)).strip());
    }
    return Optional.ofNullable(environment.get("PGPASSWORD")).filter(p -> !p.isEmpty());
  }

  /** The location as it may be shown: the driver URL without secrets, and the role. */
  @Override
  public String toString() {
    return jdbcUrl.substring("jdbc:".length()) + (user == null ? "" : " as " + user);
  }

  private static Map<String, String> params(String rawQuery) {
    Map<String, String> out = new LinkedHashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return out;
    }
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value =
          eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      out.put(key, value);
    }
    return out;
  }
}

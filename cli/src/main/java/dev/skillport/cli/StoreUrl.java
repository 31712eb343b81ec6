package dev.skillport.cli;

import dev.skillport.store.postgres.PostgresLocation;
import java.nio.file.Path;
import java.util.Map;

/**
 * What {@code --store} (or {@code SKILLPORT_STORE}) names: the embedded store of this machine
 * ({@code mvstore:}, the default) or a PostgreSQL database a fleet shares.
 */
sealed interface StoreUrl {
  /** The variable that gives the store when {@code --store} does not. */
  String VARIABLE = "SKILLPORT_STORE";

  /** The embedded store, one folder per instance. */
  record Embedded() implements StoreUrl {}

  /** A PostgreSQL database. */
  record Postgres(PostgresLocation location) implements StoreUrl {}

  /**
   * Parses {@code given}, else the variable, else the default.
   *
   * @param passwordFile {@code --store-password-file}, or null
   * @throws StartupFailure (usage) for anything else
   */
  static StoreUrl parse(String given, Path passwordFile, Map<String, String> env, Path cwd) {
    String url = given != null ? given : env.get(VARIABLE);
    if (url == null || url.isBlank() || url.equals("mvstore:")) {
      if (passwordFile != null) {
        throw StartupFailure.usage("--store-password-file is for a postgresql:// --store");
      }
      return new Embedded();
    }
    if (!url.startsWith(PostgresLocation.SCHEME + "://")) {
      throw StartupFailure.usage(
          "--store "
              + url
              + " is not a store: give mvstore: (the default) or postgresql://host:port/database");
    }
    try {
      PostgresLocation location = PostgresLocation.parse(url, env);
      return new Postgres(
          passwordFile == null ? location : location.withPasswordFile(cwd.resolve(passwordFile)));
    } catch (IllegalArgumentException e) {
      throw StartupFailure.usage("--store: " + e.getMessage());
    }
  }
}

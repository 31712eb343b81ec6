package dev.skillport.store.postgres;

import java.util.Arrays;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;

/**
 * The store's one versioned migration history ({@code db/skillport/V*.sql}), applied by Flyway into
 * its own history table. A database migrated by a newer build is refused, not used half-understood.
 */
public final class Schema {
  static final String HISTORY = "skillport_schema_history";

  private Schema() {}

  /** One migration as the database records it. */
  public record Step(String version, String description, String state) {}

  /**
   * Applies the migrations the database lacks.
   *
   * @throws StoreOpenException when the schema is newer than this build or a migration fails
   */
  static void migrate(DataSource db, PostgresLocation location) {
    Flyway flyway = flyway(db);
    try {
      refuseNewer(flyway, location);
      flyway.migrate();
    } catch (FlywayException e) {
      throw new StoreOpenException(
          "cannot migrate the store " + location + ": " + PostgresStore.rootMessage(e), e);
    }
  }

  /** Migrates the store at {@code location}; returns the steps as they stand after. */
  public static List<Step> migrate(PostgresLocation location, java.util.Map<String, String> env) {
    try (var pool = PostgresStore.pool(location, env)) {
      migrate(pool, location);
      return steps(flyway(pool));
    }
  }

  /**
   * Every migration this build knows or the database holds, with its state ({@code Success}, {@code
   * Pending}, {@code Future}...), without changing anything.
   */
  public static List<Step> status(PostgresLocation location, java.util.Map<String, String> env) {
    try (var pool = PostgresStore.pool(location, env)) {
      return steps(flyway(pool));
    } catch (FlywayException e) {
      throw new StoreOpenException(
          "cannot read the store's schema " + location + ": " + PostgresStore.rootMessage(e), e);
    }
  }

  private static List<Step> steps(Flyway flyway) {
    return Arrays.stream(flyway.info().all())
        .map(
            i ->
                new Step(
                    i.getVersion() == null ? "" : i.getVersion().getVersion(),
                    i.getDescription(),
                    i.getState().getDisplayName()))
        .toList();
  }

  private static void refuseNewer(Flyway flyway, PostgresLocation location) {
    MigrationInfo[] applied = flyway.info().applied();
    String known = "none";
    for (MigrationInfo i : flyway.info().all()) {
      if (i.getState() != MigrationState.FUTURE_SUCCESS
          && i.getState() != MigrationState.FUTURE_FAILED
          && i.getVersion() != null) {
        known = i.getVersion().getVersion();
      }
    }
    for (MigrationInfo i : applied) {
      if (i.getState() == MigrationState.FUTURE_SUCCESS
          || i.getState() == MigrationState.FUTURE_FAILED) {
        throw new StoreOpenException(
            "the store "
                + location
                + " has schema version "
                + applied[applied.length - 1].getVersion().getVersion()
                + ", newer than this Skillport knows ("
                + known
                + "): run the newer Skillport that migrated it",
            null);
      }
    }
  }

  private static Flyway flyway(DataSource db) {
    return Flyway.configure(Schema.class.getClassLoader())
        .dataSource(db)
        .locations("classpath:db/skillport")
        .table(HISTORY)
        .load();
  }
}

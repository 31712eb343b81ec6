package dev.skillport.cli;

import dev.skillport.runtime.StateSigner;
import dev.skillport.store.postgres.PostgresLocation;
import dev.skillport.store.postgres.PostgresStore;
import dev.skillport.store.postgres.StateKeyMismatchException;
import dev.skillport.store.postgres.StoreOpenException;
import java.time.Duration;
import java.util.Map;

/** Opens the PostgreSQL store a fleet shares, for {@code serve}, with one-line failures. */
final class FleetStores {
  private FleetStores() {}

  /**
   * Opens the store, migrates it and checks that this instance signs client state with the fleet's
   * key.
   *
   * @throws StartupFailure (environment) when the database cannot be used or the key differs
   */
  static PostgresStore open(
      PostgresLocation location,
      String instance,
      Duration lease,
      StateSigner signer,
      Map<String, String> env) {
    if (!signer.shared()) {
      throw StartupFailure.usage(
          "a postgresql:// --store is shared by a fleet, whose instances must sign client state"
              + " with one key: give --state-key-file FILE (or SKILLPORT_STATE_KEY)");
    }
    PostgresStore store;
    try {
      store = PostgresStore.open(location, instance, lease, env);
    } catch (StoreOpenException e) {
      throw StartupFailure.environment(e.getMessage(), e);
    }
    try {
      store.agreeOnStateKey(signer.keyId());
      return store;
    } catch (StateKeyMismatchException e) {
      store.close();
      throw StartupFailure.environment(e.getMessage(), e);
    } catch (RuntimeException e) {
      store.close();
      throw StartupFailure.environment("the store " + location + " failed: " + e.getMessage(), e);
    }
  }
}

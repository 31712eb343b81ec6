package dev.skillport.store.postgres;

/**
 * This instance signs client state with another key than the fleet on its store: the operator must
 * give every instance the same state key.
 */
public final class StateKeyMismatchException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String mine;
  private final String fleet;

  StateKeyMismatchException(String mine, String fleet, String setBy) {
    super(
        "this instance's state key id "
            + mine
            + " differs from the fleet's "
            + fleet
            + " (recorded by instance "
            + setBy
            + "): give every instance on this store the same --state-key-file");
    this.mine = mine;
    this.fleet = fleet;
  }

  /** This instance's key id. */
  public String mine() {
    return mine;
  }

  /** The key id the store holds. */
  public String fleet() {
    return fleet;
  }
}

package dev.skillport.runtime.jobs;

import java.util.Objects;

/**
 * A store cannot write now (its disk is full or failing): nobody need act on the request, the
 * operator on the disk. The store keeps a state change it could not write and writes it once it
 * can; a call that needed the write to be durable is refused.
 */
public final class StoreUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The fault, as {@code /readyz} reports it. */
  private final transient StoreFault fault;

  public StoreUnavailableException(StoreFault fault) {
    super(Objects.requireNonNull(fault, "fault").store() + " store cannot write: " + fault.error());
    this.fault = fault;
  }

  public StoreFault fault() {
    return fault;
  }
}

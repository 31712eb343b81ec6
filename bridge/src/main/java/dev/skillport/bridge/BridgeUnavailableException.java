package dev.skillport.bridge;

import java.util.Optional;

/** A bridged server cannot take a call now; the message says why, already redacted. */
final class BridgeUnavailableException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient BridgeOutcome.Refused refusal;

  BridgeUnavailableException(String message) {
    super(message);
    this.refusal = null;
  }

  /** The operator's trust refuses the start: {@code refusal} is the answer with its code. */
  BridgeUnavailableException(BridgeOutcome.Refused refusal) {
    super(refusal.message());
    this.refusal = refusal;
  }

  /** The trust verdict that refused the start, when that is why. */
  Optional<BridgeOutcome.Refused> refusal() {
    return Optional.ofNullable(refusal);
  }
}

package dev.skillport.server.bridge;

/** A bridged server cannot take a call now; the message says why, already redacted. */
final class BridgeUnavailableException extends Exception {
  private static final long serialVersionUID = 1L;

  BridgeUnavailableException(String message) {
    super(message);
  }
}

package dev.skillport.server.bridge;

import dev.skillport.api.skill.McpBridgeSpec;
import java.util.List;
import java.util.Objects;

/**
 * What an operator trusts when trusting a bridge: the exact command and arguments it runs and the
 * digest of its {@code mcp.yaml} (which also covers its environment, working folder and tool
 * filters).
 */
public record BridgeFingerprint(String command, List<String> args, String digest) {
  public BridgeFingerprint {
    Objects.requireNonNull(command, "command");
    args = List.copyOf(args);
    Objects.requireNonNull(digest, "digest");
  }

  /** The fingerprint of a bridge as read. */
  public static BridgeFingerprint of(McpBridgeSpec spec) {
    return new BridgeFingerprint(spec.command(), spec.args(), spec.digest());
  }

  /** What differs from {@code other}, in words, for a diagnostic ("its command", …). */
  String difference(BridgeFingerprint other) {
    if (!command.equals(other.command)) {
      return "its command changed";
    }
    if (!args.equals(other.args)) {
      return "its arguments changed";
    }
    return "its mcp.yaml changed (" + abbreviated(other.digest) + " was trusted)";
  }

  private static String abbreviated(String digest) {
    return digest.length() > 19 ? digest.substring(0, 19) + "…" : digest;
  }
}

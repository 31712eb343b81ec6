package dev.skillport.model.skill;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A local stdio MCP server whose tools, resources and prompts a skill mounts. Nothing here is
 * trusted: the server runs it only when its operator trusts this skill's bridge, and never at
 * discovery.
 *
 * @param command the program to run (a name looked up on {@code PATH}, or a path)
 * @param args its arguments, as written
 * @param env variables for the child as written: values may hold {@code ${VAR}} references to the
 *     server's environment, which is how secrets are passed
 * @param cwd working directory, confined to the skill directory
 * @param namespace prefix for the mounted tools' names, or {@code null}
 * @param timeoutSecs how long the handshake and each request may take
 * @param allowTools the child's tools to mount (empty: all)
 * @param denyTools the child's tools never to mount
 * @param file the bridge file ({@code mcp.yaml})
 * @param digest {@code sha256:<hex>} of the bridge file as it was read, what a trust entry binds
 */
public record McpBridgeSpec(
    String command,
    List<String> args,
    Map<String, String> env,
    Path cwd,
    String namespace,
    int timeoutSecs,
    List<String> allowTools,
    List<String> denyTools,
    Path file,
    String digest) {
  public McpBridgeSpec {
    Objects.requireNonNull(command, "command");
    args = Immutables.list(args);
    env = env == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(env));
    if (timeoutSecs <= 0) {
      throw new IllegalArgumentException("timeoutSecs must be positive");
    }
    allowTools = Immutables.list(allowTools);
    denyTools = Immutables.list(denyTools);
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(digest, "digest");
  }
}

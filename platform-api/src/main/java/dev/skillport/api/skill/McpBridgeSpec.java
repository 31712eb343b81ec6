package dev.skillport.api.skill;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A local stdio MCP server whose tools a skill mounts; started only on {@code load_skill}.
 *
 * @param cwd working directory, confined to the skill directory
 * @param namespace prefix for the mounted tools' names, or {@code null}
 */
public record McpBridgeSpec(
    String command,
    List<String> args,
    Map<String, String> env,
    Path cwd,
    String namespace,
    int timeoutSecs,
    List<String> allowTools,
    List<String> denyTools) {
  public McpBridgeSpec {
    Objects.requireNonNull(command, "command");
    args = Immutables.list(args);
    env = env == null ? Map.of() : Map.copyOf(env);
    if (timeoutSecs <= 0) {
      throw new IllegalArgumentException("timeoutSecs must be positive");
    }
    allowTools = Immutables.list(allowTools);
    denyTools = Immutables.list(denyTools);
  }
}

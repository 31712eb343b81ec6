package dev.skillport.model.status;

import dev.skillport.model.skill.SkillState;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A running server at one moment.
 *
 * @param version the server version
 * @param startedAt when the server started
 * @param uptime how long it has been running
 * @param transports the transports serving it (for example {@code stdio} or the HTTP endpoint)
 * @param sessions open MCP sessions
 * @param catalogGeneration the catalog snapshot's generation; grows with every reload
 * @param skillsByState discovered skills per state (every state present, zero when none)
 * @param plugins ids of the started plugins
 * @param adapters the started host adapters
 * @param pluginProblems plugins or adapters that were left out (see the plugin diagnostics)
 */
public record ServerStatus(
    String version,
    Instant startedAt,
    Duration uptime,
    List<String> transports,
    int sessions,
    long catalogGeneration,
    Map<SkillState, Integer> skillsByState,
    List<String> plugins,
    List<AdapterStatus> adapters,
    int pluginProblems) {
  public ServerStatus {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(uptime, "uptime");
    transports = List.copyOf(transports);
    Map<SkillState, Integer> counts = new EnumMap<>(SkillState.class);
    for (SkillState state : SkillState.values()) {
      counts.put(state, skillsByState.getOrDefault(state, 0));
    }
    skillsByState = Map.copyOf(counts);
    plugins = List.copyOf(plugins);
    adapters = List.copyOf(adapters);
  }

  /** Every discovered skill, whatever its state. */
  public int skillCount() {
    return skillsByState.values().stream().mapToInt(Integer::intValue).sum();
  }
}

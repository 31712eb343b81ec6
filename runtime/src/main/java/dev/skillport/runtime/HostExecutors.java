package dev.skillport.runtime;

import dev.skillport.api.host.HostExecutor;
import dev.skillport.model.skill.Skill;
import java.util.Optional;

/**
 * Where a skill's scripts run inside their host application: the executor of the host adapter that
 * serves the skill, if one is installed and ready.
 */
public interface HostExecutors {
  /** The executor that runs {@code skill}'s main-thread scripts, or empty when none does. */
  Optional<HostExecutor> mainThreadExecutor(Skill skill);

  /** Why {@code skill} may not run here, or empty when it may. */
  Optional<String> refusal(Skill skill);

  /** No host at all: every main-thread script is refused with {@code why}. */
  static HostExecutors none(String why) {
    return new HostExecutors() {
      @Override
      public Optional<HostExecutor> mainThreadExecutor(Skill skill) {
        return Optional.empty();
      }

      @Override
      public Optional<String> refusal(Skill skill) {
        return Optional.of(why);
      }
    };
  }
}

package dev.skillport.runtime.jobs;

import java.util.Set;

/**
 * What an instance can run, for claiming queued jobs: the skills it serves by {@link
 * StoredCall#skillKey()} ({@code name@digest}), and the host adapters it has.
 */
public record Claimant(Set<String> skills, Set<String> hosts) {
  public Claimant {
    skills = Set.copyOf(skills);
    hosts = Set.copyOf(hosts);
  }

  /** Whether this instance can run {@code call}. */
  public boolean canRun(StoredCall call) {
    return skills.contains(call.skillKey()) && (call.host() == null || hosts.contains(call.host()));
  }
}

package dev.skillport.server.architecture.violations;

/** A grab-bag name. */
public final class SkillNameHelper {
  private SkillNameHelper() {}
}

package dev.skillport.loader.discovery;

import dev.skillport.model.skill.Scope;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A directory to scan, with its scope and who named it (for messages). Discovery's own value, so
 * that this package does not depend on the loader's public API.
 */
public record ScanRoot(Path path, Scope scope, String origin) {
  public ScanRoot {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(scope, "scope");
    origin = origin == null ? "" : origin;
  }

  public static ScanRoot of(Path path, Scope scope) {
    return new ScanRoot(path, scope, "");
  }

  // Written out for the reason DiscoveredSkill's are, with the generated methods' meaning.

  @Override
  public boolean equals(Object o) {
    return o instanceof ScanRoot r
        && path.equals(r.path)
        && scope == r.scope
        && origin.equals(r.origin);
  }

  @Override
  public int hashCode() {
    return (31 * path.hashCode() + scope.hashCode()) * 31 + origin.hashCode();
  }
}

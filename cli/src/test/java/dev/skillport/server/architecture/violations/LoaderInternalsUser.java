package dev.skillport.server.architecture.violations;

import dev.skillport.loader.yaml.SafeYaml;
import dev.skillport.loader.yaml.YamlLimits;
import dev.skillport.loader.yaml.YamlResult;

/** A server-side class that parses a skill file itself with the loader's YAML reader. */
public final class LoaderInternalsUser {
  private LoaderInternalsUser() {}

  public static YamlResult reparse(String text) {
    return SafeYaml.parse(text, YamlLimits.SIBLING, 0);
  }
}

package dev.skillport.loader.yaml;

/** The outcome of reading a YAML text: a document or the reason it was rejected. */
public sealed interface YamlResult {
  /** The text was accepted. */
  record Parsed(YamlDocument document) implements YamlResult {}

  /** The text was rejected. */
  record Rejected(YamlProblem problem) implements YamlResult {}
}

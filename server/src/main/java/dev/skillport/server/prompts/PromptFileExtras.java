package dev.skillport.server.prompts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.loader.files.RegularFiles;
import dev.skillport.loader.yaml.SafeYaml;
import dev.skillport.loader.yaml.YamlLimits;
import dev.skillport.loader.yaml.YamlResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds a prompt's own entry in its prompt file, for the keys the loader keeps no field for ({@code
 * messages}, and {@code values}, {@code enum} and {@code examples} of an argument). The file is
 * read with the same safe YAML reader and limits as at load time.
 */
final class PromptFileExtras {
  private static final Logger LOG = LoggerFactory.getLogger(PromptFileExtras.class);

  private PromptFileExtras() {}

  /** The spec entry named {@code name} in {@code file}, if the file holds one. */
  static Optional<JsonNode> entry(Path file, String name) {
    if (file == null) {
      return Optional.empty();
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(RegularFiles.readAll(file, YamlLimits.SIBLING.maxChars())))
              .toString();
    } catch (IOException e) {
      LOG.debug("could not re-read prompt file {}", file, e);
      return Optional.empty();
    }
    YamlResult parsed = SafeYaml.parse(text, YamlLimits.SIBLING, 0);
    if (!(parsed instanceof YamlResult.Parsed p)) {
      return Optional.empty();
    }
    JsonNode root = p.document().root();
    if (root.isObject() && root.has("prompts")) {
      return find(root.get("prompts"), name);
    }
    if (root.isArray()) {
      return find(root, name);
    }
    return matches(root, name) ? Optional.of(root) : Optional.empty();
  }

  private static Optional<JsonNode> find(JsonNode list, String name) {
    for (JsonNode entry : list) {
      if (matches(entry, name)) {
        return Optional.of(entry);
      }
    }
    return Optional.empty();
  }

  private static boolean matches(JsonNode entry, String name) {
    return entry.isObject()
        && entry.has("template")
        && entry.path("name").asText("").strip().equals(name);
  }
}

package dev.skillport.loader.skillmd;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.loader.yaml.SafeYaml;
import dev.skillport.loader.yaml.YamlDocument;
import dev.skillport.loader.yaml.YamlLimits;
import dev.skillport.loader.yaml.YamlLocation;
import dev.skillport.loader.yaml.YamlResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds where SKILL.md writes a key, so that a diagnostic about it (a missing sibling file, a
 * missing dependency, a shadowed name) points at that line.
 *
 * <p>{@link #of(YamlDocument)} answers from a document being read. The cross-skill rules run after
 * reading, when documents are no longer kept; {@link #reread(Path, YamlLimits)} reads SKILL.md
 * again for them, which only happens for a skill that has such a diagnostic.
 */
public final class ManifestKeys {
  /** Answers nothing: every lookup is {@link YamlLocation#UNKNOWN}. */
  public static final ManifestKeys NONE = new ManifestKeys(null);

  private final YamlDocument document;

  private ManifestKeys(YamlDocument document) {
    this.document = document;
  }

  /** Lookups in a document being read. */
  public static ManifestKeys of(YamlDocument document) {
    return new ManifestKeys(Objects.requireNonNull(document, "document"));
  }

  /**
   * Lookups in {@code skillFile} read again within the limits it was first read with; {@link #NONE}
   * when it cannot be read now.
   */
  public static ManifestKeys reread(Path skillFile, YamlLimits limits, long maxFileBytes) {
    try {
      if (FrontmatterSplitter.split(skillFile, null, limits.maxChars(), maxFileBytes)
          instanceof FrontmatterSplitter.Split split) {
        YamlResult result = SafeYaml.parse(split.yaml(), limits, 1);
        if (result instanceof YamlResult.Parsed parsed && parsed.document().root().isObject()) {
          return of(parsed.document());
        }
      }
    } catch (IOException | RuntimeException e) {
      // The file changed or went away since it was read: the diagnostic keeps no line.
    }
    return NONE;
  }

  /** Where a top-level key ({@code name}, {@code description}…) is written. */
  public YamlLocation topLevel(String key) {
    if (document == null || !document.root().has(key)) {
      return YamlLocation.UNKNOWN;
    }
    return document.locate("/" + YamlDocument.escape(key));
  }

  /**
   * Where a {@code metadata.dcc-mcp} key is written, in any accepted spelling ({@code
   * external_deps} for {@code external-deps}, the legacy flat {@code dcc-mcp.tools}); the line of
   * {@code metadata.dcc-mcp} itself when the key is not there, else unknown.
   *
   * @param key the documented spelling, e.g. {@code tools}
   */
  public YamlLocation dccKey(String key) {
    return dccPointer(key).map(p -> document.locate(p)).orElse(YamlLocation.UNKNOWN);
  }

  /**
   * Where {@code dependency} is named: its entry in a {@code depends} list, the {@code depends} key
   * when it is a comma-separated string, or its line in {@code metadata/depends.md}.
   *
   * @return the file and position, or empty when it is named nowhere that can be read now
   */
  public Optional<Located> dependency(Path skillFile, Path skillDir, String dependency) {
    Optional<String> pointer = dccPointer("depends");
    if (pointer.isPresent() && !pointer.get().equals(DCC_MCP)) {
      JsonNode value = document.root().at(pointer.get());
      if (value.isArray()) {
        for (int i = 0; i < value.size(); i++) {
          if (value.get(i).asText().strip().equals(dependency)) {
            return Optional.of(new Located(skillFile, document.locate(pointer.get() + "/" + i)));
          }
        }
      } else if (value.isTextual()
          && List.of(value.asText().split(",")).stream()
              .anyMatch(d -> d.strip().equals(dependency))) {
        return Optional.of(new Located(skillFile, document.locate(pointer.get())));
      }
    }
    Path dependsFile = skillDir.resolve(DccMetadataReader.DEPENDS_FILE);
    try {
      if (Files.isRegularFile(dependsFile) && Files.size(dependsFile) <= 1024 * 1024) {
        List<String> lines = Files.readAllLines(dependsFile, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
          if (DccMetadataReader.dependsLines(lines.get(i)).contains(dependency)) {
            return Optional.of(new Located(dependsFile, new YamlLocation(i + 1, 1)));
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // Unreadable now: no position.
    }
    return Optional.empty();
  }

  private static final String DCC_MCP = "/metadata/" + DccMetadataReader.NESTED_KEY;

  /** The pointer of a dcc-mcp key as written, or of metadata.dcc-mcp, or empty. */
  private Optional<String> dccPointer(String key) {
    if (document == null) {
      return Optional.empty();
    }
    JsonNode metadata = document.root().path("metadata");
    if (!metadata.isObject()) {
      return Optional.empty();
    }
    JsonNode nested = metadata.get(DccMetadataReader.NESTED_KEY);
    if (nested != null && nested.isObject()) {
      Optional<String> written = writtenKey(nested, key, "");
      if (written.isPresent()) {
        return Optional.of(DCC_MCP + "/" + YamlDocument.escape(written.get()));
      }
    }
    Optional<String> flat = writtenKey(metadata, key, DccMetadataReader.FLAT_PREFIX);
    if (flat.isPresent()) {
      return Optional.of("/metadata/" + YamlDocument.escape(flat.get()));
    }
    return nested != null ? Optional.of(DCC_MCP) : Optional.empty();
  }

  private static Optional<String> writtenKey(JsonNode mapping, String key, String prefix) {
    for (Map.Entry<String, JsonNode> field : mapping.properties()) {
      String written = field.getKey();
      if (written.startsWith(prefix)
          && DccMetadataReader.canonical(written.substring(prefix.length())).equals(key)) {
        return Optional.of(written);
      }
    }
    return Optional.empty();
  }

  /** A file and a position in it. */
  public record Located(Path file, YamlLocation at) {
    public Located {
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(at, "at");
    }
  }
}

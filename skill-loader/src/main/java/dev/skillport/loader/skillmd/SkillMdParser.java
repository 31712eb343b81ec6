package dev.skillport.loader.skillmd;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.loader.files.RefusedFileException;
import dev.skillport.loader.report.DiagnosticCollector;
import dev.skillport.loader.yaml.SafeYaml;
import dev.skillport.loader.yaml.YamlDocument;
import dev.skillport.loader.yaml.YamlLimits;
import dev.skillport.loader.yaml.YamlLocation;
import dev.skillport.loader.yaml.YamlProblem;
import dev.skillport.loader.yaml.YamlResult;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.DccExtensions;
import dev.skillport.model.skill.SkillManifest;
import dev.skillport.model.skill.SkillNames;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads one {@code SKILL.md} into a {@link SkillManifest}, reporting every problem to a {@link
 * DiagnosticCollector}.
 *
 * <p>The result is empty only when the file cannot be read as a frontmatter document at all
 * (unreadable, not UTF-8, no fence, bad YAML, not a mapping). Field problems such as an invalid
 * name or a missing description are error diagnostics but still yield a manifest, so the skill can
 * be listed as rejected under its name. Fence rules are described on {@code FrontmatterSplitter}: a
 * fence line is {@code ---} followed only by optional spaces or tabs.
 */
public final class SkillMdParser {
  /** The name rule of the Agent Skills format. */
  public static final Pattern NAME_PATTERN = SkillNames.PATTERN;

  public static final int MAX_NAME = SkillNames.MAX_LENGTH;
  public static final int MAX_DESCRIPTION = 1024;
  public static final int MAX_COMPATIBILITY = 500;

  static final Set<String> ALLOWED_KEYS =
      Set.of(
          "name",
          "description",
          "license",
          "compatibility",
          "metadata",
          "allowed-tools",
          "allowed_tools");

  /** The default limit of a whole SKILL.md: a hundred times what the format recommends. */
  public static final long DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

  private final YamlLimits limits;
  private final long maxFileBytes;
  private final DccMetadataReader dccReader = new DccMetadataReader();

  public SkillMdParser(YamlLimits limits) {
    this(limits, DEFAULT_MAX_FILE_BYTES);
  }

  /**
   * A parser with frontmatter limits and a limit for the whole file.
   *
   * @param maxFileBytes the largest SKILL.md read; a larger one is {@code SKILL_MD_TOO_LARGE}
   */
  public SkillMdParser(YamlLimits limits, long maxFileBytes) {
    this.limits = Objects.requireNonNull(limits, "limits");
    if (maxFileBytes < 1) {
      throw new IllegalArgumentException("maxFileBytes must be positive");
    }
    this.maxFileBytes = maxFileBytes;
  }

  /**
   * Parses {@code skillFile}.
   *
   * @param skillDir the skill folder: its name is the default skill name, and {@code
   *     metadata/depends.md} is read from it
   */
  public Optional<SkillManifest> parse(
      Path skillFile, Path skillDir, DiagnosticCollector diagnostics) {
    return parse(skillFile, null, skillDir, diagnostics);
  }

  /**
   * {@link #parse(Path, Path, DiagnosticCollector)} for a skill file whose attributes (links
   * followed) discovery already read; null when it did not.
   */
  public Optional<SkillManifest> parse(
      Path skillFile,
      BasicFileAttributes attributes,
      Path skillDir,
      DiagnosticCollector diagnostics) {
    return read(skillFile, attributes, skillDir, diagnostics).map(Parsed::manifest);
  }

  /**
   * What {@link #parse} reads, with where its keys are written.
   *
   * @param keys positions of keys in the frontmatter, for diagnostics found later
   */
  public record Parsed(SkillManifest manifest, ManifestKeys keys) {}

  /**
   * {@link #parse(Path, BasicFileAttributes, Path, DiagnosticCollector)}, keeping key positions.
   */
  public Optional<Parsed> read(
      Path skillFile,
      BasicFileAttributes attributes,
      Path skillDir,
      DiagnosticCollector diagnostics) {
    Objects.requireNonNull(skillFile, "skillFile");
    Objects.requireNonNull(skillDir, "skillDir");
    Objects.requireNonNull(diagnostics, "diagnostics");
    FrontmatterSplitter.Outcome outcome;
    try {
      outcome = FrontmatterSplitter.split(skillFile, attributes, limits.maxChars(), maxFileBytes);
    } catch (RefusedFileException e) {
      diagnostics.report(
          DiagnosticCode.SKILL_MD_UNREADABLE,
          "SKILL.md " + e.predicate(),
          skillFile,
          YamlLocation.UNKNOWN,
          "replace it with a regular file");
      return Optional.empty();
    } catch (IOException | SecurityException e) {
      diagnostics.report(
          DiagnosticCode.SKILL_MD_UNREADABLE,
          "SKILL.md could not be read: " + e.getMessage(),
          skillFile);
      return Optional.empty();
    }
    if (outcome instanceof FrontmatterSplitter.Failure failure) {
      bom(failure.bom(), skillFile, diagnostics);
      diagnostics.report(
          failure.code(), failure.message(), skillFile, new YamlLocation(failure.line(), 1), null);
      return Optional.empty();
    }
    FrontmatterSplitter.Split split = (FrontmatterSplitter.Split) outcome;
    bom(split.bom(), skillFile, diagnostics);
    // The YAML starts on line 2 of the file, after the opening fence.
    YamlResult result = SafeYaml.parse(split.yaml(), limits, 1);
    if (result instanceof YamlResult.Rejected rejected) {
      YamlProblem p = rejected.problem();
      diagnostics.report(code(p.kind()), p.message(), skillFile, p.location(), null);
      return Optional.empty();
    }
    YamlDocument document = ((YamlResult.Parsed) result).document();
    JsonNode root = document.root();
    if (!root.isNull() && !root.isObject()) {
      diagnostics.report(
          DiagnosticCode.FRONTMATTER_NOT_MAPPING,
          "the frontmatter must be a YAML mapping, found " + YamlValues.typeName(root),
          skillFile,
          document.locate(""),
          null);
      return Optional.empty();
    }
    return Optional.of(
        new Parsed(
            new Fields(document, skillFile, skillDir, diagnostics)
                .manifest(split.body(), dccReader),
            ManifestKeys.of(document)));
  }

  static DiagnosticCode code(YamlProblem.Kind kind) {
    return switch (kind) {
      case SYNTAX -> DiagnosticCode.FRONTMATTER_YAML;
      case TOO_LARGE -> DiagnosticCode.FRONTMATTER_TOO_LARGE;
      case ALIASES -> DiagnosticCode.YAML_ALIAS_LIMIT;
      case DEPTH -> DiagnosticCode.YAML_DEPTH_LIMIT;
      case DUPLICATE_KEY -> DiagnosticCode.YAML_DUPLICATE_KEY;
      case KEY_NOT_STRING -> DiagnosticCode.YAML_KEY_NOT_STRING;
    };
  }

  private static void bom(boolean bom, Path skillFile, DiagnosticCollector diagnostics) {
    if (bom) {
      diagnostics.report(
          DiagnosticCode.FRONTMATTER_BOM,
          "SKILL.md starts with a UTF-8 byte order mark",
          skillFile,
          new YamlLocation(1, 1),
          "save the file as UTF-8 without BOM");
    }
  }

  /** Where a top-level key that the format does not allow belongs instead. */
  static String homeOf(String key) {
    String kebab = key.replace('_', '-');
    if (kebab.equals("next-tools")) {
      return "a tool entry in the tools file (metadata.dcc-mcp.tools)";
    }
    String canonical = DccMetadataReader.canonical(key);
    if (DccMetadataReader.KNOWN.contains(canonical)
        || DccMetadataReader.DISPLAY_ONLY.contains(canonical)) {
      return "metadata.dcc-mcp." + canonical;
    }
    return "metadata." + key;
  }

  /** Length in code points, as the format counts characters. */
  static int length(String s) {
    return s.codePointCount(0, s.length());
  }

  /** Reading of the top-level fields. */
  private static final class Fields {
    private final YamlDocument document;
    private final JsonNode root;
    private final Path skillFile;
    private final Path skillDir;
    private final DiagnosticCollector diagnostics;

    Fields(YamlDocument document, Path skillFile, Path skillDir, DiagnosticCollector diagnostics) {
      this.document = document;
      this.root = document.root();
      this.skillFile = skillFile;
      this.skillDir = skillDir;
      this.diagnostics = diagnostics;
    }

    SkillManifest manifest(String body, DccMetadataReader dccReader) {
      unknownKeys();
      String name = name();
      String description = description();
      String license = optionalText("license");
      String compatibility = optionalText("compatibility");
      if (compatibility != null && length(compatibility) > MAX_COMPATIBILITY) {
        diagnostics.report(
            DiagnosticCode.COMPATIBILITY_TOO_LONG,
            "compatibility is "
                + length(compatibility)
                + " characters long; the limit is "
                + MAX_COMPATIBILITY,
            skillFile,
            at("compatibility"),
            null);
      }
      List<String> allowedTools = allowedTools();
      JsonNode metadataNode = root.get("metadata");
      Map<String, Object> metadata = new LinkedHashMap<>();
      JsonNode dccSource = null;
      if (metadataNode != null && !metadataNode.isNull()) {
        if (metadataNode.isObject()) {
          metadata = YamlValues.toMap(metadataNode);
          dccSource = metadataNode;
        } else {
          diagnostics.report(
              DiagnosticCode.METADATA_NOT_MAPPING,
              "metadata must be a mapping, found " + YamlValues.typeName(metadataNode),
              skillFile,
              at("metadata"),
              null);
        }
      }
      DccExtensions extensions =
          dccReader.read(dccSource, document, skillFile, skillDir, diagnostics);
      Map<String, Object> frontmatter =
          root.isObject() ? YamlValues.toMap(root) : new LinkedHashMap<>();
      return new SkillManifest(
          name,
          description,
          license,
          compatibility,
          allowedTools,
          metadata,
          frontmatter,
          body,
          extensions);
    }

    private YamlLocation at(String key) {
      return document.locate("/" + YamlDocument.escape(key));
    }

    private void unknownKeys() {
      if (!root.isObject()) {
        return;
      }
      for (Map.Entry<String, JsonNode> e : root.properties()) {
        String key = e.getKey();
        if (ALLOWED_KEYS.contains(key)) {
          continue;
        }
        String home = homeOf(key);
        diagnostics.report(
            DiagnosticCode.FRONTMATTER_UNKNOWN_KEY,
            "top-level key '" + key + "' is not part of the skill format; it belongs in " + home,
            skillFile,
            at(key),
            "move it to " + home);
      }
      if (root.has("allowed-tools") && root.has("allowed_tools")) {
        diagnostics.report(
            DiagnosticCode.FRONTMATTER_UNKNOWN_KEY,
            "both allowed-tools and allowed_tools are given; allowed_tools is ignored",
            skillFile,
            at("allowed_tools"),
            "keep allowed-tools only");
      }
    }

    private String name() {
      String dirName = skillDir.getFileName() == null ? "" : skillDir.getFileName().toString();
      JsonNode node = root.get("name");
      String name;
      if (node == null || node.isNull()) {
        diagnostics.report(
            DiagnosticCode.NAME_MISSING,
            "the frontmatter has no name; the directory name '" + dirName + "' is used",
            skillFile,
            new YamlLocation(1, 1),
            "add name: " + dirName);
        name = dirName;
      } else if (!node.isTextual()) {
        diagnostics.report(
            DiagnosticCode.FIELD_TYPE_INVALID,
            "name must be a string, found " + YamlValues.typeName(node),
            skillFile,
            at("name"),
            null);
        return dirName;
      } else {
        name = node.asText();
      }
      if (length(name) < 1 || length(name) > MAX_NAME || !NAME_PATTERN.matcher(name).matches()) {
        diagnostics.report(
            DiagnosticCode.NAME_INVALID,
            "skill name '"
                + abbreviate(name)
                + "' must be 1-"
                + MAX_NAME
                + " lowercase letters, digits and single hyphens, not starting or ending with '-'",
            skillFile,
            node == null || node.isNull() ? new YamlLocation(1, 1) : at("name"),
            null);
      } else if (!name.equals(dirName)) {
        diagnostics.report(
            DiagnosticCode.NAME_MISMATCH,
            "skill name '" + name + "' differs from its directory name '" + dirName + "'",
            skillFile,
            at("name"),
            "rename the directory or the skill");
      }
      return name.isEmpty() ? dirName : name;
    }

    private String description() {
      JsonNode node = root.get("description");
      if (node != null && !node.isNull() && !node.isTextual()) {
        diagnostics.report(
            DiagnosticCode.FIELD_TYPE_INVALID,
            "description must be a string, found " + YamlValues.typeName(node),
            skillFile,
            at("description"),
            null);
        return "";
      }
      String description = node == null || node.isNull() ? "" : node.asText().strip();
      if (description.isEmpty()) {
        diagnostics.report(
            DiagnosticCode.DESCRIPTION_MISSING,
            "the frontmatter needs a non-empty description",
            skillFile,
            node == null ? new YamlLocation(1, 1) : at("description"),
            "say what the skill does and when to use it");
      } else if (length(description) > MAX_DESCRIPTION) {
        diagnostics.report(
            DiagnosticCode.DESCRIPTION_TOO_LONG,
            "description is "
                + length(description)
                + " characters long; the limit is "
                + MAX_DESCRIPTION,
            skillFile,
            at("description"),
            null);
      }
      return description;
    }

    private String optionalText(String key) {
      JsonNode node = root.get(key);
      if (node == null || node.isNull()) {
        return null;
      }
      if (!node.isTextual()) {
        diagnostics.report(
            DiagnosticCode.FIELD_TYPE_INVALID,
            key + " must be a string, found " + YamlValues.typeName(node),
            skillFile,
            at(key),
            null);
        return null;
      }
      return node.asText();
    }

    private List<String> allowedTools() {
      String key = root.has("allowed-tools") ? "allowed-tools" : "allowed_tools";
      JsonNode node = root.get(key);
      if (node == null || node.isNull()) {
        return List.of();
      }
      List<String> tools = new ArrayList<>();
      if (node.isTextual()) {
        for (String part : node.asText().strip().split("\\s+")) {
          if (!part.isEmpty()) {
            tools.add(part);
          }
        }
      } else if (node.isArray() && allScalars(node)) {
        diagnostics.report(
            DiagnosticCode.ALLOWED_TOOLS_LIST,
            key + " is a YAML list; the format asks for a space-separated string",
            skillFile,
            at(key),
            "write " + key + ": Read Write …");
        for (JsonNode item : node) {
          String s = item.asText().strip();
          if (!s.isEmpty()) {
            tools.add(s);
          }
        }
      } else {
        diagnostics.report(
            DiagnosticCode.FIELD_TYPE_INVALID,
            key + " must be a space-separated string, found " + YamlValues.typeName(node),
            skillFile,
            at(key),
            null);
      }
      return tools;
    }

    private static boolean allScalars(JsonNode array) {
      for (JsonNode item : array) {
        if (!item.isValueNode() || item.isNull()) {
          return false;
        }
      }
      return true;
    }

    private static String abbreviate(String s) {
      return s.length() <= 80 ? s : s.substring(0, 80) + "…";
    }
  }
}

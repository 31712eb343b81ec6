package dev.skillport.loader.skillmd;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.loader.files.RefusedFileException;
import dev.skillport.loader.files.RegularFiles;
import dev.skillport.loader.report.DiagnosticCollector;
import dev.skillport.loader.yaml.YamlDocument;
import dev.skillport.loader.yaml.YamlLocation;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.DccExtensions;
import dev.skillport.model.skill.InlineOrFile;
import dev.skillport.model.skill.Layer;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Reads {@code metadata.dcc-mcp} into {@link DccExtensions}.
 *
 * <p>Keys are accepted in kebab-case as documented and in their snake_case spelling ({@code
 * search_hint}); {@code aliases} and {@code search_aliases} mean {@code search-aliases}. When two
 * spellings of one key are given, the documented kebab spelling is used and a warning names the
 * other. The deprecated flat form ({@code metadata: {"dcc-mcp.tools": …}}) is honoured with a
 * warning; a key given both flat and nested takes the nested value. Values of the wrong type are
 * warnings and fall back to the default, so a typo in a search field does not reject the skill.
 * {@code depends} is merged with the non-empty, non-comment lines of {@code metadata/depends.md}.
 */
public final class DccMetadataReader {
  /** Where extra dependency names may be listed, one per line, relative to the skill folder. */
  public static final String DEPENDS_FILE = "metadata/depends.md";

  static final String NESTED_KEY = "dcc-mcp";
  static final String FLAT_PREFIX = "dcc-mcp.";

  /** Keys with a typed meaning. */
  static final Set<String> KNOWN =
      Set.of(
          "dcc",
          "version",
          "tags",
          "search-hint",
          "search-aliases",
          "depends",
          "products",
          "allow-implicit-invocation",
          "layer",
          "tools",
          "groups",
          "prompts",
          "resources",
          "workflows",
          "examples",
          "recipes",
          "external-deps",
          "runtimes",
          "mcp");

  /** Documented keys kept as written, without a notice. */
  static final Set<String> DISPLAY_ONLY = Set.of("stage", "branding", "links", "example-prompts");

  private static final long MAX_DEPENDS_FILE_BYTES = 1024 * 1024;

  /** One key/value of the extensions, with where it was written. */
  private record Entry(String written, JsonNode value, String pointer) {}

  /**
   * Reads the extensions.
   *
   * @param metadata the frontmatter's {@code metadata} value, or null when absent
   * @param document the frontmatter document, for positions ({@code /metadata/…} pointers)
   * @param skillFile the SKILL.md, named in diagnostics
   * @param skillDir the skill folder, where {@code metadata/depends.md} is looked for
   */
  public DccExtensions read(
      JsonNode metadata,
      YamlDocument document,
      Path skillFile,
      Path skillDir,
      DiagnosticCollector diagnostics) {
    Objects.requireNonNull(document, "document");
    Objects.requireNonNull(skillDir, "skillDir");
    Objects.requireNonNull(diagnostics, "diagnostics");
    Map<String, Entry> entries =
        metadata != null && metadata.isObject()
            ? collect(metadata, document, skillFile, diagnostics)
            : new LinkedHashMap<>();
    return new Fields(entries, document, skillFile, diagnostics).build(skillDir);
  }

  private Map<String, Entry> collect(
      JsonNode metadata, YamlDocument document, Path skillFile, DiagnosticCollector diagnostics) {
    Map<String, Entry> flat = new LinkedHashMap<>();
    List<String> flatKeys = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : metadata.properties()) {
      String key = e.getKey();
      if (key.startsWith(FLAT_PREFIX) && key.length() > FLAT_PREFIX.length()) {
        flatKeys.add(key);
        String pointer = "/metadata/" + YamlDocument.escape(key);
        add(
            flat,
            new Entry(key.substring(FLAT_PREFIX.length()), e.getValue(), pointer),
            document,
            skillFile,
            diagnostics);
      }
    }
    Map<String, Entry> nested = new LinkedHashMap<>();
    JsonNode dcc = metadata.get(NESTED_KEY);
    if (dcc != null && !dcc.isNull()) {
      if (dcc.isObject()) {
        for (Map.Entry<String, JsonNode> e : dcc.properties()) {
          String pointer = "/metadata/dcc-mcp/" + YamlDocument.escape(e.getKey());
          add(
              nested,
              new Entry(e.getKey(), e.getValue(), pointer),
              document,
              skillFile,
              diagnostics);
        }
      } else {
        diagnostics.report(
            DiagnosticCode.DCC_MCP_NOT_MAPPING,
            "metadata.dcc-mcp must be a mapping, found " + YamlValues.typeName(dcc),
            skillFile,
            document.locate("/metadata/dcc-mcp"),
            "write each extension as a key under metadata.dcc-mcp");
      }
    }
    if (!flatKeys.isEmpty()) {
      diagnostics.report(
          DiagnosticCode.METADATA_LEGACY_FLAT,
          "metadata uses the deprecated flat keys "
              + String.join(", ", flatKeys)
              + (nested.isEmpty() ? "" : "; keys also given under metadata.dcc-mcp use that value"),
          skillFile,
          document.locate("/metadata/" + YamlDocument.escape(flatKeys.get(0))),
          "nest them: metadata: {dcc-mcp: {tools: tools.yaml}}");
    }
    Map<String, Entry> merged = new LinkedHashMap<>(flat);
    merged.putAll(nested);
    return merged;
  }

  /** Adds an entry under its canonical key, preferring the documented spelling on a clash. */
  private static void add(
      Map<String, Entry> into,
      Entry entry,
      YamlDocument document,
      Path skillFile,
      DiagnosticCollector diagnostics) {
    String canonical = canonical(entry.written());
    Entry earlier = into.get(canonical);
    if (earlier == null) {
      into.put(canonical, entry);
      return;
    }
    Entry kept = entry.written().equals(canonical) ? entry : earlier;
    Entry dropped = kept == entry ? earlier : entry;
    into.put(canonical, kept);
    diagnostics.report(
        DiagnosticCode.DCC_MCP_VALUE_INVALID,
        "metadata.dcc-mcp gives "
            + canonical
            + " twice (as "
            + earlier.written()
            + " and "
            + entry.written()
            + "); "
            + kept.written()
            + " is used",
        skillFile,
        document.locate(dropped.pointer()),
        "keep one spelling");
  }

  /** The documented spelling of a key, or the key as written when it is not a known one. */
  static String canonical(String written) {
    String kebab = written.replace('_', '-');
    if (kebab.equals("aliases")) {
      return "search-aliases";
    }
    if (KNOWN.contains(kebab) || DISPLAY_ONLY.contains(kebab)) {
      return kebab;
    }
    return written;
  }

  /** Typed reading of the collected entries. */
  private static final class Fields {
    private final Map<String, Entry> entries;
    private final YamlDocument document;
    private final Path skillFile;
    private final DiagnosticCollector diagnostics;

    Fields(
        Map<String, Entry> entries,
        YamlDocument document,
        Path skillFile,
        DiagnosticCollector diagnostics) {
      this.entries = entries;
      this.document = document;
      this.skillFile = skillFile;
      this.diagnostics = diagnostics;
    }

    DccExtensions build(Path skillDir) {
      Map<String, Object> extras = new LinkedHashMap<>();
      for (Map.Entry<String, Entry> e : entries.entrySet()) {
        String canonical = e.getKey();
        if (KNOWN.contains(canonical)) {
          continue;
        }
        Entry entry = e.getValue();
        if (!DISPLAY_ONLY.contains(canonical)) {
          diagnostics.report(
              DiagnosticCode.DCC_MCP_UNKNOWN_KEY,
              "metadata.dcc-mcp." + entry.written() + " is not a key Skillport knows; it is kept",
              skillFile,
              where(entry),
              null);
        }
        extras.put(DISPLAY_ONLY.contains(canonical) ? canonical : entry.written(), plain(entry));
      }
      List<String> depends = new ArrayList<>(list("depends"));
      for (String more : dependsFile(skillDir)) {
        if (!depends.contains(more)) {
          depends.add(more);
        }
      }
      return DccExtensions.builder()
          .dcc(text("dcc"))
          .version(version())
          .tags(list("tags"))
          .searchHint(text("search-hint"))
          .searchAliases(list("search-aliases"))
          .depends(depends)
          .products(list("products"))
          .allowImplicitInvocation(bool("allow-implicit-invocation", true))
          .layer(layer())
          .tools(text("tools"))
          .groups(text("groups"))
          .prompts(text("prompts"))
          .resources(text("resources"))
          .workflows(list("workflows"))
          .examples(list("examples"))
          .recipes(list("recipes"))
          .externalDeps(inlineOrPath("external-deps"))
          .runtimes(inlineOrPath("runtimes"))
          .mcp(text("mcp"))
          .extras(extras)
          .build();
    }

    private static Object plain(Entry entry) {
      return YamlValues.toJava(entry.value());
    }

    private YamlLocation where(Entry entry) {
      return document.locate(entry.pointer());
    }

    private void invalid(Entry entry, String expected) {
      diagnostics.report(
          DiagnosticCode.DCC_MCP_VALUE_INVALID,
          "metadata.dcc-mcp."
              + entry.written()
              + " must be "
              + expected
              + ", found "
              + YamlValues.typeName(entry.value())
              + "; the default is used",
          skillFile,
          where(entry),
          null);
    }

    private String text(String key) {
      Entry entry = entries.get(key);
      if (entry == null || entry.value().isNull()) {
        return null;
      }
      JsonNode v = entry.value();
      if (!v.isValueNode()) {
        invalid(entry, "a string");
        return null;
      }
      String s = v.asText().strip();
      return s.isEmpty() ? null : s;
    }

    private String version() {
      Entry entry = entries.get("version");
      if (entry != null && entry.value().isBoolean()) {
        invalid(entry, "a string or number");
        return null;
      }
      return text("version");
    }

    /** A "CSV or list" field: {@code a, b} or a YAML list of scalars. */
    private List<String> list(String key) {
      Entry entry = entries.get(key);
      if (entry == null || entry.value().isNull()) {
        return List.of();
      }
      JsonNode v = entry.value();
      Set<String> out = new LinkedHashSet<>();
      if (v.isArray()) {
        boolean bad = false;
        for (JsonNode item : v) {
          if (item.isValueNode() && !item.isNull()) {
            addTrimmed(out, item.asText());
          } else if (!item.isNull()) {
            bad = true;
          }
        }
        if (bad) {
          invalid(entry, "a list of strings (nested values were ignored)");
        }
      } else if (v.isValueNode()) {
        for (String part : v.asText().split(",", -1)) {
          addTrimmed(out, part);
        }
      } else {
        invalid(entry, "a comma-separated string or a list");
      }
      return List.copyOf(out);
    }

    private static void addTrimmed(Set<String> into, String value) {
      String s = value.strip();
      if (!s.isEmpty()) {
        into.add(s);
      }
    }

    private boolean bool(String key, boolean fallback) {
      Entry entry = entries.get(key);
      if (entry == null || entry.value().isNull()) {
        return fallback;
      }
      JsonNode v = entry.value();
      if (v.isBoolean()) {
        return v.booleanValue();
      }
      if (v.isIntegralNumber() && (v.longValue() == 0 || v.longValue() == 1)) {
        return v.longValue() == 1;
      }
      if (v.isTextual()) {
        switch (v.asText().strip().toLowerCase(Locale.ROOT)) {
          case "true", "yes", "1":
            return true;
          case "false", "no", "0":
            return false;
          default:
            break;
        }
      }
      invalid(entry, "true/false/yes/no/1/0");
      return fallback;
    }

    private Layer layer() {
      Entry entry = entries.get("layer");
      String value = text("layer");
      if (value == null) {
        return Layer.DOMAIN;
      }
      return Layer.parse(value)
          .orElseGet(
              () -> {
                diagnostics.report(
                    DiagnosticCode.DCC_MCP_VALUE_INVALID,
                    "metadata.dcc-mcp.layer '"
                        + value
                        + "' is not one of domain, infrastructure, thin-harness, example;"
                        + " domain is used",
                    skillFile,
                    where(entry),
                    null);
                return Layer.DOMAIN;
              });
    }

    /** A sibling path (string) or an inline value (mapping or list), as written. */
    private InlineOrFile inlineOrPath(String key) {
      Entry entry = entries.get(key);
      if (entry == null || entry.value().isNull()) {
        return null;
      }
      JsonNode v = entry.value();
      if (v.isTextual()) {
        String s = v.asText().strip();
        return s.isEmpty() ? null : new InlineOrFile.Text(s);
      }
      if (v.isContainerNode()) {
        return new InlineOrFile.Inline(v);
      }
      invalid(entry, "a path or an inline mapping or list");
      return null;
    }

    /** Dependency names from {@code metadata/depends.md}: one per line, list bullets allowed. */
    private List<String> dependsFile(Path skillDir) {
      Path file = skillDir.resolve(DEPENDS_FILE);
      if (!Files.exists(file)) {
        return List.of();
      }
      try {
        Path real = file.toRealPath();
        if (!real.startsWith(skillDir.toRealPath())) {
          diagnostics.report(
              DiagnosticCode.SIBLING_ESCAPES,
              DEPENDS_FILE + " resolves to " + real + ", outside the skill folder",
              file,
              YamlLocation.UNKNOWN,
              "replace the link with a regular file");
          return List.of();
        }
        byte[] bytes = RegularFiles.readAll(real, MAX_DEPENDS_FILE_BYTES);
        String text =
            StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(java.nio.ByteBuffer.wrap(bytes))
                .toString();
        return dependsLines(text);
      } catch (RefusedFileException e) {
        diagnostics.report(
            DiagnosticCode.DCC_MCP_VALUE_INVALID,
            DEPENDS_FILE + " " + e.predicate() + "; it was ignored",
            file);
      } catch (CharacterCodingException e) {
        diagnostics.report(
            DiagnosticCode.SIBLING_UNREADABLE, DEPENDS_FILE + " is not valid UTF-8", file);
      } catch (IOException | SecurityException e) {
        diagnostics.report(
            DiagnosticCode.SIBLING_UNREADABLE,
            DEPENDS_FILE + " could not be read: " + e.getMessage(),
            file);
      }
      return List.of();
    }
  }

  /** The dependency names in a depends.md text. */
  static List<String> dependsLines(String text) {
    Set<String> names = new LinkedHashSet<>();
    for (String raw : text.split("\\R")) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#") || line.startsWith("<!--")) {
        continue;
      }
      if (line.startsWith("- ") || line.startsWith("* ") || line.startsWith("+ ")) {
        line = line.substring(2).strip();
      }
      if (!line.isEmpty()) {
        names.add(line);
      }
    }
    return List.copyOf(names);
  }
}

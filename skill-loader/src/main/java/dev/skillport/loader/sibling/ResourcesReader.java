package dev.skillport.loader.sibling;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.loader.yaml.YamlDocument;
import dev.skillport.loader.yaml.YamlLocation;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.ResourceSpec;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a skill's static resources from a directory (every regular, non-hidden file, recursively),
 * a glob, a single file, or a YAML manifest ({@code {resources: [{uri, name, description, mimeType,
 * source: {type: file, path}}]}}, paths relative to the manifest).
 *
 * <p>Generated URIs are {@code skill://<skill>/<path relative to the skill folder>},
 * percent-encoded; the MIME type comes from the file extension ({@link #mimeType}), {@code
 * application/octet-stream} when unknown.
 */
final class ResourcesReader {
  private static final Map<String, String> MIME_TYPES =
      Map.ofEntries(
          Map.entry("md", "text/markdown"),
          Map.entry("markdown", "text/markdown"),
          Map.entry("txt", "text/plain"),
          Map.entry("csv", "text/csv"),
          Map.entry("html", "text/html"),
          Map.entry("htm", "text/html"),
          Map.entry("css", "text/css"),
          Map.entry("json", "application/json"),
          Map.entry("yaml", "application/yaml"),
          Map.entry("yml", "application/yaml"),
          Map.entry("toml", "application/toml"),
          Map.entry("xml", "application/xml"),
          Map.entry("py", "text/x-python"),
          Map.entry("js", "text/javascript"),
          Map.entry("mjs", "text/javascript"),
          Map.entry("ts", "text/plain"),
          Map.entry("sh", "text/x-shellscript"),
          Map.entry("png", "image/png"),
          Map.entry("jpg", "image/jpeg"),
          Map.entry("jpeg", "image/jpeg"),
          Map.entry("gif", "image/gif"),
          Map.entry("webp", "image/webp"),
          Map.entry("svg", "image/svg+xml"),
          Map.entry("pdf", "application/pdf"),
          Map.entry("zip", "application/zip"));

  private final SiblingContext ctx;
  private final SiblingPaths paths;
  private final SiblingYaml yaml;
  private final Map<String, ResourceSpec> resources = new LinkedHashMap<>();

  ResourcesReader(SiblingContext ctx, SiblingPaths paths, SiblingYaml yaml) {
    this.ctx = ctx;
    this.paths = paths;
    this.yaml = yaml;
  }

  List<ResourceSpec> read(String pointer) {
    if (SiblingPaths.isGlob(pointer) || pointer.contains(",")) {
      paths.expand("resources", pointer, "resource").forEach(this::fileResource);
    } else {
      Optional<Path> target = paths.resolveFromManifest("resources", pointer, "resources path");
      if (target.isPresent()) {
        Path p = target.get();
        if (Files.isDirectory(p)) {
          paths.filesUnder(p, "resource").forEach(this::fileResource);
        } else if (isYaml(p)) {
          manifest(p);
        } else {
          fileResource(p);
        }
      }
    }
    return List.copyOf(resources.values());
  }

  private static boolean isYaml(Path p) {
    String ext = extension(p);
    return ext.equals("yaml") || ext.equals("yml");
  }

  private void fileResource(Path file) {
    add(new ResourceSpec(uri(file), null, null, mimeType(file), file), file, YamlLocation.UNKNOWN);
  }

  private void manifest(Path file) {
    Optional<YamlDocument> parsed = yaml.read(file);
    if (parsed.isEmpty() || parsed.get().root().isNull()) {
      return;
    }
    YamlDocument doc = parsed.get();
    if (!yaml.checkFile(SiblingSchema.RESOURCES_FILE, doc, file, "resources file")) {
      return;
    }
    boolean bare = doc.root().isArray();
    JsonNode list = bare ? doc.root() : doc.root().path("resources");
    for (int i = 0; i < list.size(); i++) {
      String pointer = (bare ? "" : "/resources") + "/" + i;
      JsonNode entry = list.get(i);
      if (!yaml.checkEntry(
          SiblingSchema.RESOURCE,
          entry,
          doc,
          pointer,
          file,
          DiagnosticCode.RESOURCE_INVALID,
          "resource")) {
        continue;
      }
      YamlLocation pathAt = doc.locate(pointer + "/source/path");
      Optional<Path> source =
          paths.resolve(
              file.getParent(),
              entry.get("source").get("path").asText(),
              "resource source",
              file,
              pathAt,
              DiagnosticCode.RESOURCE_INVALID);
      if (source.isEmpty()) {
        continue;
      }
      if (!Files.isRegularFile(source.get())) {
        ctx.diagnostics()
            .report(
                DiagnosticCode.RESOURCE_INVALID,
                "The resource source '" + paths.relative(source.get()) + "' is not a regular file.",
                file,
                pathAt,
                null);
        continue;
      }
      Path p = source.get();
      String mime =
          YamlValues.text(entry.has("mimeType") ? entry.get("mimeType") : entry.get("mime_type"));
      add(
          new ResourceSpec(
              entry.has("uri") ? entry.get("uri").asText() : uri(p),
              YamlValues.text(entry.get("name")),
              YamlValues.text(entry.get("description")),
              mime == null || mime.isBlank() ? mimeType(p) : mime,
              p),
          file,
          doc.locate(pointer));
    }
  }

  private void add(ResourceSpec spec, Path file, YamlLocation at) {
    if (resources.putIfAbsent(spec.uri(), spec) != null) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.RESOURCE_DUPLICATE,
              "Resource URI '" + spec.uri() + "' is declared twice; this one was dropped.",
              file,
              at,
              null);
    }
  }

  /** {@code skill://<skill>/<relative path>}, percent-encoded. */
  String uri(Path file) {
    String rel = paths.relative(file);
    try {
      return new URI("skill", ctx.skillName(), "/" + rel, null, null).toASCIIString();
    } catch (URISyntaxException e) {
      // Unreachable for a relative path, but a URI must still come out.
      return "skill://" + ctx.skillName() + "/" + rel.replace(" ", "%20");
    }
  }

  /** The MIME type for a file's extension, {@code application/octet-stream} when unknown. */
  static String mimeType(Path file) {
    return MIME_TYPES.getOrDefault(extension(file), "application/octet-stream");
  }

  private static String extension(Path file) {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
  }
}

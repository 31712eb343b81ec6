package dev.skillport.loader.sibling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.loader.yaml.YamlDocument;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.InlineOrFile;
import dev.skillport.model.skill.RuntimeSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code runtimes}: inline or from a sibling YAML, as a list of names or {@code {name, …}}
 * mappings, as {@code {runtimes: [...]}}, or as a map of name to attributes. A plain string that is
 * not a path to a YAML file and not inline JSON is read as a comma-separated list of names.
 */
final class RuntimesReader {
  private final SiblingContext ctx;
  private final SiblingYaml yaml;

  RuntimesReader(SiblingContext ctx, SiblingYaml yaml) {
    this.ctx = ctx;
    this.yaml = yaml;
  }

  List<RuntimeSpec> read(InlineOrFile value) {
    // A bare comma-separated list of names is read as an inline list.
    InlineOrFile v =
        value == null
            ? null
            : value.fold(
                text ->
                    looksLikeFileOrInline(text)
                        ? value
                        : new InlineOrFile.Inline(YamlValues.tree(SiblingPaths.splitList(text))),
                inline -> value);
    var source = yaml.inlineOrFile("runtimes", v, "runtimes file");
    if (source.isEmpty() || source.get().root().isNull()) {
      return List.of();
    }
    SiblingYaml.Source src = source.get();
    if (!yaml.checkWhole(
        SiblingSchema.RUNTIMES,
        src.root(),
        src.doc(),
        src.file(),
        DiagnosticCode.RUNTIMES_INVALID,
        "runtimes value")) {
      return List.of();
    }
    JsonNode root = src.root();
    Map<String, RuntimeSpec> out = new LinkedHashMap<>();
    if (root.isObject() && !root.has("runtimes")) {
      root.properties()
          .forEach(
              e -> {
                ObjectNode entry = JsonNodeFactory.instance.objectNode().put("name", e.getKey());
                if (e.getValue().isObject()) {
                  entry.setAll((ObjectNode) e.getValue());
                  entry.put("name", e.getKey());
                }
                entry(entry, src.doc(), "/" + YamlDocument.escape(e.getKey()), src, out);
              });
    } else {
      boolean bare = root.isArray();
      JsonNode list = bare ? root : root.path("runtimes");
      for (int i = 0; i < list.size(); i++) {
        entry(list.get(i), src.doc(), (bare ? "" : "/runtimes") + "/" + i, src, out);
      }
    }
    return new ArrayList<>(out.values());
  }

  private static boolean looksLikeFileOrInline(String s) {
    String t = s.strip();
    return t.startsWith("{")
        || t.startsWith("[")
        || t.endsWith(".yaml")
        || t.endsWith(".yml")
        || t.endsWith(".json");
  }

  private void entry(
      JsonNode entry,
      YamlDocument doc,
      String pointer,
      SiblingYaml.Source src,
      Map<String, RuntimeSpec> out) {
    if (!yaml.checkEntry(
        SiblingSchema.RUNTIME,
        entry,
        doc,
        pointer,
        src.file(),
        DiagnosticCode.RUNTIMES_INVALID,
        "runtime")) {
      return;
    }
    String name = entry.isTextual() ? entry.asText().strip() : entry.get("name").asText().strip();
    Map<String, Object> attributes = YamlValues.plainMap(entry);
    attributes.remove("name");
    if (out.putIfAbsent(name, new RuntimeSpec(name, attributes)) != null) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.RUNTIMES_INVALID,
              "Runtime '" + name + "' is listed twice; this entry was dropped.",
              src.file(),
              SiblingYaml.at(doc, pointer),
              null);
    }
  }
}

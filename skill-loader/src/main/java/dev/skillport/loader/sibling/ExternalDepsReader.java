package dev.skillport.loader.sibling;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.ExternalDependency;
import dev.skillport.model.skill.InlineOrFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code external-deps} ({@code {tools: [{type: mcp|env_var|bin, value, …}]}}, inline or from
 * a sibling file) and checks {@code env_var} and {@code bin} requirements on this machine. Unmet
 * requirements are notices: the skill still loads. Only variable and program names ever appear in
 * messages, never a variable's value.
 */
final class ExternalDepsReader {
  private final SiblingContext ctx;
  private final SiblingYaml yaml;
  private final HostEnvironment host;

  ExternalDepsReader(SiblingContext ctx, SiblingYaml yaml, HostEnvironment host) {
    this.ctx = ctx;
    this.yaml = yaml;
    this.host = host;
  }

  List<ExternalDependency> read(InlineOrFile value) {
    List<ExternalDependency> out = new ArrayList<>();
    var source = yaml.inlineOrFile("external-deps", value, "external-deps file");
    if (source.isEmpty() || source.get().root().isNull()) {
      return out;
    }
    SiblingYaml.Source src = source.get();
    if (!yaml.checkWhole(
        SiblingSchema.EXTERNAL_DEPS,
        src.root(),
        src.doc(),
        src.file(),
        DiagnosticCode.EXTERNAL_DEPS_INVALID,
        "external-deps value")) {
      return out;
    }
    boolean bare = src.root().isArray();
    JsonNode list = bare ? src.root() : src.root().path("tools");
    for (int i = 0; i < list.size(); i++) {
      String pointer = (bare ? "" : "/tools") + "/" + i;
      JsonNode entry = list.get(i);
      if (!yaml.checkEntry(
          SiblingSchema.EXTERNAL_DEP,
          entry,
          src.doc(),
          pointer,
          src.file(),
          DiagnosticCode.EXTERNAL_DEPS_INVALID,
          "external requirement")) {
        continue;
      }
      String type = entry.get("type").asText();
      String name = entry.get("value").asText().strip();
      Map<String, Object> extras = YamlValues.plainMap(entry);
      extras.remove("type");
      extras.remove("value");
      out.add(new ExternalDependency(type, name, extras));
      String unmet = null;
      if (type.equals("env_var") && !host.hasEnv(name)) {
        unmet = "environment variable " + name + " is not set";
      } else if (type.equals("bin") && !host.onPath(name)) {
        unmet = "program '" + name + "' is not on the PATH";
      }
      if (unmet != null) {
        ctx.diagnostics()
            .report(
                DiagnosticCode.EXTERNAL_DEP_UNMET,
                "Requirement not met on this machine: " + unmet + ".",
                src.file(),
                SiblingYaml.at(src.doc(), pointer),
                null);
      }
    }
    return out;
  }
}

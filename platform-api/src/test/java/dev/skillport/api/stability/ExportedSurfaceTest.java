package dev.skillport.api.stability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The plugin SPI is what {@code module-info} exports, every public type in it carries a stability
 * mark, and {@code docs/architecture.md} lists exactly those types with their marks: a type cannot
 * join the SPI, or change its promise, without the build noticing.
 */
class ExportedSurfaceTest {
  private static final String MODULE = "dev.skillport.api";

  @Test
  void exportedPackages_everyPublicType_carriesAStabilityMark() throws Exception {
    Map<String, Map<String, API.Status>> surface = surface();
    assertThat(surface).isNotEmpty();
    List<String> unmarked = new ArrayList<>();
    for (Map.Entry<String, Map<String, API.Status>> pkg : surface.entrySet()) {
      pkg.getValue()
          .forEach(
              (type, status) -> {
                if (status == null) {
                  unmarked.add(pkg.getKey() + "." + type);
                }
              });
    }
    assertThat(unmarked)
        .as("public types of exported packages without @API (mark each with its stability)")
        .isEmpty();
  }

  @Test
  void architectureDoc_listsTheExportedTypesWithTheirMarks() throws Exception {
    Map<String, Map<String, API.Status>> surface = surface();
    Map<String, Set<String>> expected = new TreeMap<>();
    surface.forEach(
        (pkg, types) ->
            types.forEach(
                (type, status) ->
                    expected.computeIfAbsent(pkg, p -> new TreeSet<>()).add(type + " " + status)));
    assertThat(documented())
        .as(
            "docs/architecture.md's exported-package table must list %s's exported packages and"
                + " their public types, by stability",
            MODULE)
        .isEqualTo(expected);
  }

  @Test
  void moduleInfo_exportsOnlyThePluginPackages() throws Exception {
    assertThat(surface().keySet())
        .containsExactly(
            "dev.skillport.api.host",
            "dev.skillport.api.owner",
            "dev.skillport.api.resource",
            "dev.skillport.api.script",
            "dev.skillport.api.stability",
            "dev.skillport.api.tool");
  }

  /** Each exported package's public top-level types, with their mark or {@code null}. */
  private static Map<String, Map<String, API.Status>> surface()
      throws IOException, URISyntaxException, ClassNotFoundException {
    Path classes = Path.of(API.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    ModuleDescriptor descriptor = ModuleFinder.of(classes).find(MODULE).orElseThrow().descriptor();
    Map<String, Map<String, API.Status>> out = new TreeMap<>();
    for (ModuleDescriptor.Exports export : descriptor.exports()) {
      assertThat(export.isQualified()).as("%s is exported to everyone", export.source()).isFalse();
      Map<String, API.Status> types = new TreeMap<>();
      try (Stream<Path> files = Files.list(classes.resolve(export.source().replace('.', '/')))) {
        for (Path file : files.toList()) {
          String name = file.getFileName().toString();
          if (!name.endsWith(".class") || name.contains("$") || name.startsWith("package-info")) {
            continue;
          }
          Class<?> type = Class.forName(export.source() + "." + name.replace(".class", ""));
          if (Modifier.isPublic(type.getModifiers())) {
            API mark = type.getAnnotation(API.class);
            types.put(type.getSimpleName(), mark == null ? null : mark.status());
          }
        }
      }
      out.put(export.source(), types);
    }
    return out;
  }

  /** The table of {@code docs/architecture.md} whose first column is "exported package". */
  private static Map<String, Set<String>> documented() throws IOException {
    Path doc = Path.of(System.getProperty("skillport.repo", "..")).resolve("docs/architecture.md");
    List<String> lines = Files.readAllLines(doc);
    int header = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith("| exported package |")) {
        header = i;
        break;
      }
    }
    assertThat(header).as("docs/architecture.md has an \"exported package\" table").isNotNegative();
    List<String> columns = cells(lines.get(header));
    Pattern name = Pattern.compile("`([^`]+)`");
    Map<String, Set<String>> out = new TreeMap<>();
    for (int i = header + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
      List<String> row = cells(lines.get(i));
      Matcher pkg = name.matcher(row.get(0));
      assertThat(pkg.find()).as("package cell of %s", lines.get(i)).isTrue();
      Set<String> types = out.computeIfAbsent(pkg.group(1), p -> new TreeSet<>());
      for (int c = 1; c < row.size(); c++) {
        API.Status status = API.Status.valueOf(columns.get(c).toUpperCase(java.util.Locale.ROOT));
        Matcher type = name.matcher(row.get(c));
        while (type.find()) {
          types.add(type.group(1) + " " + status);
        }
      }
    }
    return out;
  }

  private static List<String> cells(String line) {
    String inner = line.strip().substring(1, line.strip().length() - 1);
    return Stream.of(inner.split("\\|")).map(String::strip).toList();
  }
}

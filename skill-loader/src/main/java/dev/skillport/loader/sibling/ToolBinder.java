package dev.skillport.loader.sibling;

import dev.skillport.loader.yaml.YamlLocation;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.ToolBinding;
import dev.skillport.model.skill.ToolSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Binds each tool to the code that answers it, first match wins: {@code handler}; {@code
 * source_file}; a top-level script in {@code scripts/} whose normalised stem equals the tool's
 * normalised name; the only script when {@code scripts/} holds exactly one; else unbound.
 *
 * <p>A script is a regular, non-hidden file directly in {@code scripts/} with one of the extensions
 * in {@link #SCRIPT_EXTENSIONS} (interpreted or shell languages a script runner can start). A stem
 * is the file name without its last extension, lower-cased, {@code -} replaced by {@code _}; tool
 * names are normalised the same way before comparing. When two scripts share a stem the first by
 * file name wins.
 */
final class ToolBinder {
  /** File extensions (lower case, no dot) that make a file in {@code scripts/} a script. */
  static final Set<String> SCRIPT_EXTENSIONS =
      Set.of(
          "py", "sh", "bash", "zsh", "js", "mjs", "cjs", "ts", "ps1", "bat", "cmd", "rb", "pl",
          "lua");

  private static final Pattern TOOL_NAME = Pattern.compile(ToolsFileReader.NAME_RULE);

  private final SiblingContext ctx;
  private final SiblingPaths paths;
  private List<Path> scripts;

  ToolBinder(SiblingContext ctx, SiblingPaths paths) {
    this.ctx = ctx;
    this.paths = paths;
  }

  /** Binds declared tools; the result keeps their order. */
  List<DeclaredTool> bind(List<DeclaredTool> declared) {
    List<DeclaredTool> out = new ArrayList<>(declared.size());
    for (DeclaredTool tool : declared) {
      ToolBinding binding = binding(tool);
      out.add(tool.withSpec(tool.spec().toBuilder().binding(binding).build()));
    }
    return out;
  }

  /** For a skill without a tools file: one tool per script, named after its stem. */
  List<DeclaredTool> scriptOnly() {
    List<DeclaredTool> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Path script : scripts()) {
      String name = stem(script);
      if (!TOOL_NAME.matcher(name).matches()) {
        ctx.diagnostics()
            .report(
                DiagnosticCode.TOOL_NAME_INVALID,
                "Script '"
                    + paths.relative(script)
                    + "' gives the unusable tool name '"
                    + name
                    + "'; it is not offered as a tool.",
                script,
                YamlLocation.UNKNOWN,
                "Rename the script to letters, digits, '_' or '-'.");
        continue;
      }
      if (!names.add(name)) {
        ctx.diagnostics()
            .report(
                DiagnosticCode.TOOL_DUPLICATE_NAME,
                "Script '"
                    + paths.relative(script)
                    + "' gives tool name '"
                    + name
                    + "' a second time; it is not offered as a tool.",
                script,
                YamlLocation.UNKNOWN,
                null);
        continue;
      }
      ToolSpec spec =
          ToolSpec.builder(name, ToolSpec.defaultInputSchema())
              .description(SiblingFiles.defaultDescription(ctx))
              .binding(new ToolBinding.Script(script, ToolBinding.ScriptSource.SCRIPT_ONLY))
              .build();
      out.add(new DeclaredTool(spec, null, null, script, Place.NONE));
    }
    return out;
  }

  private ToolBinding binding(DeclaredTool tool) {
    String name = tool.spec().name();
    if (tool.handler() != null) {
      // Where it is written, so a handler no one registers is reported at its line; the line is
      // found only then, since finding one reads the positions of the whole tools file.
      return ToolBinding.Handler.locatedLater(
          tool.handler(), tool.file(), tool.place().child("handler").lineLater());
    }
    if (tool.sourceFile() != null) {
      Optional<Path> source =
          paths.resolve(
              paths.skillDir(),
              tool.sourceFile(),
              "source_file of tool '" + name + "'",
              tool.file(),
              tool.sourceAt(),
              DiagnosticCode.TOOL_SOURCE_MISSING);
      if (source.isPresent() && Files.isRegularFile(source.get())) {
        return new ToolBinding.Script(source.get(), ToolBinding.ScriptSource.SOURCE_FILE);
      }
      if (source.isPresent()) {
        ctx.diagnostics()
            .report(
                DiagnosticCode.TOOL_SOURCE_MISSING,
                "The source_file of tool '" + name + "' is not a regular file.",
                tool.file(),
                tool.sourceAt(),
                null);
      }
      return new ToolBinding.Unbound();
    }
    String wanted = normalise(name);
    for (Path script : scripts()) {
      if (stem(script).equals(wanted)) {
        return new ToolBinding.Script(script, ToolBinding.ScriptSource.STEM);
      }
    }
    if (scripts().size() == 1) {
      return new ToolBinding.Script(scripts().get(0), ToolBinding.ScriptSource.SINGLE_SCRIPT);
    }
    ctx.diagnostics()
        .report(
            DiagnosticCode.TOOL_UNBOUND,
            "Tool '" + name + "' has no handler, source_file or matching script in scripts/.",
            tool.file(),
            tool.at(),
            "Add 'source_file:' or a script named scripts/" + wanted + ".py (or .sh, .js, …).");
    return new ToolBinding.Unbound();
  }

  /** The top-level scripts of {@code scripts/}, sorted by file name, confined to the skill. */
  List<Path> scripts() {
    if (scripts == null) {
      scripts = scan();
    }
    return scripts;
  }

  private List<Path> scan() {
    Path dir = paths.skillDir().resolve("scripts");
    BasicFileAttributes own = SiblingPaths.ownAttributes(dir);
    if (own == null || !(own.isSymbolicLink() ? Files.isDirectory(dir) : own.isDirectory())) {
      return List.of();
    }
    if (!paths.confined(dir, own)) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.SIBLING_ESCAPES,
              "The scripts folder is a symbolic link to outside the skill directory; its scripts"
                  + " are not used.",
              dir,
              YamlLocation.UNKNOWN,
              "Keep scripts inside the skill folder.");
      return List.of();
    }
    // java.io's listing: four system calls fewer than a DirectoryStream, for a folder every skill
    // with scripts has.
    String[] names = dir.toFile().list();
    if (names == null) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.SIBLING_UNREADABLE,
              "Could not list scripts/.",
              dir,
              YamlLocation.UNKNOWN,
              null);
      return List.of();
    }
    TreeMap<String, Path> found = new TreeMap<>();
    for (String file : names) {
      if (file.startsWith(".") || !SCRIPT_EXTENSIONS.contains(extension(file))) {
        continue;
      }
      Path p = dir.resolve(file);
      BasicFileAttributes attributes = SiblingPaths.ownAttributes(p);
      if (attributes == null) {
        continue;
      }
      if (!attributes.isSymbolicLink()) {
        // Not a link, in a folder whose real path is inside the skill: so is the script's.
        if (attributes.isRegularFile()) {
          found.put(file, p);
        }
      } else if (!paths.confined(p, attributes)) {
        ctx.diagnostics()
            .report(
                DiagnosticCode.SIBLING_ESCAPES,
                "Script '"
                    + paths.relative(p)
                    + "' is a symbolic link to outside the skill directory; it is not used.",
                p,
                YamlLocation.UNKNOWN,
                "Copy the script into the skill folder instead of linking to it.");
      } else if (Files.isRegularFile(p)) {
        found.put(file, p);
      }
    }
    return List.copyOf(found.values());
  }

  private static String extension(String file) {
    int dot = file.lastIndexOf('.');
    return dot <= 0 ? "" : file.substring(dot + 1).toLowerCase(Locale.ROOT);
  }

  /** A script's stem: file name without its last extension, normalised. */
  static String stem(Path script) {
    String file = script.getFileName().toString();
    int dot = file.lastIndexOf('.');
    return normalise(dot <= 0 ? file : file.substring(0, dot));
  }

  private static String normalise(String s) {
    return s.toLowerCase(Locale.ROOT).replace('-', '_');
  }
}

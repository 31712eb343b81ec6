package dev.skillport.benchmarks.loader;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Writes a tree of valid, realistic skill packages: each skill has a SKILL.md with {@code
 * metadata.dcc-mcp} extensions, a {@code tools.yaml} with five tools, a {@code groups.yaml} with
 * one group and a {@code scripts/} folder with one script. Skills are spread over pack folders
 * ({@code pack-000/…}) so discovery has folders to walk.
 *
 * <p>The output depends only on the seed and the skill's index: the same seed always writes the
 * same bytes, and the first {@code n} skills of a larger tree equal an {@code n}-skill tree.
 */
public final class SkillTreeGenerator {
  /** Skills per pack folder unless told otherwise. */
  public static final int DEFAULT_SKILLS_PER_FOLDER = 100;

  /** Tools each generated skill declares. */
  public static final int TOOLS_PER_SKILL = 5;

  private static final String[] DCCS = {
    "maya", "houdini", "blender", "nuke", "unreal", "photoshop", "substance", "python"
  };
  private static final String[] NOUNS = {
    "mesh", "material", "camera", "light", "scene", "texture", "rig", "animation", "shader",
    "asset", "layer", "node", "curve", "uv", "cache", "playblast", "selection", "keyframe",
    "render", "shot"
  };
  private static final String[] AREAS = {
    "toolkit", "cleanup", "pipeline", "review", "batch", "publish", "qa", "export", "layout"
  };
  private static final String[] VERBS = {
    "create",
    "list",
    "delete",
    "export",
    "import",
    "inspect",
    "rename",
    "bake",
    "validate",
    "assign",
    "cleanup",
    "publish",
    "sync",
    "preview",
    "duplicate"
  };
  private static final String[] LICENSES = {"MIT", "Apache-2.0", "BSD-3-Clause"};

  private final long seed;
  private final int skillsPerFolder;

  /**
   * @param seed decides every name, description and schema written
   * @param skillsPerFolder how many skills share one pack folder
   */
  public SkillTreeGenerator(long seed, int skillsPerFolder) {
    if (skillsPerFolder < 1) {
      throw new IllegalArgumentException("skillsPerFolder must be >= 1");
    }
    this.seed = seed;
    this.skillsPerFolder = skillsPerFolder;
  }

  /** A generator with {@link #DEFAULT_SKILLS_PER_FOLDER} skills per pack folder. */
  public static SkillTreeGenerator seeded(long seed) {
    return new SkillTreeGenerator(seed, DEFAULT_SKILLS_PER_FOLDER);
  }

  /**
   * Writes {@code count} skills below {@code root} (created when missing).
   *
   * @return the root and the skill names written
   */
  public GeneratedTree write(Path root, int count) throws IOException {
    Objects.requireNonNull(root, "root");
    if (count < 0) {
      throw new IllegalArgumentException("count must be >= 0");
    }
    Files.createDirectories(root);
    List<String> names = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      Path pack = root.resolve(String.format(Locale.ROOT, "pack-%03d", i / skillsPerFolder));
      names.add(writeSkill(pack, i));
    }
    return new GeneratedTree(root, names);
  }

  private String writeSkill(Path pack, int index) throws IOException {
    // One stream per skill, so a skill's content does not depend on how many came before it.
    SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index);
    String dcc = pick(random, DCCS);
    String noun = pick(random, NOUNS);
    String area = pick(random, AREAS);
    String name = String.format(Locale.ROOT, "%s-%s-%s-%05d", dcc, noun, area, index);
    List<ToolPlan> tools = planTools(random, noun);
    int groupedTool = random.nextInt(TOOLS_PER_SKILL);
    String group = noun.replace('-', '_') + "_advanced";

    Path dir = pack.resolve(name);
    Files.createDirectories(dir.resolve("scripts"));
    write(dir.resolve("SKILL.md"), skillMd(random, name, dcc, noun, area, tools));
    write(dir.resolve("tools.yaml"), toolsYaml(random, tools, groupedTool, group));
    write(dir.resolve("groups.yaml"), groupsYaml(noun, group, tools.get(groupedTool).name()));
    // Named after the first tool: that tool binds by stem, the others as the skill's only script.
    write(dir.resolve("scripts").resolve(tools.get(0).name() + ".py"), script(name, tools));
    return name;
  }

  private static List<ToolPlan> planTools(SplittableRandom random, String skillNoun) {
    LinkedHashSet<String> names = new LinkedHashSet<>();
    List<ToolPlan> plans = new ArrayList<>();
    while (plans.size() < TOOLS_PER_SKILL) {
      String verb = pick(random, VERBS);
      String noun = random.nextInt(3) == 0 ? pick(random, NOUNS) : skillNoun;
      String name = verb + "_" + noun;
      if (names.add(name)) {
        plans.add(new ToolPlan(name, verb, noun));
      }
    }
    return plans;
  }

  private static String skillMd(
      SplittableRandom random,
      String name,
      String dcc,
      String noun,
      String area,
      List<ToolPlan> tools) {
    String description =
        String.format(
            Locale.ROOT,
            "%s %s %s for %s: %s, %s and %s %s items from an agent. Use it when a task needs"
                + " to %s or %s %s items in the open %s scene.",
            capitalize(dcc),
            noun,
            area,
            dcc,
            tools.get(0).verb(),
            tools.get(1).verb(),
            tools.get(2).verb(),
            noun,
            tools.get(3).verb(),
            tools.get(4).verb(),
            noun,
            dcc);
    StringBuilder md = new StringBuilder(2048);
    md.append("---\n");
    md.append("name: ").append(name).append('\n');
    md.append("description: ").append(quoted(description)).append('\n');
    md.append("license: ").append(pick(random, LICENSES)).append('\n');
    md.append("metadata:\n");
    md.append("  author: ").append(quoted(capitalize(area) + " team")).append('\n');
    md.append("  dcc-mcp:\n");
    md.append("    dcc: ").append(dcc).append('\n');
    md.append("    version: ")
        .append(
            quoted(
                String.format(
                    Locale.ROOT,
                    "%d.%d.%d",
                    1 + random.nextInt(3),
                    random.nextInt(10),
                    random.nextInt(20))))
        .append('\n');
    md.append("    tags: [").append(dcc).append(", ").append(noun).append(", ").append(area);
    md.append("]\n");
    md.append("    search-hint: ")
        .append(quoted(noun + " " + area + " " + dcc + " " + tools.get(0).verb()))
        .append('\n');
    md.append("    tools: tools.yaml\n");
    md.append("    groups: groups.yaml\n");
    md.append("---\n");
    md.append("# ").append(capitalize(dcc)).append(' ').append(noun).append(' ').append(area);
    md.append("\n\n");
    md.append("This skill gives an agent direct control over ")
        .append(noun)
        .append(" work in ")
        .append(capitalize(dcc))
        .append(". Every tool acts on the current scene and reports what it changed, so the")
        .append(" agent can check the result before it moves on.\n\n");
    md.append("## Tools\n\n");
    for (ToolPlan tool : tools) {
      md.append("- `")
          .append(tool.name())
          .append("`: ")
          .append(capitalize(tool.verb()))
          .append(" the selected ")
          .append(tool.noun())
          .append(" items.\n");
    }
    md.append("\n## How to use it\n\n");
    md.append("1. Call `")
        .append(tools.get(1).name())
        .append("` first to see what the scene holds.\n");
    md.append("2. Call `")
        .append(tools.get(0).name())
        .append("` with `dry_run: true` to preview the change.\n");
    md.append("3. Run it again without `dry_run` once the preview looks right.\n\n");
    md.append("Advanced tools are in a group that is off by default; activate it only when the")
        .append(" basic tools cannot do the job.\n");
    return md.toString();
  }

  private static String toolsYaml(
      SplittableRandom random, List<ToolPlan> tools, int groupedTool, String group) {
    StringBuilder yaml = new StringBuilder(4096);
    yaml.append("tools:\n");
    for (int t = 0; t < tools.size(); t++) {
      ToolPlan tool = tools.get(t);
      boolean readOnly = isReadOnly(tool.verb());
      yaml.append("  - name: ").append(tool.name()).append('\n');
      yaml.append("    description: ")
          .append(
              quoted(
                  capitalize(tool.verb())
                      + " "
                      + tool.noun()
                      + " items in the current scene and return a summary of what was"
                      + (readOnly ? " found." : " changed.")))
          .append('\n');
      yaml.append("    input_schema:\n");
      yaml.append("      type: object\n");
      yaml.append("      properties:\n");
      yaml.append("        target:\n");
      yaml.append("          type: string\n");
      yaml.append("          minLength: 1\n");
      yaml.append("          description: ")
          .append(quoted("Name or path of the " + tool.noun() + " to work on."))
          .append('\n');
      int extra = 1 + random.nextInt(3);
      int first = random.nextInt(PROPERTIES.length);
      for (int p = 0; p < extra; p++) {
        yaml.append(PROPERTIES[(first + p) % PROPERTIES.length]);
      }
      yaml.append("        dry_run:\n");
      yaml.append("          type: boolean\n");
      yaml.append("          default: false\n");
      yaml.append("      required: [target]\n");
      yaml.append("      additionalProperties: false\n");
      yaml.append("    annotations:\n");
      yaml.append("      title: ")
          .append(quoted(capitalize(tool.verb()) + " " + tool.noun()))
          .append('\n');
      yaml.append("      read_only_hint: ").append(readOnly).append('\n');
      yaml.append("      destructive_hint: ")
          .append(tool.verb().equals("delete") || tool.verb().equals("cleanup"))
          .append('\n');
      yaml.append("      idempotent_hint: ").append(readOnly).append('\n');
      yaml.append("      open_world_hint: false\n");
      if (t == groupedTool) {
        yaml.append("    group: ").append(group).append('\n');
      }
      if (t == TOOLS_PER_SKILL - 1) {
        yaml.append("    execution: async\n");
        yaml.append("    timeout_hint_secs: ").append(30 + random.nextInt(300)).append('\n');
      }
    }
    return yaml.toString();
  }

  /** Extra input properties, each already indented to sit under {@code properties:}. */
  private static final String[] PROPERTIES = {
    "        count:\n"
        + "          type: integer\n"
        + "          minimum: 1\n"
        + "          maximum: 1000\n"
        + "          default: 1\n"
        + "          description: \"How many items to process at most.\"\n",
    "        mode:\n"
        + "          type: string\n"
        + "          enum: [fast, balanced, exact]\n"
        + "          default: balanced\n"
        + "          description: \"Trade speed for accuracy.\"\n",
    "        frame_range:\n"
        + "          type: array\n"
        + "          items: {type: integer}\n"
        + "          minItems: 2\n"
        + "          maxItems: 2\n"
        + "          description: \"First and last frame, inclusive.\"\n",
    "        tolerance:\n"
        + "          type: number\n"
        + "          exclusiveMinimum: 0\n"
        + "          default: 0.001\n"
        + "          description: \"Distance under which two points count as equal.\"\n",
    "        output_path:\n"
        + "          type: string\n"
        + "          pattern: \"^[A-Za-z0-9_./-]+$\"\n"
        + "          description: \"Where to write the result, relative to the project.\"\n",
    "        options:\n"
        + "          type: object\n"
        + "          additionalProperties: {type: string}\n"
        + "          description: \"Extra host-specific flags passed through unchanged.\"\n",
  };

  private static String groupsYaml(String noun, String group, String member) {
    return "groups:\n"
        + "  - name: "
        + group
        + "\n"
        + "    description: "
        + quoted("Advanced " + noun + " operations; activate when the basic tools fall short.")
        + "\n"
        + "    tools: ["
        + member
        + "]\n"
        + "    default-active: false\n";
  }

  private static String script(String skillName, List<ToolPlan> tools) {
    StringBuilder py = new StringBuilder(1024);
    py.append("\"\"\"Entry point for the ").append(skillName).append(" tools.\"\"\"\n\n");
    py.append("import json\nimport sys\n\n\n");
    py.append("def main() -> int:\n");
    py.append("    request = json.load(sys.stdin)\n");
    py.append("    tool = request.get(\"tool\", \"").append(tools.get(0).name()).append("\")\n");
    py.append("    args = request.get(\"arguments\", {})\n");
    py.append("    result = {\"tool\": tool, \"target\": args.get(\"target\"),");
    py.append(" \"dry_run\": args.get(\"dry_run\", False), \"changed\": 0}\n");
    py.append("    json.dump(result, sys.stdout)\n");
    py.append("    return 0\n\n\n");
    py.append("if __name__ == \"__main__\":\n");
    py.append("    sys.exit(main())\n");
    return py.toString();
  }

  private static boolean isReadOnly(String verb) {
    return switch (verb) {
      case "list", "inspect", "validate", "preview" -> true;
      default -> false;
    };
  }

  private static String pick(SplittableRandom random, String[] values) {
    return values[random.nextInt(values.length)];
  }

  private static String capitalize(String word) {
    return Character.toUpperCase(word.charAt(0)) + word.substring(1);
  }

  /** A YAML double-quoted scalar. */
  private static String quoted(String text) {
    return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  private static void write(Path file, String content) throws IOException {
    Files.writeString(file, content, StandardCharsets.UTF_8);
  }

  private record ToolPlan(String name, String verb, String noun) {}
}

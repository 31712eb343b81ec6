package dev.skillport.loader.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a skill folder for a test.
 *
 * <pre>{@code
 * Path dir = SkillFolder.named("mesh-tools")
 *     .description("Mesh editing")
 *     .dccMcp("tools: tools.yaml")
 *     .file("tools.yaml", "tools: [{name: bevel}]")
 *     .writeTo(root);
 * }</pre>
 *
 * The frontmatter is assembled from the values set ({@code name} defaults to the folder name, a
 * description is set unless {@link #noDescription()}), or replaced whole with {@link
 * #frontmatter(String)}; {@link #skillMd(String)} replaces the whole SKILL.md text.
 */
public final class SkillFolder {
  private final String folderName;
  private String name;
  private boolean writeName = true;
  private String description;
  private final List<String> extraLines = new ArrayList<>();
  private final List<String> dccMcpLines = new ArrayList<>();
  private String frontmatter;
  private String body = "# Instructions\n\nUse it well.\n";
  private String skillMd;
  private String fileName = "SKILL.md";
  private final Map<String, byte[]> files = new LinkedHashMap<>();

  private SkillFolder(String folderName) {
    this.folderName = folderName;
    this.name = folderName;
    this.description = "The " + folderName + " skill.";
  }

  /** A skill in a folder called {@code folderName}, with the same skill name. */
  public static SkillFolder named(String folderName) {
    return new SkillFolder(folderName);
  }

  /** The {@code name:} written in the frontmatter (the folder name stays). */
  public SkillFolder name(String value) {
    this.name = value;
    return this;
  }

  /** Writes no {@code name:} key. */
  public SkillFolder noName() {
    this.writeName = false;
    return this;
  }

  public SkillFolder description(String value) {
    this.description = value;
    return this;
  }

  public SkillFolder noDescription() {
    this.description = null;
    return this;
  }

  /** Adds raw top-level frontmatter lines, e.g. {@code "license: MIT"}. */
  public SkillFolder frontmatterLine(String yamlLine) {
    extraLines.add(yamlLine);
    return this;
  }

  /** Adds a line under {@code metadata: dcc-mcp:}, e.g. {@code "tools: tools.yaml"}. */
  public SkillFolder dccMcp(String yamlLine) {
    dccMcpLines.add(yamlLine);
    return this;
  }

  /** Declares dependencies as a {@code depends} list under {@code metadata.dcc-mcp}. */
  public SkillFolder depends(String... names) {
    return dccMcp("depends: [" + String.join(", ", names) + "]");
  }

  /** Replaces the generated frontmatter (the text between the fences). */
  public SkillFolder frontmatter(String yaml) {
    this.frontmatter = yaml;
    return this;
  }

  public SkillFolder body(String value) {
    this.body = value;
    return this;
  }

  /** Replaces the whole SKILL.md text. */
  public SkillFolder skillMd(String text) {
    this.skillMd = text;
    return this;
  }

  /** Names the skill file {@code skill.md}. */
  public SkillFolder lowercaseFileName() {
    this.fileName = "skill.md";
    return this;
  }

  /** Adds a file relative to the skill folder (parent folders are created). */
  public SkillFolder file(String relativePath, String text) {
    files.put(relativePath, text.getBytes(StandardCharsets.UTF_8));
    return this;
  }

  public SkillFolder file(String relativePath, byte[] bytes) {
    files.put(relativePath, bytes.clone());
    return this;
  }

  /** The SKILL.md text this builder writes. */
  public String skillMdText() {
    if (skillMd != null) {
      return skillMd;
    }
    return "---\n" + frontmatterText() + "---\n" + body;
  }

  private String frontmatterText() {
    if (frontmatter != null) {
      return frontmatter.endsWith("\n") ? frontmatter : frontmatter + "\n";
    }
    StringBuilder sb = new StringBuilder();
    if (writeName) {
      sb.append("name: ").append(name).append('\n');
    }
    if (description != null) {
      sb.append("description: ").append(quote(description)).append('\n');
    }
    for (String line : extraLines) {
      sb.append(line).append('\n');
    }
    if (!dccMcpLines.isEmpty()) {
      sb.append("metadata:\n  dcc-mcp:\n");
      for (String line : dccMcpLines) {
        sb.append("    ").append(line).append('\n');
      }
    }
    return sb.toString();
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }

  /** Writes the folder as {@code parent/<folderName>} and returns its path. */
  public Path writeTo(Path parent) {
    try {
      Path dir = parent.resolve(folderName);
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(fileName), skillMdText(), StandardCharsets.UTF_8);
      for (Map.Entry<String, byte[]> e : files.entrySet()) {
        Path file = dir.resolve(e.getKey());
        Files.createDirectories(file.getParent());
        Files.write(file, e.getValue());
      }
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

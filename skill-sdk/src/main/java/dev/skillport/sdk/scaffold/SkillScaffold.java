package dev.skillport.sdk.scaffold;

import dev.skillport.model.skill.SkillNames;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Objects;

/**
 * Creates a new skill folder: {@code SKILL.md} whose {@code metadata.dcc-mcp.tools} points at
 * {@code tools.yaml}, one tool entry there, and {@code scripts/hello.py}, which reads its arguments
 * as JSON on stdin and prints one JSON object. The result loads with zero diagnostics, strict or
 * not, so an author starts from a clean report.
 */
public final class SkillScaffold {
  /** The tool the scaffold declares. */
  public static final String TOOL_NAME = "hello";

  /** The files written, relative to the skill folder, in writing order. */
  public static final List<String> FILES =
      List.of("SKILL.md", "tools.yaml", "scripts/" + TOOL_NAME + ".py");

  private SkillScaffold() {}

  /** Whether {@code name} follows the skill name rule the loader applies. */
  public static boolean isValidName(String name) {
    return SkillNames.isValid(name);
  }

  /** Why {@code name} is refused, for messages; the loader's own wording. */
  public static String nameRule() {
    return SkillNames.rule();
  }

  /**
   * Writes the skill {@code name} into {@code parent/name} (creating {@code parent} when missing).
   *
   * @return the new skill folder
   * @throws IllegalArgumentException when {@code name} breaks the skill name rule
   * @throws FileAlreadyExistsException when {@code parent/name} exists already (nothing written)
   * @throws IOException when a file cannot be written
   */
  public static Path create(Path parent, String name) throws IOException {
    Objects.requireNonNull(parent, "parent");
    if (!isValidName(name)) {
      throw new IllegalArgumentException("invalid skill name '" + name + "': use " + nameRule());
    }
    Path dir = parent.resolve(name);
    if (Files.exists(dir)) {
      throw new FileAlreadyExistsException(dir.toString(), null, "the folder exists already");
    }
    Files.createDirectories(parent);
    Files.createDirectory(dir);
    Files.createDirectory(dir.resolve("scripts"));
    Files.writeString(dir.resolve("SKILL.md"), skillMd(name));
    Files.writeString(dir.resolve("tools.yaml"), toolsYaml());
    Path script = dir.resolve("scripts/" + TOOL_NAME + ".py");
    Files.writeString(script, SCRIPT);
    makeExecutable(script);
    return dir;
  }

  private static String skillMd(String name) {
    return """
        ---
        name: %1$s
        description: >-
          Greets someone by name. Replace this with what %1$s does and when an agent should use
          it: agents choose skills by this text.
        metadata:
          dcc-mcp:
            tools: tools.yaml
        ---
        # %1$s

        Instructions for the agent go here: when to call each tool and what to do with its result.

        - `%2$s` greets someone by name (a starting point: edit `tools.yaml` and
          `scripts/%2$s.py`).
        """
        .formatted(name, TOOL_NAME);
  }

  private static String toolsYaml() {
    return """
        tools:
          - name: %1$s
            description: Greet someone by name.
            source_file: scripts/%1$s.py
            input_schema:
              type: object
              properties:
                name:
                  type: string
                  description: Who to greet.
              additionalProperties: false
            annotations:
              read_only_hint: true
        """
        .formatted(TOOL_NAME);
  }

  private static final String SCRIPT =
      """
      #!/usr/bin/env python3
      \"\"\"Greets someone. Reads a JSON object of arguments on stdin, prints one JSON object.\"\"\"
      import json
      import sys


      def main():
          text = sys.stdin.read().strip()
          args = json.loads(text) if text else {}
          name = args.get("name") or "world"
          print(json.dumps({"success": True, "message": "Hello, " + name + "!"}))


      if __name__ == "__main__":
          main()
      """;

  private static void makeExecutable(Path script) throws IOException {
    if (Files.getFileStore(script).supportsFileAttributeView("posix")) {
      Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }
}

package dev.skillport.server.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WireJsonRuleTest {
  /** The project root: this module's parent folder. */
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  @Test
  void project_rendersToolWireJsonOnlyInTheServer() {
    assertThat(Files.isDirectory(ROOT.resolve("runtime/src/main/java"))).isTrue();

    assertThat(WireJsonRule.findings(ROOT)).isEmpty();
  }

  @Test
  void plantedViolations_areEachReported(@TempDir Path root) throws Exception {
    write(
        root, "runtime/src/main/java/x/ReadsTheWire.java", "if (r.path(\"isError\").asBoolean())");
    write(root, "registry/src/main/java/x/WritesATool.java", "wire.set(\"inputSchema\", schema);");
    write(root, "workflows/src/main/java/x/Pages.java", "out.put(\"nextCursor\", c);");
    write(root, "server/src/main/java/x/Renders.java", "wire.put(\"isError\", true);");
    write(root, "runtime/src/test/java/x/TestReads.java", "r.path(\"structuredContent\")");
    write(root, "skill-loader/src/main/java/x/Alias.java", "aliased(entry, \"inputSchema\")");

    assertThat(WireJsonRule.findings(root))
        .hasSize(3)
        .anyMatch(f -> f.startsWith("runtime/src/main/java/x/ReadsTheWire.java:1:"))
        .anyMatch(f -> f.startsWith("registry/src/main/java/x/WritesATool.java:1:"))
        .anyMatch(f -> f.startsWith("workflows/src/main/java/x/Pages.java:1:"));
  }

  private static void write(Path root, String path, String line) throws Exception {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, "class X { void f() { " + line + " } }\n");
  }
}

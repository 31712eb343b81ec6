package dev.skillport.server.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A call's result travels once, typed (decision 0046): no main code reaches a process-wide
 * redactor, reads a rendered result's {@code isError} back, or rebuilds a job's result from JSON.
 */
class TypedResultRuleTest {
  /** The project root: this module's parent folder. */
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  private static final Pattern FORBIDDEN =
      Pattern.compile("Redactor\\.shared|readTree.*isError|jobResult\\(JsonNode");

  @Test
  void project_keepsResultsTypedAndTheRedactorComposed() {
    assertThat(Files.isDirectory(ROOT.resolve("runtime/src/main/java"))).isTrue();

    assertThat(findings(ROOT)).isEmpty();
  }

  @Test
  void plantedViolations_areEachReported(@TempDir Path root) throws Exception {
    write(root, "server/src/main/java/x/Global.java", "Redactor.shared().text(t);");
    write(root, "server/src/main/java/x/ReadBack.java", "JSON.readTree(s).path(\"isError\");");
    write(
        root, "server/src/main/java/x/Rebuild.java", "static ToolResult jobResult(JsonNode w) {}");
    write(root, "server/src/test/java/x/InATest.java", "Redactor.shared();");

    assertThat(findings(root))
        .hasSize(3)
        .anyMatch(f -> f.startsWith("server/src/main/java/x/Global.java:1:"))
        .anyMatch(f -> f.startsWith("server/src/main/java/x/ReadBack.java:1:"))
        .anyMatch(f -> f.startsWith("server/src/main/java/x/Rebuild.java:1:"));
  }

  private static List<String> findings(Path root) {
    List<String> out = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      files
          .filter(p -> p.toString().endsWith(".java"))
          .filter(p -> isMainSource(root.relativize(p).toString().replace('\\', '/')))
          .sorted()
          .forEach(p -> scan(root, p, out));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static boolean isMainSource(String path) {
    return path.contains("/src/main/java/")
        && !path.contains("/target/")
        && !path.contains("node_modules/");
  }

  private static void scan(Path root, Path file, List<String> out) {
    try {
      List<String> lines = Files.readAllLines(file);
      for (int i = 0; i < lines.size(); i++) {
        if (FORBIDDEN.matcher(lines.get(i)).find()) {
          out.add(root.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).strip());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(Path root, String path, String line) throws Exception {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, "class X { void f() { " + line + " } }\n");
  }
}

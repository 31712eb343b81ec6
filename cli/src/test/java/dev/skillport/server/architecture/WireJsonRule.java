package dev.skillport.server.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * MCP tool wire JSON is rendered only in {@code server} (and read by the protocol module and the
 * benchmark clients): no other module's main code names a field that exists only on the wire
 * ({@code isError}, {@code structuredContent}, {@code nextCursor}) or writes a tool's {@code
 * inputSchema}/{@code outputSchema} field. Read from source, since compiled classes keep string
 * constants where no class-file rule can see them.
 */
final class WireJsonRule {
  /**
   * Modules allowed to speak the wire: the surface, the protocol, the load clients, the bridges (a
   * client of the servers they mount, which reads what those rendered) and the gateway (a client of
   * its instances, which renders its own tools' results and hands theirs back).
   */
  static final Set<String> ALLOWED = Set.of("server", "mcp", "benchmarks", "bridge", "gateway");

  /**
   * Single files allowed the same: {@code skillport call --url} is a client, which can only learn
   * the outcome from the result a server rendered; the page's MCP App is a tool of its own, whose
   * entry and result it renders.
   */
  static final Set<String> ALLOWED_FILES =
      Set.of(
          "cli/src/main/java/dev/skillport/cli/CallCommand.java",
          "web/src/main/java/dev/skillport/web/CatalogApp.java");

  private static final Pattern WIRE =
      Pattern.compile(
          "\"(isError|structuredContent|nextCursor)\""
              + "|\\.(set|put|putObject|putArray|replace)\\(\\s*\"(inputSchema|outputSchema)\"");

  private WireJsonRule() {}

  /** Each {@code path:line: text} under {@code root} that breaks the rule. */
  static List<String> findings(Path root) {
    List<String> out = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      files
          .filter(p -> p.toString().endsWith(".java"))
          .filter(p -> isMainSource(root.relativize(p)))
          .sorted()
          .forEach(p -> scan(root, p, out));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static boolean isMainSource(Path relative) {
    String path = relative.toString().replace('\\', '/');
    int main = path.indexOf("/src/main/java/");
    if (main < 0 || path.contains("/target/") || path.contains("node_modules/")) {
      return false;
    }
    return !ALLOWED.contains(path.substring(0, main)) && !ALLOWED_FILES.contains(path);
  }

  private static void scan(Path root, Path file, List<String> out) {
    try {
      List<String> lines = Files.readAllLines(file);
      for (int i = 0; i < lines.size(); i++) {
        if (WIRE.matcher(lines.get(i)).find()) {
          out.add(root.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).strip());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

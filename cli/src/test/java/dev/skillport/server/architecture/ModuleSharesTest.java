package dev.skillport.server.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each module's share of the product main code, as {@code docs/architecture.md} defines it: no
 * module holds more than a quarter, and {@code server} (the MCP surface and the composition) less
 * than 15%. Computed from the sources at every build, so a module cannot grow past its bound
 * unnoticed.
 */
class ModuleSharesTest {
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  /**
   * Modules whose main code is not product code: tests' support, measurements, samples, upstream.
   */
  static final Set<String> NOT_PRODUCT =
      Set.of(
          "test-support",
          "benchmarks",
          "samples",
          "samples/adapter-python-host",
          "third-party/picocli");

  @Test
  void shares_largestModuleUnderAQuarter_serverUnder15Percent() {
    Map<String, Long> lines = productLines();
    long total = lines.values().stream().mapToLong(Long::longValue).sum();
    assertThat(total).isPositive();
    Map<String, Double> shares = new LinkedHashMap<>();
    lines.forEach((module, n) -> shares.put(module, 100.0 * n / total));
    assertThat(shares.get("server"))
        .as("server's share of product main code (%%), of %s lines: %s", total, shares)
        .isLessThan(15.0);
    assertThat(shares)
        .as("each module's share of product main code (%%), of %s lines", total)
        .allSatisfy((module, share) -> assertThat(share).as(module).isLessThanOrEqualTo(25.0));
  }

  @Test
  void architectureDoc_definesProductMainCodeAsThisTestCountsIt() throws IOException {
    String doc = Files.readString(ROOT.resolve("docs/architecture.md"));
    Matcher definition =
        Pattern.compile("\\*\\*Product main code\\*\\*([^\\n]+(\\n[^\\n]+)*)").matcher(doc);
    assertThat(definition.find())
        .as("docs/architecture.md defines **Product main code** in one paragraph")
        .isTrue();
    // The definition is the paragraph's first sentence; the rest names the bounds and this test.
    String sentence = definition.group(1).split("\\.(\\s|$)", 2)[0];
    Set<String> excluded = new TreeSet<>();
    Matcher name = Pattern.compile("`([^`]+)`").matcher(sentence);
    while (name.find()) {
      if (modules().contains(name.group(1))) {
        excluded.add(name.group(1));
      }
    }
    assertThat(excluded).isEqualTo(new TreeSet<>(NOT_PRODUCT));
  }

  /** Lines of Java under each product module's {@code src/main/java}, in the root pom's order. */
  static Map<String, Long> productLines() {
    Map<String, Long> out = new LinkedHashMap<>();
    for (String module : modules()) {
      if (NOT_PRODUCT.contains(module)) {
        continue;
      }
      Path main = ROOT.resolve(module).resolve("src/main/java");
      long n = 0;
      if (Files.isDirectory(main)) {
        try (Stream<Path> files = Files.walk(main)) {
          for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
            try (Stream<String> text = Files.lines(file)) {
              n += text.count();
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      out.put(module, n);
    }
    return out;
  }

  /** The root pom's modules, in order. */
  static List<String> modules() {
    try {
      String pom = Files.readString(ROOT.resolve("pom.xml"));
      Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(pom);
      List<String> out = new java.util.ArrayList<>();
      while (m.find()) {
        out.add(m.group(1).strip());
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

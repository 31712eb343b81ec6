package dev.skillport.benchmarks.peer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * What the launched Skillport serves in the side-by-side benchmarks, written into one folder: a
 * plugin jar with the {@code bench.echo} Java handler ({@code plugins/bench-echo.jar}), the skill
 * {@code bench-echo} with one tool {@code echo}, and the skill {@code bench-wide} with N tools
 * {@code tool_0000}… of the shape the peers list (same names, descriptions and input schema).
 */
public final class BenchFixture implements AutoCloseable {
  /** The tool every call workload calls, on every server. */
  public static final String ECHO = "echo";

  private static final String SCHEMA =
      "    input_schema: {type: object, properties: {text: {type: string}}}\n";

  private final Path root;

  private BenchFixture(Path root) {
    this.root = root;
  }

  /** Writes the fixture into a new folder under {@code parent}. */
  public static BenchFixture write(Path parent, int wideTools) throws IOException {
    BenchFixture f = new BenchFixture(Files.createTempDirectory(parent, "skillport-bench"));
    f.writeSkills(wideTools);
    f.writePlugin();
    return f;
  }

  public Path root() {
    return root;
  }

  public Path skills() {
    return root.resolve("skills");
  }

  public Path plugins() {
    return root.resolve("plugins");
  }

  /** A home folder for the launched server, so it reads and writes nothing of the user's. */
  public Path home() {
    return root.resolve("home");
  }

  private void writeSkills(int wideTools) throws IOException {
    Path echo = Files.createDirectories(skills().resolve("bench-echo"));
    Files.writeString(echo.resolve("SKILL.md"), skillMd("bench-echo", "Echoes text back"));
    Files.writeString(
        echo.resolve("tools.yaml"),
        "tools:\n  - name: "
            + ECHO
            + "\n    description: Echo\n    handler: "
            + BenchEchoHandlers.ID
            + "\n"
            + SCHEMA);
    Path wide = Files.createDirectories(skills().resolve("bench-wide"));
    Files.writeString(wide.resolve("SKILL.md"), skillMd("bench-wide", "Many generated tools"));
    StringBuilder tools = new StringBuilder("tools:\n");
    for (int i = 0; i < wideTools; i++) {
      tools
          .append(String.format(Locale.ROOT, "  - name: tool_%04d%n", i))
          .append("    description: Generated tool ")
          .append(i)
          .append(" of the listing benchmark\n    handler: ")
          .append(BenchEchoHandlers.ID)
          .append('\n')
          .append(SCHEMA);
    }
    Files.writeString(wide.resolve("tools.yaml"), tools);
    Files.createDirectories(home());
  }

  private static String skillMd(String name, String description) {
    return "---\nname: "
        + name
        + "\ndescription: "
        + description
        + ", for benchmarks\nmetadata:\n  dcc-mcp:\n    tools: tools.yaml\n---\n";
  }

  /** A PF4J plugin jar holding this package's plugin classes, as a plugin author would ship. */
  private void writePlugin() throws IOException {
    Files.createDirectories(plugins());
    Manifest manifest = new Manifest();
    Attributes main = manifest.getMainAttributes();
    main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
    main.putValue("Plugin-Id", "bench-echo");
    main.putValue("Plugin-Version", "1.0.0");
    main.putValue("Plugin-Class", BenchEchoPlugin.class.getName());
    try (OutputStream file = Files.newOutputStream(plugins().resolve("bench-echo.jar"));
        JarOutputStream jar = new JarOutputStream(file, manifest)) {
      for (Class<?> c : new Class<?>[] {BenchEchoPlugin.class, BenchEchoHandlers.class}) {
        String entry = c.getName().replace('.', '/') + ".class";
        jar.putNextEntry(new JarEntry(entry));
        try (InputStream in = c.getClassLoader().getResourceAsStream(entry)) {
          if (in == null) {
            throw new IOException("class file not found: " + entry);
          }
          in.transferTo(jar);
        }
        jar.closeEntry();
      }
      jar.putNextEntry(new JarEntry("META-INF/extensions.idx"));
      jar.write(
          (BenchEchoHandlers.class.getName() + "\n")
              .getBytes(java.nio.charset.StandardCharsets.UTF_8));
      jar.closeEntry();
    }
  }

  @Override
  public void close() {
    try (Stream<Path> all = Files.walk(root)) {
      all.sorted(Comparator.reverseOrder()).forEach(BenchFixture::deleteQuietly);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

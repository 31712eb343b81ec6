package dev.skillport.plugins;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.host.HostAdapter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.pf4j.ExtensionPoint;

/**
 * Builds plugin jars in a test's temporary folder: Java sources compiled against the platform API,
 * a PF4J manifest, a hand-written {@code META-INF/extensions.idx} and any extra files.
 */
public final class PluginJars {
  private final Path work;
  private final Map<String, String> manifest = new LinkedHashMap<>();
  private final Map<String, String> sources = new LinkedHashMap<>();
  private final Map<String, byte[]> files = new LinkedHashMap<>();
  private final List<String> extensions = new ArrayList<>();

  private PluginJars(Path work) {
    this.work = work;
  }

  /** A builder whose scratch files go under {@code work}. */
  public static PluginJars in(Path work) {
    return new PluginJars(work);
  }

  /** Sets the three PF4J manifest entries; pass {@code null} to leave one out. */
  public PluginJars plugin(String id, String version, String pluginClass) {
    put("Plugin-Id", id);
    put("Plugin-Version", version);
    put("Plugin-Class", pluginClass);
    return this;
  }

  private void put(String key, String value) {
    if (value == null) {
      manifest.remove(key);
    } else {
      manifest.put(key, value);
    }
  }

  /** Adds a Java source file; {@code className} is fully qualified. */
  public PluginJars source(String className, String code) {
    sources.put(className, code);
    return this;
  }

  /** Lists a class in {@code META-INF/extensions.idx}. */
  public PluginJars extension(String className) {
    extensions.add(className);
    return this;
  }

  /** Adds a file at {@code entry} (for example {@code skills/x/SKILL.md}). */
  public PluginJars file(String entry, String text) {
    files.put(entry, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return this;
  }

  /** Adds bytes at {@code entry}. */
  public PluginJars file(String entry, byte[] bytes) {
    files.put(entry, bytes.clone());
    return this;
  }

  /** Compiles the sources and writes the jar to {@code jar}. */
  public Path writeTo(Path jar) throws IOException {
    Path classes = Files.createTempDirectory(work, "classes");
    if (!sources.isEmpty()) {
      compile(classes);
    }
    Manifest mf = new Manifest();
    mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.forEach((k, v) -> mf.getMainAttributes().putValue(k, v));
    Files.createDirectories(jar.getParent());
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream jout = new JarOutputStream(out, mf)) {
      if (!extensions.isEmpty()) {
        add(jout, "META-INF/extensions.idx", String.join("\n", extensions).getBytes());
      }
      try (Stream<Path> walk = Files.walk(classes)) {
        for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
          add(jout, classes.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
        }
      }
      for (Map.Entry<String, byte[]> e : files.entrySet()) {
        add(jout, e.getKey(), e.getValue());
      }
    }
    return jar;
  }

  private static void add(JarOutputStream jar, String name, byte[] bytes) throws IOException {
    jar.putNextEntry(new JarEntry(name));
    jar.write(bytes);
    jar.closeEntry();
  }

  private void compile(Path classes) throws IOException {
    Path src = Files.createTempDirectory(work, "src");
    List<String> args = new ArrayList<>();
    args.add("-d");
    args.add(classes.toString());
    args.add("-classpath");
    args.add(classPath());
    args.add("-proc:none");
    for (Map.Entry<String, String> e : sources.entrySet()) {
      Path file = src.resolve(e.getKey().replace('.', '/') + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, e.getValue());
      args.add(file.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StringWriter errors = new StringWriter();
    boolean ok =
        javac
            .getTask(
                errors,
                null,
                null,
                args.subList(0, 5),
                null,
                javac
                    .getStandardFileManager(null, null, null)
                    .getJavaFileObjectsFromStrings(args.subList(5, args.size())))
            .call();
    if (!ok) {
      throw new IOException("plugin sources do not compile:\n" + errors);
    }
  }

  /** The platform API, PF4J and Jackson, from wherever the test loaded them. */
  private static String classPath() {
    List<String> entries = new ArrayList<>();
    for (Class<?> c :
        List.of(
            HostAdapter.class,
            ExtensionPoint.class,
            JsonNode.class,
            JsonProcessingException.class)) {
      try {
        entries.add(
            Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
      } catch (URISyntaxException e) {
        throw new IllegalStateException(e);
      }
    }
    return String.join(java.io.File.pathSeparator, entries);
  }
}

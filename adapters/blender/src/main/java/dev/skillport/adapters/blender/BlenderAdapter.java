package dev.skillport.adapters.blender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.host.HostAdapter;
import dev.skillport.api.host.HostCall;
import dev.skillport.api.host.HostExecutor;
import dev.skillport.api.resource.LiveJsonResource;
import dev.skillport.api.resource.ResourceDescriptor;
import dev.skillport.api.resource.ResourceProvider;
import dev.skillport.api.script.PythonCompat;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.pf4j.Extension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves skills with {@code dcc: blender}: one headless Blender ({@code blender -b
 * --factory-startup}) runs for the server's lifetime, and script tools with {@code thread-affinity:
 * main} run inside it on its main thread, as {@code main(**params)} with {@code bpy} and the {@code
 * dcc_mcp_core} helpers of upstream-style scripts importable. Ships the {@code blender-scene} skill
 * and the {@code scene://current} resource.
 *
 * <p>Blender comes from the {@code executable} setting ({@code --blender PATH} or {@code
 * --adapter-setting blender.executable=PATH}), else {@value BlenderLocator#ENV}, else {@code
 * blender} on {@code PATH}, and must answer {@code -b --version} as Blender.
 */
@Extension
public class BlenderAdapter implements HostAdapter {
  /** The adapter's id, also the key of its settings ({@code blender.KEY=VALUE}). */
  public static final String ID = "blender";

  /** The setting naming the Blender executable. */
  public static final String EXECUTABLE = "executable";

  private static final Logger LOG = LoggerFactory.getLogger(BlenderAdapter.class);
  private static final Duration VERSION_CHECK = Duration.ofSeconds(30);
  private static final Duration SCENE_READ = Duration.ofSeconds(10);

  /** The scene resource's URI. */
  static final String SCENE_URI = "scene://current";

  private final Map<String, String> env;
  private final Backoff backoff;

  /**
   * {@value #SCENE_URI}: the open scene as JSON (objects with type, transform, material colour,
   * camera and light settings; the active camera; the file it was saved to), read from the running
   * Blender between calls; subscribers hear of a change after every main-thread call and after
   * Blender restarts.
   */
  private final LiveJsonResource scene =
      new LiveJsonResource(
          new ResourceDescriptor(
              SCENE_URI,
              "Current Blender scene",
              "The objects of the scene open in the Blender the server runs, with transforms,"
                  + " materials, cameras and lights",
              "application/json"),
          this::readScene);

  private volatile Map<String, String> settings = Map.of();
  private volatile BlenderHost host;
  private volatile Path workDir;
  private volatile Path importPath;

  /** The adapter as the server creates it: Blender located from the process environment. */
  public BlenderAdapter() {
    this(System.getenv(), Backoff.DEFAULT);
  }

  BlenderAdapter(Map<String, String> env, Backoff backoff) {
    this.env = Map.copyOf(env);
    this.backoff = backoff;
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public Set<String> products() {
    return Set.of("blender");
  }

  @Override
  public Set<String> capabilities() {
    return Set.of("bpy", "blender.render.cycles");
  }

  @Override
  public void configure(Map<String, String> given) {
    for (String key : given.keySet()) {
      if (!EXECUTABLE.equals(key)) {
        LOG.warn("unknown Blender adapter setting '{}' is ignored (known: {})", key, EXECUTABLE);
      }
    }
    this.settings = Map.copyOf(given);
  }

  @Override
  public void start() throws BlenderUnavailableException, IOException {
    BlenderInstall install =
        new BlenderLocator(env, VERSION_CHECK).locate(settings.get(EXECUTABLE));
    Path dir = Files.createTempDirectory("skillport-blender");
    // Upstream-style scripts import dcc_mcp_core; the package is put on their import path.
    importPath = PythonCompat.writeTo(Files.createDirectories(dir.resolve("python")));
    BlenderHost started = new BlenderHost(install, hostLoop(), dir, backoff, scene::changed);
    try {
      started.start();
    } catch (BlenderUnavailableException e) {
      deleteTree(dir);
      throw e;
    }
    workDir = dir;
    host = started;
    LOG.info("Blender adapter ready: Blender {} from {}", install.version(), install.source());
  }

  @Override
  public void stop() {
    BlenderHost h = host;
    if (h != null) {
      h.close();
    }
    Path dir = workDir;
    if (dir != null) {
      deleteTree(dir);
    }
  }

  @Override
  public boolean isReady() {
    BlenderHost h = host;
    return h != null && h.isReady();
  }

  @Override
  public String statusDetail() {
    BlenderHost h = host;
    return h == null ? "not started" : h.detail();
  }

  @Override
  public Optional<HostExecutor> mainThreadExecutor() {
    return Optional.of(this::execute);
  }

  @Override
  public List<String> skillRoots() {
    return List.of("skills");
  }

  @Override
  public List<ResourceProvider> resourceProviders() {
    return List.of(scene);
  }

  /** The running Blender's process id, or -1 when none runs. */
  public long blenderPid() {
    BlenderHost h = host;
    return h == null ? -1 : h.pid();
  }

  /** The adapter's private folder (Blender's temporary files), or {@code null} before start. */
  Path workDir() {
    return workDir;
  }

  private ToolResult execute(HostCall call) throws InterruptedException {
    BlenderHost h = host;
    if (h == null) {
      return HostResults.failure(
          ToolFailureCode.HOST_UNAVAILABLE, "the Blender adapter is not started", null, null);
    }
    ObjectNode request = JsonNodeFactory.instance.objectNode();
    request.put("op", "call");
    request.put("skill", call.skill());
    request.put("tool", call.tool());
    request.put("script", call.script().toAbsolutePath().toString());
    request.put("cwd", call.skillDirectory().toAbsolutePath().toString());
    request.set("params", call.arguments());
    Path compat = importPath;
    if (compat != null) {
      request.putArray("path").add(compat.toString());
    }
    return h.submit(request, call.tool(), true, call.timeout(), call.context())
        .toResult(call.skillDirectory());
  }

  private JsonNode readScene() throws IOException, InterruptedException {
    BlenderHost h = host;
    if (h == null) {
      throw new IOException("the Blender adapter is not started");
    }
    ObjectNode request = JsonNodeFactory.instance.objectNode().put("op", "scene");
    return h.submit(request, "the scene read", false, SCENE_READ, ToolContext.NONE).result();
  }

  private static String hostLoop() {
    try (InputStream in = BlenderAdapter.class.getResourceAsStream("host_loop.py")) {
      if (in == null) {
        throw new IllegalStateException("host_loop.py is missing from the plugin");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("host_loop.py cannot be read", e);
    }
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      LOG.debug("could not remove {}: {}", root, e.toString());
    }
  }
}

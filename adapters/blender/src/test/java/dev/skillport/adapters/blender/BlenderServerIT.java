package dev.skillport.adapters.blender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.skillport.testsupport.LaunchedServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The server as users start it ({@code bin/skillport serve --http} over the shaded jar) with the
 * Blender plugin jar this build made and a real Blender, driven by the MCP Java SDK client over
 * Streamable HTTP on 127.0.0.1. One server and one Blender serve every test, in order; the last
 * test kills Blender.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BlenderServerIT {
  private static BlenderInstall blender;
  private static Path work;
  private static LaunchedServer server;
  private static String base;
  private static McpSyncClient client;
  private static final List<McpSchema.ResourceContents> updates = new CopyOnWriteArrayList<>();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void startServer() throws Exception {
    blender = RealBlender.installOrSkip();
    Path plugin = Path.of(System.getProperty("skillport.blenderPlugin", "")).toAbsolutePath();
    assertThat(LaunchedServer.jar()).as("the server's shaded jar").isRegularFile();
    assertThat(LaunchedServer.launcher()).as("bin/skillport").isExecutable();
    assertThat(plugin).as("the Blender plugin jar this build made").isRegularFile();

    work = Files.createTempDirectory("blender-server-it");
    Path plugins = Files.createDirectories(work.resolve("plugins"));
    Files.copy(plugin, plugins.resolve("adapter-blender.jar"));
    Path skills = work.resolve("skills");
    write(
        skills.resolve("blender-probe/SKILL.md"),
        """
        ---
        name: blender-probe
        description: Test tools that run inside Blender
        metadata:
          dcc-mcp:
            dcc: blender
            tools: tools.yaml
        ---
        Probe.
        """);
    write(
        skills.resolve("blender-probe/tools.yaml"),
        """
        tools:
          - name: slow_probe
            description: Sleeps longer than its timeout
            thread-affinity: main
            timeout_hint_secs: 1
            source_file: scripts/slow_probe.py
        """);
    write(
        skills.resolve("blender-probe/scripts/slow_probe.py"),
        "import time\ndef main(**params):\n    time.sleep(60)\n    return {'slept': True}\n");

    copyTree(
        Path.of("src/test/resources/skills/studio-turntable"), skills.resolve("studio-turntable"));
    copyTree(
        Path.of("src/test/resources/skills/blender-upstream-style"),
        skills.resolve("blender-upstream-style"));

    Path home = Files.createDirectories(work.resolve("home"));
    server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--skills",
            skills.toString(),
            "--plugins",
            plugins.toString(),
            "--blender",
            blender.executable().toString(),
            "--jobs-dir",
            work.resolve("jobs").toString());
    String mcp = server.uri().toString();
    base = mcp.substring(0, mcp.length() - "/mcp".length());
    await().atMost(Duration.ofSeconds(60)).until(() -> readyz() == 200);

    client =
        McpClient.sync(HttpClientStreamableHttpTransport.builder(base).endpoint("/mcp").build())
            .requestTimeout(Duration.ofSeconds(120))
            .resourcesUpdateConsumer(updates::addAll)
            .build();
    client.initialize();
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (client != null) {
      client.closeGracefully();
    }
    if (server != null) {
      server.close();
    }
    if (work != null) {
      try (Stream<Path> paths = Files.walk(work)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static int readyz() throws IOException, InterruptedException {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create(base + "/readyz")).GET().build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private static McpSchema.CallToolResult call(String tool, Map<String, Object> args) {
    return client.callTool(McpSchema.CallToolRequest.builder(tool).arguments(args).build());
  }

  private static McpSchema.CallToolResult ok(String tool, Map<String, Object> args) {
    McpSchema.CallToolResult r = call(tool, args);
    assertThat(r.isError()).as(tool + ": " + r.content()).isFalse();
    return r;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> context(McpSchema.CallToolResult r) {
    return (Map<String, Object>) ((Map<String, Object>) r.structuredContent()).get("context");
  }

  private static long blenderPid() {
    return ((Number) context(ok("blender_info", Map.of())).get("pid")).longValue();
  }

  private static String text(McpSchema.CallToolResult r) {
    StringBuilder out = new StringBuilder();
    for (McpSchema.Content c : r.content()) {
      if (c instanceof McpSchema.TextContent t) {
        out.append(t.text());
      }
    }
    return out.toString();
  }

  @Test
  @Order(1)
  void blenderScene_loadsFromThePluginAndItsToolsRunInOneBlender() {
    McpSchema.CallToolResult loaded = ok("load_skill", Map.of("skill_name", "blender-scene"));
    assertThat(text(loaded)).contains("blender-scene");
    Set<String> tools = new HashSet<>();
    client.listTools().tools().forEach(t -> tools.add(t.name()));
    assertThat(tools).contains("create_mesh", "create_camera", "render_preview", "save_scene");
    McpSchema.Tool list =
        client.listTools().tools().stream()
            .filter(t -> t.name().equals("list_scene"))
            .findFirst()
            .orElseThrow();
    assertThat(list.annotations().readOnlyHint()).isTrue();

    long first = blenderPid();
    long second = blenderPid();
    assertThat(second).isEqualTo(first);
    assertThat(first).isNotEqualTo(server.pid());
  }

  @Test
  @Order(2)
  void cubeAndCamera_renderAsAPreviewImage_andSaveToABlendFileAnotherBlenderReads()
      throws Exception {
    ok("new_scene", Map.of());
    ok("create_mesh", Map.of("kind", "plane", "name", "Floor", "size", 20));
    ok("create_mesh", Map.of("kind", "cube", "name", "Cube", "location", List.of(0, 0, 1)));
    ok("set_material_color", Map.of("name", "Cube", "color", "#e02020"));
    ok("create_light", Map.of("type", "sun", "name", "Sun", "location", List.of(4, -4, 8)));
    ok(
        "create_camera",
        Map.of("name", "Camera", "location", List.of(6, -6, 4), "look_at", List.of(0, 0, 1)));

    McpSchema.CallToolResult render =
        ok("render_preview", Map.of("width", 64, "height", 64, "samples", 8));
    McpSchema.ImageContent image =
        render.content().stream()
            .filter(McpSchema.ImageContent.class::isInstance)
            .map(McpSchema.ImageContent.class::cast)
            .findFirst()
            .orElseThrow(() -> new AssertionError("no image content in " + render.content()));
    assertThat(image.mimeType()).isEqualTo("image/png");
    BufferedImage png =
        ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(image.data())));
    assertThat(png.getWidth()).isEqualTo(64);
    assertThat(png.getHeight()).isEqualTo(64);
    Set<Integer> colours = new HashSet<>();
    boolean redPixel = false;
    for (int y = 0; y < 64; y++) {
      for (int x = 0; x < 64; x++) {
        int rgb = png.getRGB(x, y);
        colours.add(rgb & 0xFFFFFF);
        int r = (rgb >> 16) & 0xFF;
        int g = (rgb >> 8) & 0xFF;
        int b = rgb & 0xFF;
        redPixel |= r > 60 && r > 2 * g && r > 2 * b;
      }
    }
    assertThat(colours.size()).as("distinct colours in the preview").isGreaterThan(10);
    assertThat(redPixel).as("a pixel of the red cube").isTrue();

    Path blend = work.resolve("scene.blend");
    McpSchema.CallToolResult saved = ok("save_scene", Map.of("path", blend.toString()));
    assertThat(context(saved).get("objects").toString()).contains("Cube", "Camera");
    assertThat(blend).isRegularFile();
    McpSchema.CallToolResult again = call("save_scene", Map.of("path", blend.toString()));
    assertThat(again.isError()).isTrue();
    assertThat(text(again)).contains("overwrite");

    assertThat(objectsIn(blend)).contains("Cube", "Camera", "Floor", "Sun");
  }

  /** The objects of a .blend file, as a second Blender process reads it. */
  private static List<String> objectsIn(Path blend) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(
                blender.executable().toString(),
                "-b",
                "--factory-startup",
                "-noaudio",
                blend.toString(),
                "--python-expr",
                "import bpy\nprint('OBJECTS:' + ','.join(sorted(o.name for o in"
                    + " bpy.data.objects)))\n")
            .redirectErrorStream(true);
    // Its session folder and thumbnail cache stay in this test's folder.
    Path scratch = Files.createDirectories(work.resolve("second-blender"));
    builder.environment().put("TMPDIR", scratch.toString());
    builder.environment().put("XDG_CACHE_HOME", scratch.toString());
    Process reader = builder.start();
    reader.getOutputStream().close();
    String output = new String(reader.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(reader.waitFor(60, TimeUnit.SECONDS)).isTrue();
    List<String> objects = new ArrayList<>();
    for (String line : output.lines().toList()) {
      if (line.startsWith("OBJECTS:")) {
        objects.addAll(List.of(line.substring("OBJECTS:".length()).split(",")));
      }
    }
    assertThat(objects).as(output).isNotEmpty();
    return objects;
  }

  @Test
  @Order(3)
  void sceneResource_subscribersHearOfEachCallAndReadTheNewObject() {
    client.subscribeResource(new McpSchema.SubscribeRequest(BlenderAdapter.SCENE_URI, null));
    updates.clear();

    ok("create_mesh", Map.of("kind", "monkey", "name", "Suzanne", "location", List.of(3, 0, 1)));

    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                updates.stream()
                    .anyMatch(
                        c ->
                            c instanceof McpSchema.TextResourceContents t
                                && t.text().contains("\"Suzanne\"")));
    McpSchema.ReadResourceResult read =
        client.readResource(new McpSchema.ReadResourceRequest(BlenderAdapter.SCENE_URI, null));
    assertThat(((McpSchema.TextResourceContents) read.contents().get(0)).text())
        .contains("\"Cube\"", "\"Suzanne\"");
  }

  @Test
  @Order(4)
  void guidesExampleSkill_loadsFromASkillRootAndRunsInTheSameBlender() {
    long pid = blenderPid();
    ok("load_skill", Map.of("skill_name", "studio-turntable"));

    McpSchema.CallToolResult r = ok("add_turntable", Map.of("frames", 24));

    assertThat(context(r).get("camera")).isEqualTo("TurntableCamera");
    Map<String, Object> scene = context(ok("list_scene", Map.of()));
    assertThat(scene.get("camera")).isEqualTo("TurntableCamera");
    assertThat(scene.get("objects").toString()).contains("TurntablePivot");
    assertThat(blenderPid()).isEqualTo(pid);
  }

  @Test
  @Order(5)
  void upstreamStyleSkill_runsUnchangedInTheSameBlender() {
    long pid = blenderPid();
    ok("load_skill", Map.of("skill_name", "blender-upstream-style"));
    McpSchema.Tool count =
        client.listTools().tools().stream()
            .filter(t -> t.name().equals("count_objects"))
            .findFirst()
            .orElseThrow();
    assertThat(count.annotations().readOnlyHint()).isTrue();

    McpSchema.CallToolResult added = ok("add_empty", Map.of("name", "Anchor"));
    assertThat(text(added)).contains("Created empty: Anchor");
    McpSchema.CallToolResult counted = ok("count_objects", Map.of());
    assertThat(context(counted).get("counts").toString()).contains("EMPTY=");
    McpSchema.CallToolResult missing =
        call("rename_object", Map.of("old_name", "Nope", "new_name", "X"));
    assertThat(missing.isError()).isTrue();
    assertThat(text(missing)).contains("Object not found: Nope");
    assertThat(blenderPid()).isEqualTo(pid);
  }

  @Test
  @Order(6)
  void callPastItsTimeout_isCancelledInsideBlender_andTheNextCallRunsInTheSameBlender() {
    long pid = blenderPid();
    ok("load_skill", Map.of("skill_name", "blender-probe"));
    long started = System.nanoTime();

    McpSchema.CallToolResult slow = call("slow_probe", Map.of());

    assertThat(slow.isError()).isTrue();
    assertThat(text(slow)).contains("HOST_CALL_TIMEOUT", "timed out after 1 s");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    assertThat(blenderPid()).isEqualTo(pid);
    assertThat(context(ok("list_scene", Map.of())).get("objects").toString()).contains("Cube");
  }

  @Test
  @Order(7)
  void killingBlender_failsReadyz_untilTheAdapterHasStartedANewOne() throws Exception {
    long pid = blenderPid();

    ProcessHandle.of(pid).orElseThrow().destroyForcibly();

    await()
        .atMost(Duration.ofSeconds(15))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> readyz() == 503);
    await().atMost(Duration.ofSeconds(90)).until(() -> readyz() == 200);
    long after = blenderPid();
    assertThat(after).isNotEqualTo(pid);
    ok("load_skill", Map.of("skill_name", "skillport-diagnostics"));
    McpSchema.CallToolResult status = ok("server_status", Map.of());
    assertThat(status.structuredContent().toString())
        .contains("blender", "pid " + after, "restarted 1 times", "killed by signal 9");
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path p : paths.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}

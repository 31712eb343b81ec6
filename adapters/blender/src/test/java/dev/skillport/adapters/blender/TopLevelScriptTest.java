package dev.skillport.adapters.blender;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.api.host.HostExecutor;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scripts written as programs for dcc-mcp-core (no {@code main}: they read their arguments from
 * stdin or flags and print a JSON result, the form of {@code commercial-3d-product-render}'s
 * scripts), run by the adapter in a real headless Blender, and the {@code dcc_mcp_core} names that
 * need a host: {@code Capturer}, {@code connect_ipc}, {@code check_cancelled}.
 */
class TopLevelScriptTest {
  @TempDir static Path tmp;
  private static BlenderAdapter adapter;
  private static HostExecutor executor;
  private static TestSkill skill;

  @BeforeAll
  static void start() throws Exception {
    BlenderInstall install = RealBlender.installOrSkip();
    adapter = new BlenderAdapter(Map.of(), Backoff.DEFAULT);
    adapter.configure(Map.of(BlenderAdapter.EXECUTABLE, install.executable().toString()));
    adapter.start();
    executor = adapter.mainThreadExecutor().orElseThrow();
    skill =
        TestSkill.in(tmp, "commercial-3d-product-render")
            .script(
                "render_product",
                """
                #!/usr/bin/env python3
                import json
                import os
                import sys

                import bpy

                params = json.load(sys.stdin)
                scene = bpy.context.scene
                for obj in list(scene.objects):
                    bpy.data.objects.remove(obj, do_unlink=True)
                bpy.ops.mesh.primitive_cube_add(size=1.5)
                bpy.ops.object.light_add(type="SUN", location=(3, -3, 5))
                bpy.ops.object.camera_add(location=(4, -4, 3), rotation=(1.1, 0, 0.785))
                scene.camera = bpy.context.object
                scene.render.engine = "CYCLES"
                scene.cycles.device = "CPU"
                scene.cycles.samples = 4
                scene.cycles.use_denoising = False
                scene.render.resolution_x = params.get("width", 64)
                scene.render.resolution_y = 48
                scene.render.resolution_percentage = 100
                out = os.path.join(params["out_dir"], "product.png")
                scene.render.filepath = out
                bpy.ops.render.render(write_still=True)
                print("rendered", out)
                print(json.dumps({"summary": "Product render written.", "image": out,
                                  "argv": sys.argv[1:], "missing": []}))
                """)
            .script(
                "no_camera",
                """
                import json, sys
                import bpy
                if bpy.context.scene.camera is None:
                    print(json.dumps({"success": False, "message": "the scene has no camera"}))
                    sys.exit(1)
                """)
            .script("clear_camera", "import bpy\nbpy.context.scene.camera = None\n")
            .script(
                "cancellable",
                """
                import json, time
                from dcc_mcp_core import CancelledError, check_cancelled
                try:
                    for i in range(600):
                        check_cancelled()
                        time.sleep(0.05)
                except CancelledError:
                    print(json.dumps({"success": False, "message": "stopped at step"}))
                    raise SystemExit(1)
                """)
            .script(
                "capture",
                """
                import json
                from dcc_mcp_core import Capturer, connect_ipc
                frame = Capturer.new_auto().capture(format="png", scale=0.5)
                scene = json.loads(connect_ipc().call("scene")["payload"])
                print(json.dumps({"width": frame.width, "height": frame.height,
                                  "png": frame.data[:8] == b"\\x89PNG\\r\\n\\x1a\\n",
                                  "bytes": frame.byte_len(), "camera": scene["camera"]}))
                """);
  }

  @AfterAll
  static void stop() {
    if (adapter != null) {
      adapter.stop();
    }
  }

  private static String text(ToolResult r) {
    return r.content().stream()
        .filter(Content.Text.class::isInstance)
        .map(c -> ((Content.Text) c).text())
        .reduce("", String::concat);
  }

  @Test
  void programScript_rendersInHeadlessBlender_andItsLastJsonIsTheResult() throws Exception {
    Path out = Files.createDirectories(tmp.resolve("renders"));
    ToolResult r =
        executor.execute(
            skill.call(
                "render_product",
                "{\"out_dir\":\"" + out + "\",\"width\":64}",
                Duration.ofMinutes(3),
                ToolContext.NONE));

    assertThat(r.isError()).as(text(r)).isFalse();
    assertThat(r.structured().path("summary").asText()).isEqualTo("Product render written.");
    assertThat(r.structured().path("argv").toString())
        .isEqualTo("[\"--out-dir\",\"" + out + "\",\"--width\",\"64\"]");
    byte[] png = Files.readAllBytes(out.resolve("product.png"));
    assertThat(Arrays.copyOf(png, 4)).isEqualTo(new byte[] {(byte) 0x89, 'P', 'N', 'G'});
    assertThat(png.length).isGreaterThan(200);
  }

  @Test
  void programScript_exitingWithAFailureEnvelope_isAnErrorWithItsMessage() throws Exception {
    ToolResult cleared = executor.execute(skill.call("clear_camera", "{}"));
    assertThat(cleared.isError()).as(text(cleared)).isFalse();

    ToolResult r = executor.execute(skill.call("no_camera", "{}"));

    assertThat(r.isError()).isTrue();
    assertThat(text(r)).isEqualTo("the scene has no camera");
  }

  @Test
  void programScript_seesItsCancellationThroughCheckCancelled() throws Exception {
    long pid = adapter.blenderPid();
    AtomicBoolean cancelled = new AtomicBoolean();
    new Thread(
            () -> {
              BlenderAdapterTest.sleep(500);
              cancelled.set(true);
            })
        .start();

    ToolResult r =
        executor.execute(
            skill.call(
                "cancellable",
                "{}",
                Duration.ofSeconds(60),
                BlenderAdapterTest.cancelling(cancelled)));

    assertThat(r.structured().path("code").asText()).isEqualTo("HOST_CALL_CANCELLED");
    assertThat(adapter.blenderPid()).isEqualTo(pid);
  }

  @Test
  void capturer_rendersTheSceneCamera_andConnectIpcReachesTheHost() throws Exception {
    Path out = Files.createDirectories(tmp.resolve("capture"));
    executor.execute(
        skill.call(
            "render_product",
            "{\"out_dir\":\"" + out + "\"}",
            Duration.ofMinutes(3),
            ToolContext.NONE));

    ToolResult r =
        executor.execute(skill.call("capture", "{}", Duration.ofMinutes(3), ToolContext.NONE));

    assertThat(r.isError()).as(text(r)).isFalse();
    assertThat(r.structured().path("png").asBoolean()).isTrue();
    assertThat(r.structured().path("width").asInt()).isEqualTo(32);
    assertThat(r.structured().path("height").asInt()).isEqualTo(24);
    assertThat(r.structured().path("camera").asText()).isEqualTo("Camera");
  }
}

package dev.skillport.adapters.blender;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.host.HostCall;
import dev.skillport.api.host.HostExecutor;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every tool of the shipped {@code blender-scene} skill, run in a real Blender. */
class BlenderSceneSkillTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path SKILL =
      Path.of("src/main/resources/skills/blender-scene").toAbsolutePath();

  private static BlenderAdapter adapter;
  private static HostExecutor executor;
  @TempDir Path tmp;

  @BeforeAll
  static void start() throws Exception {
    BlenderInstall install = RealBlender.installOrSkip();
    adapter = new BlenderAdapter(Map.of(), Backoff.DEFAULT);
    adapter.configure(Map.of(BlenderAdapter.EXECUTABLE, install.executable().toString()));
    adapter.start();
    executor = adapter.mainThreadExecutor().orElseThrow();
  }

  @AfterAll
  static void stop() {
    if (adapter != null) {
      adapter.stop();
    }
  }

  @BeforeEach
  void emptyScene() throws Exception {
    ok("new_scene", "{}");
  }

  private static ToolResult call(String tool, String args) throws Exception {
    return executor.execute(
        new HostCall(
            "blender-scene",
            tool,
            SKILL.resolve("scripts").resolve(tool + ".py"),
            SKILL,
            JSON.readTree(args),
            Duration.ofSeconds(60),
            ToolContext.NONE));
  }

  private static JsonNode ok(String tool, String args) throws Exception {
    ToolResult r = call(tool, args);
    assertThat(r.isError()).as(tool + " " + r.content()).isFalse();
    assertThat(r.structured().path("success").asBoolean()).isTrue();
    return r.structured().path("context");
  }

  private static String failure(String tool, String args) throws Exception {
    ToolResult r = call(tool, args);
    assertThat(r.isError()).as(tool + " should fail").isTrue();
    return text(r);
  }

  private static String text(ToolResult r) {
    StringBuilder out = new StringBuilder();
    for (Content c : r.content()) {
      if (c instanceof Content.Text t) {
        out.append(t.text());
      }
    }
    return out.toString();
  }

  private static JsonNode object(String name) throws Exception {
    for (JsonNode o : ok("list_scene", "{}").path("objects")) {
      if (o.path("name").asText().equals(name)) {
        return o;
      }
    }
    throw new AssertionError("no object " + name);
  }

  @Test
  void newScene_leavesNoObjects() throws Exception {
    ok("create_mesh", "{\"kind\": \"cube\"}");

    ok("new_scene", "{}");

    assertThat(ok("list_scene", "{}").path("count").asInt()).isZero();
  }

  @Test
  void createMesh_everyKind_isAddedWithItsNameSizeAndTransform() throws Exception {
    for (String kind :
        List.of(
            "cube", "uv_sphere", "ico_sphere", "cylinder", "cone", "plane", "torus", "monkey")) {
      JsonNode o =
          ok(
                  "create_mesh",
                  "{\"kind\": \""
                      + kind
                      + "\", \"name\": \"M-"
                      + kind
                      + "\", \"size\": 1, \"location\": [1, 2, 3], \"scale\": [2, 2, 2]}")
              .path("object");
      assertThat(o.path("name").asText()).isEqualTo("M-" + kind);
      assertThat(o.path("type").asText()).isEqualTo("MESH");
      assertThat(o.path("location").toString()).isEqualTo("[1.0,2.0,3.0]");
      assertThat(o.path("vertices").asInt()).isPositive();
    }
    JsonNode cube = object("M-cube");
    assertThat(cube.path("dimensions").toString()).isEqualTo("[2.0,2.0,2.0]");
    assertThat(ok("list_scene", "{}").path("count").asInt()).isEqualTo(8);
  }

  @Test
  void createMesh_takenName_getsASuffixAndLeavesTheOtherObjectAlone() throws Exception {
    ok("create_mesh", "{\"kind\": \"cube\", \"name\": \"Box\", \"location\": [5, 0, 0]}");

    JsonNode second = ok("create_mesh", "{\"kind\": \"cube\", \"name\": \"Box\"}");

    assertThat(second.at("/object/name").asText()).isEqualTo("Box.001");
    assertThat(object("Box").path("location").toString()).isEqualTo("[5.0,0.0,0.0]");
    // Blender names a new cube "Cube" itself: asking for that name is no clash.
    assertThat(
            ok("create_mesh", "{\"kind\": \"cube\", \"name\": \"Cube\"}")
                .at("/object/name")
                .asText())
        .isEqualTo("Cube");
  }

  @Test
  void createCamera_looksAtItsTargetAndBecomesActive() throws Exception {
    JsonNode cam =
        ok("create_camera", "{\"name\": \"Cam\", \"location\": [0, -10, 0], \"lens\": 35}")
            .path("object");

    assertThat(cam.path("type").asText()).isEqualTo("CAMERA");
    assertThat(cam.path("lens").asDouble()).isEqualTo(35.0);
    assertThat(cam.path("active").asBoolean()).isTrue();
    // Looking along +Y from -Y: rotated 90 degrees about X.
    assertThat(cam.at("/rotation_degrees/0").asDouble())
        .isCloseTo(90.0, org.assertj.core.data.Offset.offset(0.01));
    assertThat(ok("list_scene", "{}").path("camera").asText()).isEqualTo("Cam");
  }

  @Test
  void createLight_eachType_withEnergyAndColour() throws Exception {
    for (String type : List.of("point", "sun", "spot", "area")) {
      JsonNode light =
          ok(
                  "create_light",
                  "{\"type\": \""
                      + type
                      + "\", \"name\": \"L-"
                      + type
                      + "\", \"energy\": 7, \"color\": [1, 0.5, 0]}")
              .path("object");
      assertThat(light.path("light_type").asText())
          .isEqualTo(type.toUpperCase(java.util.Locale.ROOT));
      assertThat(light.path("energy").asDouble()).isEqualTo(7.0);
      assertThat(light.path("color").toString()).isEqualTo("[1.0,0.5,0.0]");
    }
    assertThat(ok("create_light", "{\"type\": \"sun\"}").at("/object/energy").asDouble())
        .isEqualTo(3.0);
  }

  @Test
  void transformObject_setsWhatIsGivenAndKeepsTheRest() throws Exception {
    ok("create_mesh", "{\"kind\": \"cube\", \"name\": \"Box\", \"scale\": [1, 1, 2]}");

    JsonNode moved =
        ok(
                "transform_object",
                "{\"name\": \"Box\", \"location\": [5, 0, 1], \"rotation_degrees\": [0, 0, 45]}")
            .path("object");

    assertThat(moved.path("location").toString()).isEqualTo("[5.0,0.0,1.0]");
    assertThat(moved.path("rotation_degrees").toString()).isEqualTo("[0.0,0.0,45.0]");
    assertThat(moved.path("scale").toString()).isEqualTo("[1.0,1.0,2.0]");
    assertThat(failure("transform_object", "{\"name\": \"Box\"}")).contains("at least one of");
    assertThat(failure("transform_object", "{\"name\": \"Nope\", \"location\": [0, 0, 0]}"))
        .contains("no object named 'Nope'", "Box");
  }

  @Test
  void setMaterialColor_hexAndList_updateTheObjectsMaterial() throws Exception {
    ok("create_mesh", "{\"kind\": \"cube\", \"name\": \"Box\"}");

    JsonNode red = ok("set_material_color", "{\"name\": \"Box\", \"color\": \"#FF0000\"}");
    assertThat(red.at("/object/material/color").toString()).isEqualTo("[1.0,0.0,0.0,1.0]");
    JsonNode blue =
        ok("set_material_color", "{\"name\": \"Box\", \"color\": [0, 0, 1], \"roughness\": 0.2}");

    assertThat(blue.at("/object/material/material").asText()).isEqualTo("Box-material");
    assertThat(blue.at("/object/material/color").toString()).isEqualTo("[0.0,0.0,1.0,1.0]");
    ok("create_camera", "{\"name\": \"Cam\"}");
    assertThat(failure("set_material_color", "{\"name\": \"Cam\", \"color\": [1, 1, 1]}"))
        .contains("cannot have a material");
  }

  @Test
  void deleteObject_removesIt() throws Exception {
    ok("create_mesh", "{\"kind\": \"cube\", \"name\": \"Box\"}");
    ok("create_mesh", "{\"kind\": \"plane\", \"name\": \"Floor\"}");

    ok("delete_object", "{\"name\": \"Box\"}");

    JsonNode scene = ok("list_scene", "{}");
    assertThat(scene.path("count").asInt()).isEqualTo(1);
    assertThat(scene.at("/objects/0/name").asText()).isEqualTo("Floor");
  }

  @Test
  void renderPreview_returnsAPngOfTheSceneAndRestoresTheRenderSettings() throws Exception {
    assertThat(failure("render_preview", "{}")).contains("no active camera");
    ok("create_mesh", "{\"kind\": \"plane\", \"name\": \"Floor\", \"size\": 20}");
    ok("create_mesh", "{\"kind\": \"cube\", \"name\": \"Box\", \"location\": [0, 0, 1]}");
    ok("set_material_color", "{\"name\": \"Box\", \"color\": [0, 0.8, 0]}");
    ok("create_light", "{\"type\": \"sun\"}");
    ok("create_camera", "{\"location\": [6, -6, 4], \"look_at\": [0, 0, 1]}");
    JsonNode before = ok("list_scene", "{}").path("render");

    ToolResult r = call("render_preview", "{\"width\": 48, \"height\": 32, \"samples\": 4}");

    assertThat(r.isError()).as(r.content().toString()).isFalse();
    Content.Image image =
        r.content().stream()
            .filter(Content.Image.class::isInstance)
            .map(Content.Image.class::cast)
            .findFirst()
            .orElseThrow();
    assertThat(image.mimeType()).isEqualTo("image/png");
    BufferedImage png =
        ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(image.base64Data())));
    assertThat(png.getWidth()).isEqualTo(48);
    assertThat(png.getHeight()).isEqualTo(32);
    List<Integer> greenish = new ArrayList<>();
    for (int y = 0; y < png.getHeight(); y++) {
      for (int x = 0; x < png.getWidth(); x++) {
        int rgb = png.getRGB(x, y);
        int red = (rgb >> 16) & 0xFF;
        int green = (rgb >> 8) & 0xFF;
        int blue = rgb & 0xFF;
        if (green > 40 && green > 2 * red && green > 2 * blue) {
          greenish.add(rgb);
        }
      }
    }
    assertThat(greenish).as("pixels of the green cube").isNotEmpty();
    assertThat(r.structured().path("content").isMissingNode())
        .as("the image is content, not repeated in the structured result")
        .isTrue();
    assertThat(r.structured().at("/context/samples").asInt()).isEqualTo(4);
    assertThat(ok("list_scene", "{}").path("render")).isEqualTo(before);
  }

  @Test
  void saveAndOpenScene_roundTripTheObjectsAndRefuseBadPaths() throws Exception {
    ok("create_mesh", "{\"kind\": \"cube\", \"name\": \"Box\"}");
    Path blend = tmp.resolve("kept.blend");

    assertThat(failure("save_scene", "{\"path\": \"relative.blend\"}")).contains("absolute");
    assertThat(failure("save_scene", "{\"path\": \"" + tmp.resolve("no/such/x.blend") + "\"}"))
        .contains("does not exist");
    JsonNode saved = ok("save_scene", "{\"path\": \"" + blend + "\"}");
    assertThat(saved.path("bytes").asLong()).isPositive();
    assertThat(Files.size(blend)).isEqualTo(saved.path("bytes").asLong());
    assertThat(failure("save_scene", "{\"path\": \"" + blend + "\"}")).contains("overwrite");
    ok("save_scene", "{\"path\": \"" + blend + "\", \"overwrite\": true}");

    ok("new_scene", "{}");
    JsonNode opened = ok("open_scene", "{\"path\": \"" + blend + "\"}");

    assertThat(opened.path("objects").toString()).isEqualTo("[\"Box\"]");
    assertThat(ok("list_scene", "{}").path("file").asText()).isEqualTo(blend.toString());
    assertThat(failure("open_scene", "{\"path\": \"" + tmp.resolve("none.blend") + "\"}"))
        .contains("no .blend file");
  }

  @Test
  void blenderInfo_describesTheRunningBlender() throws Exception {
    JsonNode info = ok("blender_info", "{}");

    assertThat(info.path("pid").asLong()).isEqualTo(adapter.blenderPid());
    assertThat(info.path("main_thread").asBoolean()).isTrue();
    assertThat(info.path("background").asBoolean()).isTrue();
    assertThat(info.path("render_engines").toString()).contains("CYCLES");
  }
}

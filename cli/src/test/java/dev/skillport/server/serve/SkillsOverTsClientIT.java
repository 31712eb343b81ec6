package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.InteropTools;
import dev.skillport.testsupport.LaunchedServer;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every skill the project has, served by {@code bin/skillport} and walked with the official
 * TypeScript SDK 1.x client in a real Node process ({@code ts-client/walk-skills.mjs}): the sample
 * skills, every loader fixture (good and bad), skills written in dcc-mcp-core's style ({@code
 * upstream-style/}: Markdown prompts, an {@code allowed-tools} list, a nested skill, upstream tool
 * keys, scripts importing {@code dcc_mcp_core}, a failing script with an upstream envelope, a
 * script returning an image and audio, Python for another product) and generated ones (a schema zoo
 * of every input and output schema shape, and a skill made by {@code skillport new}).
 *
 * <p>The client lists the tools after every load (the SDK parses each listing and compiles every
 * output schema with Ajv, so one bad schema fails the list), loads each skill, activates its groups
 * and calls each of its tools; the SDK checks structured results against the listed output schemas.
 * Every listing must parse, every load and call must give a documented result, and the
 * upstream-style calls must give exactly the results the README documents.
 */
class SkillsOverTsClientIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path home;
  @TempDir static Path generated;
  @TempDir static Path work;
  private static JsonNode report;

  @BeforeAll
  static void walkEverySkill() throws Exception {
    SchemaZoo.writeTo(generated.resolve("schema-zoo"));
    ExternalCommand.Outcome scaffold =
        LaunchedServer.command(home, "new", "skill", "scaffolded", "--dir", generated.toString())
            .run();
    assertThat(scaffold.exit()).as(scaffold.toString()).isZero();

    Path plan = work.resolve("plan.json");
    Files.writeString(plan, JSON.writeValueAsString(plan()));
    Path driver = work.resolve("walk-skills.mjs");
    Files.copy(resource("ts-client/walk-skills.mjs"), driver);
    Path plugins =
        Path.of(System.getProperty("skillport.conformancePlugins", "../samples/target/plugins"));
    Path fixtures =
        Path.of(
            System.getProperty(
                "skillport.fixtures", "../skill-loader/src/test/resources/fixtures"));
    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--no-bundled",
            "--skills",
            SamplesHttpServer.samples().toString(),
            "--skills",
            SamplesHttpServer.conformance().toString(),
            "--skills",
            resource("upstream-style").toString(),
            "--skills",
            generated.toString(),
            "--skills",
            fixtures.toAbsolutePath().toString(),
            "--plugins",
            plugins.toAbsolutePath().toString(),
            "--dcc-python",
            "maya=python3")) {
      ExternalCommand.Outcome walk =
          ExternalCommand.of(
                  InteropTools.node().toString(),
                  driver.toString(),
                  "--sdk-dir",
                  InteropTools.dir("sdk@1").toString(),
                  "--url",
                  server.uri().toString(),
                  "--plan",
                  plan.toString())
              .environment(InteropTools.environment())
              .timeout(Duration.ofMinutes(10))
              .run();
      assertThat(walk.exit()).as(walk.toString()).isZero();
      report = JSON.readTree(walk.stdout());
      // Kept beside the build's other reports, for reading when an assertion fails.
      Path reports = LaunchedServer.jar().toAbsolutePath().getParent().resolve("failsafe-reports");
      Files.createDirectories(reports);
      Files.writeString(
          reports.resolve("skills-walk-report.json"),
          JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
    }
  }

  private static ObjectNode plan() {
    ObjectNode plan = JSON.createObjectNode();
    ObjectNode args = plan.putObject("arguments");
    args.putObject("scene-primitives/delete_object").put("name", "pCube1");
    args.putObject("scene-primitives/create_sphere").put("name", "ball").put("radius", 2.5);
    ArrayNode extra = plan.putArray("extra");
    for (String q : List.of("render", "rendering", "renders", "rendered")) {
      extra.addObject().put("tool", "search_skills").putObject("arguments").put("query", q);
    }
    extra
        .addObject()
        .put("tool", "load_skill")
        .putObject("arguments")
        .put("skill_name", "scene-primitives");
    extra.addObject().put("listPrompts", true);
    ObjectNode prompt = extra.addObject().put("prompt", "review_scene");
    prompt.putObject("arguments").put("object", "pSphere1");
    return plan;
  }

  private static Path resource(String name) throws IOException {
    var url = SkillsOverTsClientIT.class.getClassLoader().getResource(name);
    if (url == null) {
      throw new IOException("missing test resource " + name);
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IOException(e);
    }
  }

  private static JsonNode skill(String name) {
    JsonNode s = report.path("skills").path(name);
    assertThat(s.isMissingNode()).as("skill %s was walked", name).isFalse();
    return s;
  }

  private static JsonNode call(String skill, String tool) {
    JsonNode c = skill(skill).path("calls").path(tool);
    assertThat(c.isMissingNode()).as("%s/%s was called", skill, tool).isFalse();
    return c;
  }

  private static JsonNode listed(String skill, String tool) {
    for (JsonNode t : skill(skill).path("listed")) {
      if (t.path("name").asText().equals(tool)) {
        return t;
      }
    }
    throw new AssertionError(skill + "/" + tool + " was not listed");
  }

  @Test
  void everyListing_parsesInTheSdk_afterEveryLoad() {
    assertThat(report.path("listErrors")).as(report.path("listErrors").toString()).isEmpty();
    assertThat(report.path("lists").asInt())
        .as("one listing per skill, plus the first and last")
        .isEqualTo(report.path("skills").size() + 2);
    assertThat(report.path("skills").size()).as("skills walked").isGreaterThan(150);
    assertThat(report.path("sdk").asText()).startsWith("1.32.");
  }

  @Test
  void everyLoad_isLoadedOrNamesWhyNot() {
    int loaded = 0;
    for (Map.Entry<String, JsonNode> e : report.path("skills").properties()) {
      JsonNode load = e.getValue().path("load");
      assertThat(load.has("sdkError")).as("%s: %s", e.getKey(), load).isFalse();
      JsonNode sc = load.path("structuredContent");
      if (sc.path("loaded").asBoolean()) {
        loaded++;
        assertThat(sc.path("registered_tools").isArray()).as(e.getKey()).isTrue();
        assertThat(sc.path("tool_count").asInt()).isEqualTo(sc.path("registered_tools").size());
      } else {
        assertThat(load.path("isError").asBoolean()).as("%s: %s", e.getKey(), load).isTrue();
        assertThat(sc.path("code").asText()).isEqualTo("SKILL_NOT_LOADABLE");
        assertThat(sc.path("errors")).as(e.getKey()).isNotEmpty();
      }
    }
    assertThat(loaded).as("skills that loaded").isGreaterThan(100);
  }

  @Test
  void everyCall_givesADocumentedResult() {
    List<String> broken = new ArrayList<>();
    int calls = 0;
    for (Map.Entry<String, JsonNode> skill : report.path("skills").properties()) {
      for (Map.Entry<String, JsonNode> call : skill.getValue().path("calls").properties()) {
        calls++;
        JsonNode r = call.getValue();
        String where = skill.getKey() + "/" + call.getKey();
        if (r.has("sdkError")) {
          broken.add(where + ": the SDK refused the result: " + r.path("sdkError").asText());
        } else if (r.path("isError").asBoolean() && r.path("text").asText().isBlank()) {
          broken.add(where + ": an error result without text: " + r);
        } else if (r.path("contentTypes").isEmpty()) {
          broken.add(where + ": no content: " + r);
        }
      }
    }
    assertThat(broken).as(String.join("\n", broken)).isEmpty();
    assertThat(calls).as("tool calls made").isGreaterThan(90);
  }

  @Test
  void upstreamToolKeys_andAsync_reachTheListing() {
    assertThat(listed("scene-primitives", "create_sphere").path("annotations"))
        .isEqualTo(obj("{\"destructiveHint\":false,\"idempotentHint\":false}"));
    assertThat(listed("scene-primitives", "list_objects").path("annotations"))
        .isEqualTo(obj("{\"readOnlyHint\":true,\"idempotentHint\":true}"));
    assertThat(listed("scene-primitives", "delete_object").path("annotations"))
        .isEqualTo(obj("{\"destructiveHint\":true}"));
    assertThat(listed("scene-primitives", "bake_cache").at("/meta/dcc/deferred_hint").asBoolean())
        .isTrue();
    assertThat(listed("scene-primitives", "list_objects").path("outputSchema"))
        .isEqualTo(
            obj(
                "{\"type\":\"object\",\"properties\":{\"result\":{\"type\":\"array\","
                    + "\"items\":{\"type\":\"string\"}}},\"required\":[\"result\"]}"));
  }

  @Test
  void upstreamScripts_runWithTheCompatibilityPackage() {
    JsonNode sphere = call("scene-primitives", "create_sphere");
    assertThat(sphere.path("isError").asBoolean()).as(sphere.toString()).isFalse();
    assertThat(sphere.path("structuredContent"))
        .isEqualTo(
            obj(
                "{\"success\":true,\"message\":\"Created ball\",\"prompt\":\"Call set_material"
                    + " next.\",\"context\":{\"name\":\"ball\",\"radius\":2.5}}"));
    assertThat(sphere.at("/meta/dcc.next_tools/on_success/0").asText())
        .isEqualTo("scene_primitives__render_preview");
    assertThat(call("scene-primitives", "list_objects").path("structuredContent"))
        .isEqualTo(obj("{\"result\":[\"pSphere1\",\"pCube1\"]}"));
  }

  @Test
  void failingUpstreamScript_isAnErrorWithItsOwnMessage() {
    JsonNode delete = call("scene-primitives", "delete_object");
    assertThat(delete.path("isError").asBoolean()).isTrue();
    assertThat(delete.path("text").asText())
        .isEqualTo("Object 'pCube1' is locked\nUnlock it with unlock_object first.");
    assertThat(delete.at("/structuredContent/code").asText()).isEqualTo("SCRIPT_FAILED");
    assertThat(delete.at("/structuredContent/hint").asText())
        .isEqualTo("Unlock it with unlock_object first.");
    assertThat(delete.at("/structuredContent/context/name").asText()).isEqualTo("pCube1");
    JsonNode farm = call("scene-primitives", "sync_farm");
    assertThat(farm.path("isError").asBoolean()).isTrue();
    assertThat(farm.path("text").asText()).isEqualTo("render farm is offline");
  }

  @Test
  void scriptReturningAnImage_reachesTheClientAsImageAndAudioContent() {
    JsonNode render = call("scene-primitives", "render_preview");
    assertThat(render.path("isError").asBoolean()).as(render.toString()).isFalse();
    assertThat(render.path("contentTypes")).isEqualTo(arr("[\"text\",\"image\",\"audio\"]"));
    assertThat(render.at("/content/1/mimeType").asText()).isEqualTo("image/png");
    assertThat(render.at("/content/2/mimeType").asText()).isEqualTo("audio/wav");
    assertThat(render.at("/structuredContent/context/frame").asInt()).isEqualTo(1);
  }

  @Test
  void asyncTool_isQueuedAsAJob() {
    JsonNode bake = call("scene-primitives", "bake_cache");
    assertThat(bake.at("/structuredContent/status").asText()).isEqualTo("pending");
    assertThat(bake.at("/structuredContent/job_id").asText()).isNotBlank();
  }

  @Test
  void pythonOfAnotherProduct_withoutItsInterpreter_isRefused() {
    JsonNode bake = call("houdini-bake", "bake_sim");
    assertThat(bake.path("isError").asBoolean()).isTrue();
    assertThat(bake.at("/structuredContent/code").asText()).isEqualTo("DCC_INTERPRETER_MISSING");
  }

  @Test
  void nestedSkill_isNotServed_andListAllowedToolsLoads() {
    assertThat(report.path("skills").has("demo")).isFalse();
    assertThat(skill("scene-primitives").at("/load/structuredContent/loaded").asBoolean()).isTrue();
    assertThat(skill("allowed-tools-list").at("/load/structuredContent/loaded").asBoolean())
        .isTrue();
  }

  @Test
  void markdownPrompts_areServed() {
    JsonNode extra = report.path("extra");
    JsonNode names = null;
    JsonNode review = null;
    for (JsonNode e : extra) {
      if (e.has("listPrompts")) {
        names = e.path("listPrompts");
      }
      if (e.path("prompt").asText().equals("review_scene")) {
        review = e;
      }
    }
    assertThat(names).isNotNull();
    assertThat(names.toString()).contains("\"review_scene\"", "\"summary\"");
    assertThat(review.has("sdkError")).as(String.valueOf(review)).isFalse();
    assertThat(review.at("/messages/0/content/text").asText())
        .contains("check pSphere1 for flipped normals");
  }

  @Test
  void search_findsTheRenderSkillsForEveryInflection() {
    Map<String, List<String>> found = new LinkedHashMap<>();
    for (JsonNode e : report.path("extra")) {
      if (e.path("tool").asText().equals("search_skills")) {
        List<String> skills = new ArrayList<>();
        e.at("/result/structuredContent/skills").forEach(s -> skills.add(s.path("name").asText()));
        found.put(e.at("/arguments/query").asText(), skills);
      }
    }
    assertThat(found.keySet()).containsExactly("render", "rendering", "renders", "rendered");
    for (Map.Entry<String, List<String>> e : found.entrySet()) {
      assertThat(e.getValue())
          .as(e.getKey())
          .contains("render-arnold", "render-karma", "scene-primitives")
          .isEqualTo(found.get("render"));
    }
  }

  @Test
  void schemaZoo_everyDeclaredShapeIsListedAndAnswered() {
    for (String tool : SchemaZoo.TOOLS.keySet()) {
      JsonNode result = call("schema-zoo", tool);
      assertThat(result.has("sdkError")).as("%s: %s", tool, result).isFalse();
      assertThat(result.path("isError").asBoolean()).as("%s: %s", tool, result).isFalse();
      JsonNode listed = listed("schema-zoo", tool);
      assertThat(listed.at("/inputSchema/type").asText()).isEqualTo("object");
      if (!listed.path("outputSchema").isNull()) {
        assertThat(listed.at("/outputSchema/type").asText()).isEqualTo("object");
        assertThat(listed.path("outputSchema").has("$schema")).isFalse();
      }
    }
    assertThat(call("schema-zoo", "out_string").path("structuredContent"))
        .isEqualTo(obj("{\"result\":\"hello\"}"));
    assertThat(call("schema-zoo", "out_number").path("structuredContent"))
        .isEqualTo(obj("{\"result\":42}"));
  }

  private static JsonNode obj(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static JsonNode arr(String json) {
    return obj(json);
  }
}

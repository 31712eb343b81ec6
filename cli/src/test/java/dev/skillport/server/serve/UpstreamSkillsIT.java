package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.InteropTools;
import dev.skillport.testsupport.LaunchedServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The skill folders dcc-mcp-core v0.20.8 ships ({@code upstream-skills/}, unchanged, with its MIT
 * license), served by {@code bin/skillport} and walked with the official TypeScript SDK client:
 * each skill loaded and each tool called with the least arguments its schema asks for; a queued job
 * is followed to its end.
 *
 * <p>Every call must work, except those listed in {@code upstream-skills-expected.json} with their
 * cause (a program or a host that is not here, arguments the least ones cannot satisfy). A listed
 * call must fail with the text recorded beside it: one that starts working fails the test until it
 * is taken off the list. No call may fail for a {@code dcc_mcp_core} name the package lacks or for
 * the form of its script. The compatibility table in {@code docs/upstream-compatibility.md} must be
 * what the walk found ({@code -Dupstream.update=true} rewrites it).
 */
class UpstreamSkillsIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TABLE_START = "<!-- upstream-table:start -->";
  private static final String TABLE_END = "<!-- upstream-table:end -->";

  /** Texts that say a call failed for Skillport's sake, not the skill's. */
  private static final List<String> OUR_FAULTS =
      List.of(
          "No module named 'dcc_mcp_core",
          "cannot import name",
          "has no meaning in a Skillport script",
          "defines no main",
          "could not write the dcc_mcp_core package");

  @TempDir static Path home;
  @TempDir static Path work;
  private static JsonNode report;
  private static Map<String, Outcome> outcomes;

  /** One tool call as the walk found it. */
  record Outcome(String skill, String tool, boolean works, String text) {
    String key() {
      return skill + "/" + tool;
    }
  }

  @BeforeAll
  static void walkUpstreamSkills() throws Exception {
    // Served from a copy: some tools write into their skill's folder (create_extension makes one).
    Path fixtures = work.resolve("upstream-skills");
    copyTree(resource("upstream-skills"), fixtures);
    List<String> args = new ArrayList<>(List.of("--no-watch", "--no-bundled"));
    for (Path root : skillRoots(fixtures)) {
      args.add("--skills");
      args.add(root.toString());
    }
    Path plan = work.resolve("plan.json");
    ObjectNode planJson = JSON.createObjectNode().put("awaitJobs", true);
    Files.writeString(plan, JSON.writeValueAsString(planJson));
    Path driver = work.resolve("walk-skills.mjs");
    Files.copy(resource("ts-client/walk-skills.mjs"), driver);
    try (LaunchedServer server = LaunchedServer.start(home, args.toArray(String[]::new))) {
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
      Path reports = LaunchedServer.jar().toAbsolutePath().getParent().resolve("failsafe-reports");
      Files.createDirectories(reports);
      Files.writeString(
          reports.resolve("upstream-skills-report.json"),
          JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
    }
    outcomes = outcomes(report);
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  /** The folders holding skill folders: each skill folder's parent. */
  static List<Path> skillRoots(Path fixtures) throws IOException {
    try (Stream<Path> files = Files.walk(fixtures)) {
      return files
          .filter(p -> p.getFileName().toString().equals("SKILL.md"))
          .map(p -> p.getParent().getParent().toAbsolutePath())
          // hello-world ships twice; one name is one skill, so examples/skills' one is served.
          .filter(root -> !root.toString().contains("remote-server"))
          .distinct()
          .sorted()
          .toList();
    }
  }

  private static Map<String, Outcome> outcomes(JsonNode report) {
    Map<String, Outcome> found = new TreeMap<>();
    for (Map.Entry<String, JsonNode> skill : report.path("skills").properties()) {
      for (Map.Entry<String, JsonNode> call : skill.getValue().path("calls").properties()) {
        if (call.getKey().startsWith("activate ")) {
          continue;
        }
        JsonNode r = call.getValue();
        JsonNode ended = r.has("job") ? r.path("job").at("/structuredContent/result") : r;
        boolean works;
        String text;
        if (r.has("sdkError")) {
          works = false;
          text = "the SDK refused the result: " + r.path("sdkError").asText();
        } else if (r.has("job")) {
          String status = r.path("job").at("/structuredContent/status").asText();
          works = status.equals("completed") && !ended.path("isError").asBoolean();
          text =
              works
                  ? ""
                  : "job "
                      + status
                      + ": "
                      + errorText(ended, r.path("job").path("structuredContent"));
        } else {
          works = !r.path("isError").asBoolean();
          text = works ? "" : r.path("text").asText();
        }
        Outcome o = new Outcome(skill.getKey(), call.getKey(), works, text);
        found.put(o.key(), o);
      }
    }
    return found;
  }

  private static String errorText(JsonNode result, JsonNode job) {
    StringBuilder text = new StringBuilder();
    for (JsonNode c : result.path("content")) {
      if (c.path("type").asText().equals("text")) {
        text.append(c.path("text").asText());
      }
    }
    return text.length() > 0 ? text.toString() : job.path("error").toString();
  }

  private static JsonNode expected() throws IOException {
    return JSON.readTree(Files.readString(resource("upstream-skills-expected.json")));
  }

  @Test
  void everyUpstreamSkill_loads_andEveryToolIsCalled() {
    int tools = 0;
    for (Map.Entry<String, JsonNode> e : report.path("skills").properties()) {
      JsonNode load = e.getValue().path("load");
      assertThat(load.at("/structuredContent/loaded").asBoolean())
          .as("%s: %s", e.getKey(), load)
          .isTrue();
      tools += e.getValue().path("listed").size();
    }
    assertThat(report.path("listErrors")).as(report.path("listErrors").toString()).isEmpty();
    // 30 folders: hello-world ships twice (examples/skills and examples/remote-server).
    assertThat(report.path("skills").size()).as("distinct skills served").isEqualTo(29);
    assertThat(outcomes).as("tools called").hasSize(tools);
    assertThat(tools).as("tools listed").isEqualTo(46);
  }

  @Test
  void noCall_failsForSkillportsSake() {
    List<String> ours = new ArrayList<>();
    for (Outcome o : outcomes.values()) {
      for (String fault : OUR_FAULTS) {
        if (!o.works() && o.text().contains(fault)) {
          ours.add(o.key() + ": " + o.text());
        }
      }
    }
    assertThat(ours).as(String.join("\n", ours)).isEmpty();
  }

  @Test
  void everyFailure_isExpectedWithItsCause_andEveryExpectedFailureStillFails() throws IOException {
    JsonNode expected = expected();
    List<String> wrong = new ArrayList<>();
    for (Outcome o : outcomes.values()) {
      JsonNode e = expected.path(o.key());
      if (e.isMissingNode()) {
        if (!o.works()) {
          wrong.add(o.key() + " fails and is not expected to: " + o.text());
        }
      } else if (o.works()) {
        wrong.add(o.key() + " works now; take it off upstream-skills-expected.json");
      } else if (!o.text().contains(e.path("text").asText())) {
        wrong.add(
            o.key() + " fails with\n  " + o.text() + "\nnot with\n  " + e.path("text").asText());
      }
    }
    for (String key : iterable(expected.fieldNames())) {
      if (!outcomes.containsKey(key)) {
        wrong.add(key + " is expected but was not called");
      }
      assertThat(expected.path(key).path("cause").asText()).as(key + " cause").isNotBlank();
    }
    assertThat(wrong).as(String.join("\n", wrong)).isEmpty();
  }

  @Test
  void compatibilityTable_inTheDocs_isWhatTheWalkFound() throws IOException {
    Path doc = InteropTools.repository().resolve("docs/upstream-compatibility.md");
    String text = Files.readString(doc);
    int start = text.indexOf(TABLE_START);
    int end = text.indexOf(TABLE_END);
    assertThat(start).as("table markers in %s", doc).isNotNegative();
    assertThat(end).isGreaterThan(start);
    String table = table(expected());
    String updated =
        text.substring(0, start + TABLE_START.length()) + "\n" + table + text.substring(end);
    if (Boolean.getBoolean("upstream.update")) {
      Files.writeString(doc, updated);
      text = updated;
    }
    assertThat(text).as("run with -Dupstream.update=true to rewrite the table").isEqualTo(updated);
  }

  private static String table(JsonNode expected) {
    int works = 0;
    int genuine = 0;
    StringBuilder rows = new StringBuilder();
    for (Outcome o : outcomes.values()) {
      String cause = expected.path(o.key()).path("cause").asText();
      if (o.works()) {
        works++;
      } else {
        genuine++;
      }
      rows.append("| `")
          .append(o.skill())
          .append("` | `")
          .append(o.tool())
          .append("` | ")
          .append(o.works() ? "works" : "fails: " + cause)
          .append(" |\n");
    }
    Map<String, Integer> skills = new TreeMap<>();
    outcomes.values().forEach(o -> skills.merge(o.skill(), 1, Integer::sum));
    return "\n"
        + skills.size()
        + " skills with tools, "
        + outcomes.size()
        + " tools: "
        + works
        + " work, "
        + genuine
        + " fail for the cause given, 0 for Skillport's sake.\n\n"
        + "| Skill | Tool | Result with the least arguments |\n"
        + "|---|---|---|\n"
        + rows
        + "\n";
  }

  private static <T> Iterable<T> iterable(java.util.Iterator<T> it) {
    return () -> it;
  }

  static Path resource(String name) {
    var url = UpstreamSkillsIT.class.getClassLoader().getResource(name);
    if (url == null) {
      throw new UncheckedIOException(new IOException("missing test resource " + name));
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}

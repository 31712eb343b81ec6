package dev.skillport.server.hostile;

import static dev.skillport.server.hostile.JsonRpcClient.JSON;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.testsupport.LaunchedServer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A server started with {@code bin/skillport} (heap capped at 512 MB, watching its root) while
 * hostile skill folders are dropped into its root one at a time: named pipes and device files where
 * files are read or served, a directory cycle, a link to a system folder, 2 GB sparse files as
 * SKILL.md, sibling, asset and declared resource, 100,000 files, 100,000 tools. Each must get its
 * verdict (a diagnostic, or a listing and a read error) within 2 s of appearing, while the good
 * skill beside it stays listed and served; after all of them an edit is still picked up, and the
 * heap's peak is reported.
 */
@EnabledOnOs(OS.LINUX)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HostileSkillsIT {
  /** How long after a folder appears its verdict may take (the watcher waits 300 ms of quiet). */
  static final Duration VERDICT_WITHIN = Duration.ofSeconds(2);

  /**
   * The bound for the two floods (100,000 files, 100,000 tools), which take 1.5-1.8 s on an idle
   * machine but several seconds on a busy shared one; it still fails anything quadratic or stuck.
   * Their times are printed with the others.
   */
  static final Duration FLOOD_VERDICT_WITHIN = Duration.ofSeconds(15);

  private static final long TWO_GB = 2L << 30;
  private static final byte[] ONE_BYTE = {'x'};
  private static final String HEAP = "512m";

  @TempDir static Path tmp;

  private Path root;
  private Path staging;
  private Path gcLog;
  private LaunchedServer server;
  private JsonRpcClient client;
  private final List<String> timings = new ArrayList<>();

  /** Writes a hostile skill into a folder. */
  @FunctionalInterface
  interface Builder {
    void build(Path dir) throws Exception;
  }

  /** Whether a hostile skill's verdict is visible; polled. */
  @FunctionalInterface
  interface Verdict {
    boolean reached(HostileSkillsIT suite, String name) throws Exception;
  }

  /** One hostile folder; {@code name} is its folder and skill name. */
  record Case(String name, Builder build, Verdict verdict, Duration within) {
    Case(String name, Builder build, Verdict verdict) {
      this(name, build, verdict, VERDICT_WITHIN);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  @BeforeAll
  void start() throws Exception {
    root = Files.createDirectories(tmp.resolve("skills"));
    staging = Files.createDirectories(tmp.resolve("staging"));
    gcLog = tmp.resolve("gc.log");
    skill(root.resolve("good"), "good", "The skill that must stay served", "");
    Files.writeString(
        Files.createDirectories(root.resolve("good/assets")).resolve("a.md"), "# A\n");
    server =
        LaunchedServer.start(
            Files.createDirectories(tmp.resolve("home")),
            Map.of("JAVA_OPTS", "-Xmx" + HEAP + " -Xlog:gc:file=" + gcLog),
            "--skills",
            root.toString(),
            "--preload",
            "skillport-diagnostics");
    client = new JsonRpcClient(server.uri());
  }

  @AfterAll
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    System.out.println("HostileSkillsIT verdicts: " + String.join(", ", timings));
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "fifo-tools",
            dir -> {
              skill(dir, "fifo-tools", "d", "tools: tools.yaml");
              mkfifo(dir.resolve("tools.yaml"));
            },
            diagnostic("SIBLING_UNREADABLE", "named pipe")),
        new Case(
            "fifo-prompts",
            dir -> {
              skill(dir, "fifo-prompts", "d", "prompts: prompts/*.prompt.yaml");
              mkfifo(dir.resolve("prompts/a.prompt.yaml"));
            },
            diagnostic("SIBLING_UNREADABLE", "named pipe")),
        new Case(
            "device-tools",
            dir -> {
              skill(dir, "device-tools", "d", "tools: tools.yaml");
              mknodOrFifo(dir.resolve("tools.yaml"));
            },
            diagnostic("SIBLING_UNREADABLE", "not a regular file")),
        new Case(
            "sparse-skill-md",
            dir -> sparse(dir.resolve("SKILL.md"), "---\nname: sparse-skill-md\n", TWO_GB),
            diagnostic("SKILL_MD_TOO_LARGE", String.valueOf(TWO_GB))),
        new Case(
            "sparse-tools",
            dir -> {
              skill(dir, "sparse-tools", "d", "tools: tools.yaml");
              sparse(dir.resolve("tools.yaml"), "tools:\n", TWO_GB);
            },
            diagnostic("SIBLING_TOO_LARGE", String.valueOf(TWO_GB))),
        new Case(
            "fifo-asset",
            dir -> {
              skill(dir, "fifo-asset", "d", "");
              mkfifo(dir.resolve("assets/pipe.txt"));
            },
            listedAndRefused("assets/pipe.txt", "named pipe")),
        new Case(
            "device-asset",
            dir -> {
              skill(dir, "device-asset", "d", "");
              mknodOrFifo(dir.resolve("assets/dev.bin"));
            },
            listedAndRefused("assets/dev.bin", "not a regular file")),
        new Case(
            "sparse-asset",
            dir -> {
              skill(dir, "sparse-asset", "d", "");
              sparse(dir.resolve("assets/big.bin"), "x", TWO_GB);
            },
            listedAndRefused("assets/big.bin", String.valueOf(TWO_GB))),
        new Case(
            "sparse-resource",
            dir -> {
              skill(dir, "sparse-resource", "d", "resources: resources.yaml");
              Files.writeString(
                  dir.resolve("resources.yaml"),
                  "resources:\n  - uri: \"skill://sparse-resource/big\"\n    name: big\n"
                      + "    mimeType: application/octet-stream\n"
                      + "    source: {type: file, path: data/big.bin}\n");
              sparse(dir.resolve("data/big.bin"), "x", TWO_GB);
            },
            declaredAndRefused("skill://sparse-resource/big", String.valueOf(TWO_GB))),
        new Case(
            "cycle",
            dir -> {
              skill(dir, "cycle", "d", "");
              Files.writeString(
                  Files.createDirectories(dir.resolve("assets")).resolve("a.txt"), "a");
              Files.createSymbolicLink(dir.resolve("assets/up"), Path.of(".."));
            },
            listedExactly("SKILL.md", "assets/a.txt")),
        new Case(
            "link-out",
            dir -> {
              skill(dir, "link-out", "d", "");
              Files.createDirectories(dir.resolve("assets"));
              Files.createSymbolicLink(dir.resolve("assets/usr"), Path.of("/usr"));
              Files.createSymbolicLink(dir.resolve("assets/passwd"), Path.of("/etc/passwd"));
            },
            listedExactly("SKILL.md")),
        new Case(
            "many-files",
            dir -> {
              skill(dir, "many-files", "d", "");
              for (int d = 0; d < 100; d++) {
                Path sub = Files.createDirectories(dir.resolve("assets/d" + d));
                for (int f = 0; f < 1000; f++) {
                  Files.write(sub.resolve("f" + f + ".txt"), ONE_BYTE);
                }
              }
            },
            listedAtLeast(1000),
            FLOOD_VERDICT_WITHIN),
        new Case(
            "many-tools",
            dir -> {
              skill(dir, "many-tools", "d", "tools: tools.yaml");
              StringBuilder tools = new StringBuilder("tools:\n");
              for (int i = 0; i < 100_000; i++) {
                tools.append("  - name: t").append(i).append('\n');
              }
              Files.writeString(dir.resolve("tools.yaml"), tools);
            },
            toolCount(100_000),
            FLOOD_VERDICT_WITHIN));
  }

  @Order(1)
  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void hostileFolder_getsItsVerdictWithinTwoSeconds_andTheGoodSkillStaysServed(Case c)
      throws Exception {
    Path staged = Files.createDirectories(staging.resolve(c.name()));
    c.build().build(staged);
    Path placed = root.resolve(c.name());

    long start = System.nanoTime();
    Files.move(staged, placed, StandardCopyOption.ATOMIC_MOVE);
    boolean reached = false;
    long deadline = start + TimeUnit.SECONDS.toNanos(30);
    while (!reached && System.nanoTime() < deadline) {
      reached = c.verdict().reached(this, c.name());
      if (!reached) {
        Thread.sleep(25);
      }
    }
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    timings.add(c.name() + " " + took.toMillis() + " ms");

    assertThat(reached).as(c.name() + " verdict\n" + server.stderr()).isTrue();
    assertThat(took).as(c.name()).isLessThanOrEqualTo(c.within());
    assertThat(server.isAlive()).isTrue();
    assertGoodServed();
    // Out of the root again, so that the next reload reads only the next case.
    Files.move(placed, staging.resolve(c.name() + "-done"), StandardCopyOption.ATOMIC_MOVE);
  }

  @Order(2)
  @Test
  void afterEveryHostileFolder_anEditIsStillPickedUp() throws Exception {
    skill(root.resolve("good"), "good", "Edited after the hostile folders", "");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    String description = "";
    while (System.nanoTime() < deadline && !description.startsWith("Edited")) {
      description = entry("good").path("frontmatter").path("description").asText();
      Thread.sleep(50);
    }
    assertThat(description).isEqualTo("Edited after the hostile folders");
  }

  @Order(3)
  @Test
  void heap_staysUnderItsCap_andThePeakIsReported() throws Exception {
    server.close();
    assertThat(server.stderr()).doesNotContain("OutOfMemoryError");
    long peak = 0;
    long live = 0;
    Matcher m = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)").matcher(Files.readString(gcLog));
    while (m.find()) {
      peak = Math.max(peak, Long.parseLong(m.group(1)));
      live = Math.max(live, Long.parseLong(m.group(2)));
    }
    System.out.println(
        "HostileSkillsIT heap: peak "
            + peak
            + " MB before a collection, at most "
            + live
            + " MB live after one (cap "
            + HEAP
            + ")");
    assertThat(peak).isPositive().isLessThanOrEqualTo(512);
  }

  // ---- verdicts

  static Verdict diagnostic(String code, String text) {
    return (suite, name) -> {
      JsonNode result =
          suite.client.call("skill_diagnostics", JSON.createObjectNode().put("skill_name", name));
      for (JsonNode d : result.path("structuredContent").path("diagnostics")) {
        if (d.path("code").asText().equals(code) && d.path("message").asText().contains(text)) {
          return true;
        }
      }
      return false;
    };
  }

  static Verdict listedExactly(String... files) {
    return (suite, name) -> {
      JsonNode entry = suite.entry(name);
      return entry != null && suite.files(entry, name).equals(List.of(files));
    };
  }

  static Verdict listedAtLeast(int count) {
    return (suite, name) -> {
      JsonNode entry = suite.entry(name);
      return entry != null && suite.files(entry, name).size() >= count;
    };
  }

  static Verdict listedAndRefused(String file, String why) {
    return (suite, name) -> {
      JsonNode entry = suite.entry(name);
      if (entry == null || !suite.files(entry, name).equals(List.of("SKILL.md"))) {
        return false;
      }
      JsonNode read = suite.client.read("skill://" + name + "/" + file);
      assertThat(read.path("error").path("code").asInt()).as(read.toString()).isEqualTo(-32602);
      assertThat(read.path("error").path("message").asText()).contains(why);
      return true;
    };
  }

  static Verdict declaredAndRefused(String uri, String why) {
    return (suite, name) -> {
      JsonNode loaded =
          suite.client.call("load_skill", JSON.createObjectNode().put("skill_name", name));
      if (loaded.path("isError").asBoolean()) {
        return false;
      }
      JsonNode read = suite.client.read(uri);
      assertThat(read.path("error").path("code").asInt()).as(read.toString()).isEqualTo(-32602);
      assertThat(read.path("error").path("message").asText()).contains(why);
      return true;
    };
  }

  static Verdict toolCount(int count) {
    return (suite, name) -> {
      JsonNode result =
          suite.client.call("get_skill_info", JSON.createObjectNode().put("skill_name", name));
      return !result.path("isError").asBoolean(true)
          && result.toString().contains("\"tool_count\":" + count);
    };
  }

  // ---- helpers

  /** The skills/list entry of a skill, or null. */
  JsonNode entry(String name) throws Exception {
    ObjectNode params = JSON.createObjectNode();
    while (true) {
      JsonNode page = client.request("skills/list", params).path("result");
      for (JsonNode s : page.path("skills")) {
        if (s.path("frontmatter").path("name").asText().equals(name)) {
          return s;
        }
      }
      if (!page.hasNonNull("nextCursor")) {
        return null;
      }
      params = JSON.createObjectNode().put("cursor", page.get("nextCursor").asText());
    }
  }

  /** The files of an entry, relative to the skill. */
  List<String> files(JsonNode entry, String name) {
    List<String> out = new ArrayList<>();
    String prefix = "skill://" + name + "/";
    for (JsonNode r : entry.path("resources")) {
      out.add(r.path("uri").asText().substring(prefix.length()));
    }
    return out;
  }

  private void assertGoodServed() throws Exception {
    JsonNode good = entry("good");
    assertThat(good).as("good is listed").isNotNull();
    assertThat(files(good, "good")).containsExactly("SKILL.md", "assets/a.md");
    JsonNode read = client.read("skill://good/assets/a.md");
    assertThat(read.path("result").path("contents").get(0).path("text").asText())
        .isEqualTo("# A\n");
  }

  static void skill(Path dir, String name, String description, String dccLine) throws IOException {
    Files.createDirectories(dir);
    String metadata = dccLine.isEmpty() ? "" : "metadata:\n  dcc-mcp:\n    " + dccLine + "\n";
    Files.writeString(
        dir.resolve("SKILL.md"),
        "---\nname: " + name + "\ndescription: " + description + "\n" + metadata + "---\nBody.\n");
  }

  static void mkfifo(Path path) throws Exception {
    Files.createDirectories(path.getParent());
    Process p = new ProcessBuilder("mkfifo", path.toString()).start();
    assertThat(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0).as("mkfifo").isTrue();
  }

  /** A character device (/dev/null's numbers) where allowed, else a FIFO in its place. */
  static void mknodOrFifo(Path path) throws Exception {
    Files.createDirectories(path.getParent());
    Process p = new ProcessBuilder("mknod", path.toString(), "c", "1", "3").start();
    if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
      mkfifo(path);
    }
  }

  static void sparse(Path path, String head, long size) throws IOException {
    Files.createDirectories(path.getParent());
    try (FileChannel c =
        FileChannel.open(
            path,
            StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE,
            StandardOpenOption.SPARSE)) {
      c.write(ByteBuffer.wrap(head.getBytes(StandardCharsets.UTF_8)));
      c.write(ByteBuffer.wrap(new byte[] {'\n'}), size - 1);
    }
  }
}

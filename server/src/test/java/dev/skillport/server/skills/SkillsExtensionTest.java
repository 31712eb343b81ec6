package dev.skillport.server.skills;

import static dev.skillport.server.resources.SurfaceServer.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.loader.yaml.SafeYaml;
import dev.skillport.loader.yaml.YamlLimits;
import dev.skillport.loader.yaml.YamlResult;
import dev.skillport.server.resources.SurfaceServer;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP Skills extension end to end: {@code skills/list}, {@code skills/get} and {@code
 * resources/directory/read} against skill folders on disk, checked against the disk itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SkillsExtensionTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final int PLAIN_SKILLS = 55;
  private static final String RICH_FRONTMATTER =
      """
      name: rich
      description: "Rich: frontmatter kept verbatim"
      license: Apache-2.0
      compatibility: Needs python 3
      allowed-tools: Bash Read
      x-custom-key: {nested: [1, 2.5, true, null], "quoted key": "é"}
      metadata:
        author: someone
        dcc-mcp:
          tags: [a, b]
          version: 1.2.0
      """;
  private static final byte[] NOT_UTF8 = {(byte) 0xff, (byte) 0xfe, 0, 'x', (byte) 0xc3};

  @TempDir static Path skills;
  private SurfaceServer server;
  private SurfaceServer.Raw raw;

  @BeforeAll
  void start() throws Exception {
    for (int i = 0; i < PLAIN_SKILLS; i++) {
      String name = String.format("plain-%02d", i);
      write(
          skills.resolve(name + "/SKILL.md"),
          "---\nname: " + name + "\ndescription: Plain skill " + i + "\n---\nDo " + i + ".\n");
      write(skills.resolve(name + "/references/more.md"), "More about " + i + ".\n");
    }
    write(skills.resolve("rich/SKILL.md"), "---\n" + RICH_FRONTMATTER + "---\r\nBody text.\r\n");
    write(skills.resolve("rich/references/guide.md"), "# Guide\n\nÜberall.\n");
    write(skills.resolve("rich/scripts/run.py"), "print('hi')\n");
    write(skills.resolve("rich/assets/deep/x.txt"), "deep");
    Files.write(skills.resolve("rich/assets/bin.dat"), NOT_UTF8);
    Files.write(skills.resolve("rich/notes.txt"), NOT_UTF8);
    write(skills.resolve("rich/.hidden"), "not served");
    server = SurfaceServer.start(skills, List.of());
    raw = server.raw();
  }

  @AfterAll
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private JsonNode result(String method, JsonNode params) throws Exception {
    JsonNode response = raw.request(method, params);
    assertThat(response.has("error")).as("%s %s", method, response).isFalse();
    return response.get("result");
  }

  private int errorCode(String method, JsonNode params) throws Exception {
    return raw.request(method, params).path("error").path("code").asInt();
  }

  private static ObjectNode uri(String uri) {
    return NODES.objectNode().put("uri", uri);
  }

  private static String sha256(byte[] bytes) throws Exception {
    return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  @Test
  void initialize_declaresSkillsExtensionAndResources() {
    JsonNode caps = raw.initializeResult().get("capabilities");
    assertThat(caps.at("/extensions/io.modelcontextprotocol~1skills/directoryRead").asBoolean())
        .isTrue();
    assertThat(caps.has("resources")).isTrue();
  }

  @Test
  void skillsList_followingCursors_visitsEverySkillExactlyOnce() throws Exception {
    List<String> seen = new ArrayList<>();
    int pages = 0;
    String cursor = null;
    do {
      ObjectNode params = NODES.objectNode();
      if (cursor != null) {
        params.put("cursor", cursor);
      }
      JsonNode page = result("skills/list", params);
      assertThat(page.get("resultType").asText()).isEqualTo("complete");
      page.get("skills").forEach(s -> seen.add(s.get("uri").asText()));
      cursor = page.hasNonNull("nextCursor") ? page.get("nextCursor").asText() : null;
      pages++;
    } while (cursor != null);
    assertThat(pages).isGreaterThan(1);
    assertThat(seen).doesNotHaveDuplicates().hasSize(PLAIN_SKILLS + 1);
    assertThat(seen).contains("skill://rich/SKILL.md", "skill://plain-00/SKILL.md");
  }

  @Test
  void skillsList_malformedCursor_isInvalidParams() throws Exception {
    assertThat(errorCode("skills/list", NODES.objectNode().put("cursor", "zzz"))).isEqualTo(-32602);
  }

  @Test
  void skillsGet_frontmatter_roundTripsKeyForKey() throws Exception {
    JsonNode served = result("skills/get", uri("skill://rich/SKILL.md")).get("skill");
    YamlResult parsed = SafeYaml.parse(RICH_FRONTMATTER, YamlLimits.FRONTMATTER, 0);
    JsonNode expected = ((YamlResult.Parsed) parsed).document().root();
    JsonNode frontmatter = served.get("frontmatter");
    List<String> servedKeys = new ArrayList<>();
    frontmatter.fieldNames().forEachRemaining(servedKeys::add);
    List<String> expectedKeys = new ArrayList<>();
    expected.fieldNames().forEachRemaining(expectedKeys::add);
    assertThat(servedKeys).isEqualTo(expectedKeys);
    assertThat(
            frontmatter.equals(
                (a, b) ->
                    a.isNumber() && b.isNumber()
                        ? Double.compare(a.asDouble(), b.asDouble())
                        : a.equals(b) ? 0 : 1,
                expected))
        .as("served %s, file %s", frontmatter, expected)
        .isTrue();
  }

  @Test
  void skillsGet_manifest_listsEveryFileWithDigestsOfDiskAndOfServedBytes() throws Exception {
    JsonNode skill = result("skills/get", uri("skill://rich/SKILL.md")).get("skill");
    Path dir = skills.resolve("rich");
    Set<String> expected = new TreeSet<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().startsWith("."))
          .forEach(p -> expected.add("skill://rich/" + dir.relativize(p).toString()));
    }
    Set<String> listed = new TreeSet<>();
    for (JsonNode entry : skill.get("resources")) {
      String u = entry.get("uri").asText();
      listed.add(u);
      byte[] disk = Files.readAllBytes(dir.resolve(u.substring("skill://rich/".length())));
      assertThat(entry.get("digest").asText()).as(u).isEqualTo(sha256(disk));
      assertThat(entry.get("size").asLong()).as(u).isEqualTo(disk.length);
      JsonNode contents = result("resources/read", uri(u)).get("contents").get(0);
      byte[] servedBytes =
          contents.has("text")
              ? contents.get("text").asText().getBytes(StandardCharsets.UTF_8)
              : Base64.getDecoder().decode(contents.get("blob").asText());
      assertThat(sha256(servedBytes)).as("served %s", u).isEqualTo(entry.get("digest").asText());
    }
    assertThat(listed).isEqualTo(expected).hasSize(6);
  }

  @Test
  void skillsGet_textFileThatIsNotUtf8_isServedAsExactBlob() throws Exception {
    JsonNode contents = result("resources/read", uri("skill://rich/notes.txt")).get("contents");
    assertThat(contents.get(0).get("mimeType").asText()).isEqualTo("text/plain");
    assertThat(Base64.getDecoder().decode(contents.get(0).get("blob").asText()))
        .isEqualTo(NOT_UTF8);
  }

  @Test
  void skillsGet_unknownSkillOrNotSkillMd_isInvalidParams() throws Exception {
    for (String u :
        List.of("skill://nope/SKILL.md", "skill://rich/references/guide.md", "file:///etc")) {
      assertThat(errorCode("skills/get", uri(u))).as(u).isEqualTo(-32602);
    }
  }

  @Test
  void directoryRead_listsDirectChildrenWithDirectoryType() throws Exception {
    JsonNode root = result("resources/directory/read", uri("skill://rich")).get("resources");
    List<String> names = new ArrayList<>();
    root.forEach(r -> names.add(r.get("name").asText() + " " + r.get("mimeType").asText()));
    assertThat(names)
        .containsExactly(
            "SKILL.md text/markdown",
            "assets inode/directory",
            "notes.txt text/plain",
            "references inode/directory",
            "scripts inode/directory");
    JsonNode assets =
        result("resources/directory/read", uri("skill://rich/assets")).get("resources");
    assertThat(assets.get(0).get("uri").asText()).isEqualTo("skill://rich/assets/bin.dat");
    assertThat(assets.get(1).get("uri").asText()).isEqualTo("skill://rich/assets/deep");
    assertThat(assets).hasSize(2);
  }

  @Test
  void directoryRead_fileOrUnknown_isInvalidParams() throws Exception {
    for (String u : List.of("skill://rich/SKILL.md", "skill://rich/nope", "skill://nope")) {
      assertThat(errorCode("resources/directory/read", uri(u))).as(u).isEqualTo(-32602);
    }
  }

  @Test
  void resourcesList_followingCursors_visitsEverySkillFileOnce() {
    try (McpSyncClient client = server.client(s -> s)) {
      List<String> seen = new ArrayList<>();
      String cursor = null;
      int pages = 0;
      do {
        McpSchema.ListResourcesResult page = client.listResources(cursor);
        page.resources().forEach(r -> seen.add(r.uri()));
        cursor = page.nextCursor();
        pages++;
      } while (cursor != null);
      assertThat(pages).isGreaterThan(1);
      assertThat(seen).doesNotHaveDuplicates().hasSize(2 * PLAIN_SKILLS + 6);
    }
  }
}

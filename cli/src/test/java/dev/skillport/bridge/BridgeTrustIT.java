package dev.skillport.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.runtime.jobs.RawMcpClient;
import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.LaunchedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The operator's trust, on servers started with {@code bin/skillport}: an untrusted bridge is
 * listed with a diagnostic saying how to trust it and never started; one trusted through the trust
 * file (written by {@code skillport trust-bridge}) or {@code --trust-bridge} runs; editing its
 * mcp.yaml while the server runs stops it, and its calls are refused with the hint. Trust binds
 * what runs: an edited program (Python or Node), an edited module it imports or a changed
 * environment name is refused before anything starts, also when a crashed bridge would be started
 * again, and a copy of the skill in a root listed first is not trusted; a marker file the programs
 * write when they start shows they never ran.
 */
class BridgeTrustIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  @TempDir Path tmp;

  @Test
  void untrustedBridge_isListedWithHowToTrustIt_andNeverStarted() throws Exception {
    Path skills = Files.createDirectories(tmp.resolve("skills"));
    BridgeFixtures.fixture(skills, "fx", "good", "");
    try (LaunchedServer server =
        LaunchedServer.start(home, "--no-watch", "--no-bundled", "--skills", skills.toString())) {
      RawMcpClient client = new RawMcpClient(server.uri());

      JsonNode info = call(client, "get_skill_info", "skill_name", "fx");
      JsonNode loaded = call(client, "load_skill", "skill_name", "fx");

      assertThat(info.path("structuredContent").path("diagnostics").toString())
          .contains("MCP_BRIDGE_UNTRUSTED")
          .contains("--trust-bridge fx")
          .contains("skillport trust-bridge");
      assertThat(loaded.path("isError").asBoolean()).as(loaded.toString()).isTrue();
      assertThat(loaded.toString()).contains("MCP_BRIDGE_UNTRUSTED").contains("--trust-bridge fx");

      // The same refusal for a 2026-07-28 client, which loads without a session.
      JsonNode summary =
          BridgeFixtures.smoke(
              2,
              "--negotiate",
              "auto",
              "--allow-tool-error",
              "--url",
              server.uri().toString(),
              "--call",
              "load_skill",
              "--args",
              "{\"skill_name\":\"fx\"}");
      assertThat(summary.path("protocolVersion").asText()).isEqualTo("2026-07-28");
      assertThat(summary.path("calls").get(0).toString())
          .contains("MCP_BRIDGE_UNTRUSTED")
          .contains("--trust-bridge fx");
      assertThat(fixtureChild(server)).isEmpty();
    }
  }

  @Test
  void trustFile_runsTheBridge_untilItsMcpYamlChanges() throws Exception {
    Path skills = Files.createDirectories(tmp.resolve("skills"));
    Path dir = BridgeFixtures.fixture(skills, "fx", "good", "");
    Path trustFile = tmp.resolve("trusted.yaml");
    ExternalCommand.Outcome trusted =
        LaunchedServer.command(
                home, "trust-bridge", "--trust-file", trustFile.toString(), dir.toString())
            .run();
    assertThat(trusted.exit()).as(trusted.toString()).isZero();
    assertThat(trusted.stdout()).contains("trusted fx: " + BridgeFixtures.node());
    assertThat(Files.readString(trustFile)).contains("\"fx\"").contains("sha256:");

    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--no-bundled",
            "--skills",
            skills.toString(),
            "--trust-file",
            trustFile.toString())) {
      RawMcpClient client = new RawMcpClient(server.uri());
      JsonNode loaded = call(client, "load_skill", "skill_name", "fx");
      assertThat(loaded.path("isError").asBoolean()).as(loaded.toString()).isFalse();
      assertThat(call(client, "fx__echo", "text", "trusted").toString()).contains("echo: trusted");
      ProcessHandle child = fixtureChild(server).orElseThrow();

      // Edited while the server runs: the hot reload sees another digest.
      Files.writeString(
          dir.resolve("mcp.yaml"), Files.readString(dir.resolve("mcp.yaml")) + "timeout_secs: 9\n");
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  call(client, "get_skill_info", "skill_name", "fx")
                      .toString()
                      .contains("MCP_BRIDGE_CHANGED"));
      await().atMost(Duration.ofSeconds(10)).until(() -> !child.isAlive());
      JsonNode refused = call(client, "fx__echo", "text", "edited");
      assertThat(refused.path("isError").asBoolean()).isTrue();
      assertThat(refused.path("structuredContent").path("code").asText())
          .isEqualTo("MCP_BRIDGE_CHANGED");
      assertThat(refused.path("structuredContent").path("hint").asText())
          .contains("skillport trust-bridge");
      assertThat(fixtureChild(server)).isEmpty();

      // Trusted again by the operator: the next call starts the edited bridge.
      assertThat(
              LaunchedServer.command(
                      home, "trust-bridge", "--trust-file", trustFile.toString(), dir.toString())
                  .run()
                  .exit())
          .isZero();
      assertThat(call(client, "fx__echo", "text", "retrusted").toString())
          .contains("echo: retrusted");
    }
  }

  @Test
  void trustBridgeFlag_pinsTheBridgeAsFirstRead() throws Exception {
    Path skills = Files.createDirectories(tmp.resolve("skills"));
    Path dir = BridgeFixtures.fixture(skills, "fx", "good", "");
    try (LaunchedServer server =
        LaunchedServer.start(
            home, "--no-bundled", "--skills", skills.toString(), "--trust-bridge", "fx")) {
      RawMcpClient client = new RawMcpClient(server.uri());
      assertThat(call(client, "load_skill", "skill_name", "fx").path("isError").asBoolean())
          .isFalse();
      assertThat(call(client, "fx__echo", "text", "pinned").toString()).contains("echo: pinned");

      Files.writeString(
          dir.resolve("mcp.yaml"),
          Files.readString(dir.resolve("mcp.yaml"))
              .replace("\"good\"", "\"good\", \"--grandchild\""));

      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  call(client, "fx__echo", "text", "x")
                      .path("structuredContent")
                      .path("code")
                      .asText()
                      .equals("MCP_BRIDGE_CHANGED"));
      JsonNode info = call(client, "get_skill_info", "skill_name", "fx");
      assertThat(info.toString())
          .contains("changed since this server trusted it at start")
          .contains("its arguments changed");
    }
  }

  @Test
  void secretWrittenInMcpYaml_isNeverRun_andTrustBridgeRefusesIt() throws Exception {
    Path skills = Files.createDirectories(tmp.resolve("skills"));
    Path dir =
        BridgeFixtures.skill(
            skills,
            "fx",
            BridgeFixtures.node(),
            java.util.List.of(BridgeFixtures.fixtureServer(), "good"),
            Map.of("API_TOKEN", "written-in-the-file-0042"),
            "");
    ExternalCommand.Outcome trusted =
        LaunchedServer.command(
                home,
                "trust-bridge",
                "--trust-file",
                tmp.resolve("t.yaml").toString(),
                dir.toString())
            .run();
    assertThat(trusted.exit()).isEqualTo(1);
    assertThat(trusted.stderr()).contains("API_TOKEN").doesNotContain("written-in-the-file-0042");

    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--no-bundled",
            "--skills",
            skills.toString(),
            "--trust-bridge",
            "fx")) {
      RawMcpClient client = new RawMcpClient(server.uri());
      JsonNode loaded = call(client, "load_skill", "skill_name", "fx");
      assertThat(loaded.toString())
          .contains("MCP_BRIDGE_SECRET_INLINE")
          .contains("API_TOKEN: ${API_TOKEN}")
          .doesNotContain("written-in-the-file-0042");
      assertThat(fixtureChild(server)).isEmpty();
    }
  }

  /** What is edited in a trusted bridge's folder after {@code skillport trust-bridge}. */
  enum Edit {
    PYTHON_PROGRAM("server.py changed"),
    PYTHON_IMPORTED_MODULE("greeting.py changed"),
    NODE_PROGRAM("server.mjs changed"),
    ENVIRONMENT_NAME("now [BRIDGE_MARKER, EXTRA_NAME], trusted [BRIDGE_MARKER]");

    final String said;

    Edit(String said) {
      this.said = said;
    }

    Path skill(Path root, Path marker) throws Exception {
      return this == NODE_PROGRAM
          ? BridgeFixtures.nodeSkill(root, "fx", marker)
          : BridgeFixtures.pythonSkill(root, "fx", marker);
    }

    void apply(Path dir) throws Exception {
      switch (this) {
        case PYTHON_PROGRAM ->
            append(dir.resolve("server.py"), "\nprint('edited', file=sys.stderr)\n");
        case PYTHON_IMPORTED_MODULE ->
            Files.writeString(
                dir.resolve("greeting.py"),
                Files.readString(dir.resolve("greeting.py")).replace("hello ", "edited "));
        case NODE_PROGRAM -> append(dir.resolve("server.mjs"), "\n// edited\n");
        case ENVIRONMENT_NAME ->
            Files.writeString(
                dir.resolve("mcp.yaml"),
                Files.readString(dir.resolve("mcp.yaml"))
                    .replace("env:\n", "env:\n  EXTRA_NAME: \"x\"\n"));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Edit.class)
  void trustedThenEdited_isRefusedAsChanged_andItsProgramNeverRuns(Edit edit) throws Exception {
    Path skills = Files.createDirectories(tmp.resolve("skills"));
    Path marker = tmp.resolve("started.txt");
    Path dir = edit.skill(skills, marker);
    Path trustFile = tmp.resolve("trusted.yaml");
    trust(trustFile, dir);
    edit.apply(dir);

    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--no-bundled",
            "--skills",
            skills.toString(),
            "--trust-file",
            trustFile.toString())) {
      RawMcpClient client = new RawMcpClient(server.uri());
      JsonNode loaded = call(client, "load_skill", "skill_name", "fx");

      assertThat(loaded.path("isError").asBoolean()).as(loaded.toString()).isTrue();
      assertThat(loaded.toString())
          .contains("MCP_BRIDGE_CHANGED")
          .contains(edit.said)
          .contains("skillport trust-bridge " + dir);
      assertThat(call(client, "get_skill_info", "skill_name", "fx").toString())
          .contains("MCP_BRIDGE_CHANGED")
          .contains(edit.said);
      assertThat(marker).doesNotExist();
      assertThat(bridgeChild(server)).isEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = Edit.class,
      names = {"PYTHON_IMPORTED_MODULE", "NODE_PROGRAM"})
  void trustedWhenTheCatalogWasRead_editedBeforeItsFirstStart_isNotStarted(Edit edit)
      throws Exception {
    Path skills = Files.createDirectories(tmp.resolve("skills"));
    Path marker = tmp.resolve("started.txt");
    Path dir = edit.skill(skills, marker);
    Path trustFile = tmp.resolve("trusted.yaml");
    trust(trustFile, dir);

    // No file watching and no catalog read after the edit: only the check before the start sees it.
    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--no-bundled",
            "--skills",
            skills.toString(),
            "--trust-file",
            trustFile.toString())) {
      RawMcpClient client = new RawMcpClient(server.uri());
      assertThat(call(client, "get_skill_info", "skill_name", "fx").toString())
          .doesNotContain("MCP_BRIDGE_");
      edit.apply(dir);

      JsonNode loaded = call(client, "load_skill", "skill_name", "fx");

      assertThat(loaded.path("isError").asBoolean()).as(loaded.toString()).isTrue();
      assertThat(loaded.toString())
          .contains("MCP_BRIDGE_CHANGED")
          .contains(edit.said)
          .contains("skillport trust-bridge " + dir);
      assertThat(marker).doesNotExist();
      assertThat(bridgeChild(server)).isEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = Edit.class,
      names = {"PYTHON_IMPORTED_MODULE", "NODE_PROGRAM"})
  void crashedBridge_editedWhileItRan_isNotStartedAgain(Edit edit) throws Exception {
    Path skills = Files.createDirectories(tmp.resolve("skills"));
    Path marker = tmp.resolve("started.txt");
    Path dir = edit.skill(skills, marker);
    Path trustFile = tmp.resolve("trusted.yaml");
    trust(trustFile, dir);
    boolean python = edit != Edit.NODE_PROGRAM;

    // No file watching: only the check before each start sees the edit.
    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--no-bundled",
            "--skills",
            skills.toString(),
            "--trust-file",
            trustFile.toString())) {
      RawMcpClient client = new RawMcpClient(server.uri());
      JsonNode loaded = call(client, "load_skill", "skill_name", "fx");
      assertThat(loaded.path("isError").asBoolean()).as(loaded.toString()).isFalse();
      JsonNode answer =
          python
              ? call(client, "fx__greet", "who", "you")
              : call(client, "fx__echo", "text", "you");
      assertThat(answer.toString()).contains(python ? "hello you" : "echo: you");
      assertThat(Files.readAllLines(marker)).hasSize(1);

      edit.apply(dir);
      ProcessHandle child = bridgeChild(server).orElseThrow();
      child.destroyForcibly();

      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  call(client, "get_skill_info", "skill_name", "fx")
                      .toString()
                      .contains("MCP_BRIDGE_CHANGED"));
      JsonNode refused =
          python ? call(client, "fx__greet", "who", "x") : call(client, "fx__echo", "text", "x");
      assertThat(refused.path("structuredContent").path("code").asText())
          .as(refused.toString())
          .isEqualTo("MCP_BRIDGE_CHANGED");
      assertThat(refused.path("structuredContent").path("message").asText()).contains(edit.said);
      assertThat(refused.path("structuredContent").path("hint").asText())
          .contains("skillport trust-bridge " + dir);
      assertThat(Files.readAllLines(marker)).as("starts").hasSize(1);
      assertThat(bridgeChild(server)).isEmpty();
    }
  }

  @Test
  void sameNameInARootListedFirst_isUntrusted_andItsProgramNeverRuns() throws Exception {
    Path trusted = Files.createDirectories(tmp.resolve("trusted-root"));
    Path first = Files.createDirectories(tmp.resolve("first-root"));
    Path marker = tmp.resolve("started.txt");
    Path dir = BridgeFixtures.pythonSkill(trusted, "fx", marker);
    Path trustFile = tmp.resolve("trusted.yaml");
    trust(trustFile, dir);
    // SKILL.md and mcp.yaml copied as they are; the program beside them is another one.
    Path copy = BridgeFixtures.pythonSkill(first, "fx", marker);
    append(copy.resolve("greeting.py"), "\nimport os\n");

    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--no-bundled",
            "--skills",
            first.toString(),
            "--skills",
            trusted.toString(),
            "--trust-file",
            trustFile.toString())) {
      RawMcpClient client = new RawMcpClient(server.uri());
      JsonNode loaded = call(client, "load_skill", "skill_name", "fx");

      assertThat(loaded.path("isError").asBoolean()).as(loaded.toString()).isTrue();
      assertThat(loaded.toString())
          .contains("MCP_BRIDGE_UNTRUSTED")
          .contains("trusts a skill of that name in another folder")
          .contains("skillport trust-bridge " + copy);
      assertThat(marker).doesNotExist();
      assertThat(bridgeChild(server)).isEmpty();
    }
  }

  private void trust(Path trustFile, Path dir) {
    ExternalCommand.Outcome trusted =
        LaunchedServer.command(
                home, "trust-bridge", "--trust-file", trustFile.toString(), dir.toString())
            .run();
    assertThat(trusted.exit()).as(trusted.toString()).isZero();
    assertThat(trusted.stdout()).contains("trusted fx: ").contains("folder files: ");
  }

  private static void append(Path file, String text) throws Exception {
    Files.writeString(file, Files.readString(file) + text);
  }

  /** The bridged program started from a skill folder ({@code server.py} or {@code server.mjs}). */
  static Optional<ProcessHandle> bridgeChild(LaunchedServer server) {
    return ProcessHandle.of(server.pid())
        .flatMap(
            p ->
                p.descendants()
                    .filter(ProcessHandle::isAlive)
                    .filter(
                        d -> {
                          String line = d.info().commandLine().orElse("");
                          return line.contains("server.py") || line.contains("server.mjs");
                        })
                    .findFirst());
  }

  private static JsonNode call(RawMcpClient client, String tool, String... keyValues)
      throws Exception {
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    ObjectNode args = params.putObject("arguments");
    for (int i = 0; i < keyValues.length; i += 2) {
      args.put(keyValues[i], keyValues[i + 1]);
    }
    return client.call(params);
  }

  static Optional<ProcessHandle> fixtureChild(LaunchedServer server) {
    return ProcessHandle.of(server.pid())
        .flatMap(
            p ->
                p.descendants()
                    .filter(ProcessHandle::isAlive)
                    .filter(d -> d.info().commandLine().orElse("").contains("fixture-server.mjs"))
                    .findFirst());
  }
}

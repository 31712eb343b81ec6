package dev.skillport.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.InteropTools;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Bridge skill folders for tests, and the servers they bridge. */
final class BridgeFixtures {
  private static final ObjectMapper JSON = new ObjectMapper();

  private BridgeFixtures() {}

  /** The Node 22 binary the interop tools run on. */
  static String node() {
    return InteropTools.node().toString();
  }

  /** {@code src/test/resources/bridges/fixture-server.mjs}, as the build copied it. */
  static String fixtureServer() {
    return resource("/bridges/fixture-server.mjs").toString();
  }

  /**
   * Runs the project's smoke client on TS SDK {@code major} with {@code args} and returns its
   * summary; the run must succeed.
   */
  static JsonNode smoke(int major, String... args) throws IOException {
    ExternalCommand.Outcome run =
        ExternalCommand.of(InteropTools.smokeClient(major, args))
            .environment(InteropTools.environment())
            .timeout(Duration.ofMinutes(2))
            .run();
    assertThat(run.exit()).as(run.toString()).isZero();
    return JSON.readTree(run.stdout());
  }

  /** The entry of {@code @modelcontextprotocol/server-everything}, pinned in interop.mjs. */
  static String everything() {
    return InteropTools.path("everything").toString();
  }

  /**
   * Writes {@code root/name} with a SKILL.md naming {@code mcp.yaml}, which runs {@code command
   * args} with {@code env} ({@code extra} is appended to mcp.yaml as written).
   */
  static Path skill(
      Path root,
      String name,
      String command,
      List<String> args,
      Map<String, String> env,
      String extra)
      throws IOException {
    Path dir = Files.createDirectories(root.resolve(name));
    Files.writeString(
        dir.resolve("SKILL.md"),
        "---\nname: "
            + name
            + "\ndescription: A bridged MCP server for tests.\nmetadata:\n  dcc-mcp:\n"
            + "    mcp: mcp.yaml\n---\nCall its tools.\n");
    StringBuilder yaml = new StringBuilder("command: ").append(q(command)).append("\nargs: [");
    for (int i = 0; i < args.size(); i++) {
      yaml.append(i == 0 ? "" : ", ").append(q(args.get(i)));
    }
    yaml.append("]\n");
    if (!env.isEmpty()) {
      yaml.append("env:\n");
      env.forEach((k, v) -> yaml.append("  ").append(k).append(": ").append(q(v)).append('\n'));
    }
    yaml.append(extra);
    Files.writeString(dir.resolve("mcp.yaml"), yaml);
    return dir;
  }

  /**
   * A bridge skill whose program is in its folder: {@code python3 server.py}, which imports {@code
   * greeting.py} beside it and appends a line to {@code marker} when it starts; its tool is {@code
   * greet}.
   */
  static Path pythonSkill(Path root, String name, Path marker) throws IOException {
    Path dir =
        skill(
            root,
            name,
            "python3",
            List.of("server.py"),
            Map.of("BRIDGE_MARKER", marker.toString()),
            "");
    for (String file : List.of("server.py", "greeting.py")) {
      Files.copy(resource("/bridges/python-server/" + file), dir.resolve(file));
    }
    return dir;
  }

  /**
   * A bridge skill whose program is in its folder: {@code node server.mjs good} (the fixture
   * server, copied), which appends a line to {@code marker} when it starts; its tool is {@code
   * echo}.
   */
  static Path nodeSkill(Path root, String name, Path marker) throws IOException {
    Path dir =
        skill(
            root,
            name,
            node(),
            List.of("server.mjs", "good"),
            Map.of("BRIDGE_MARKER", marker.toString()),
            "");
    Files.copy(Path.of(fixtureServer()), dir.resolve("server.mjs"));
    return dir;
  }

  private static Path resource(String name) {
    try {
      return Path.of(BridgeFixtures.class.getResource(name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A bridge skill running the fixture server in {@code mode}. */
  static Path fixture(Path root, String name, String mode, String extra) throws IOException {
    return skill(root, name, node(), List.of(fixtureServer(), mode), Map.of(), extra);
  }

  private static String q(String s) {
    try {
      return JSON.writeValueAsString(s);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

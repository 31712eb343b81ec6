package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.InteropTools;
import dev.skillport.testsupport.LaunchedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dynamic tools (decision 0060) on {@code bin/skillport serve --http} with two tokens, driven by
 * the official TypeScript SDK clients ({@code interop/dynamic-tools-client.mjs}): in the 2025-11-25
 * era (SDK 1.x, a session per caller, the tool called by its name) and in 2026-07-28 (SDK 2.x, the
 * tool called through {@code call_tool}), caller A registers a tool that calls a skill's script
 * tool with a preset argument, calls it, lists it and removes it; caller B neither lists, calls nor
 * removes it; {@code tools/list} never shows it and does not change when it is registered.
 */
class DynamicToolsIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String A = "token-of-caller-a-0123456789";
  private static final String B = "token-of-caller-b-9876543210";

  @TempDir Path home;
  @TempDir Path skills;

  @Test
  void registerCallListDeregister_bothEras_twoCallers() throws Exception {
    writeSkill(skills.resolve("greeter"));
    InteropTools.dir("sdk@1");
    InteropTools.dir("client@2");
    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--no-bundled",
            "--skills",
            skills.toString(),
            "--tool-listing",
            "catalog",
            "--auth-token",
            A,
            "--auth-token",
            B)) {
      JsonNode legacy = run(1, server);
      JsonNode modern = run(2, server);

      assertThat(legacy.path("sdk").asText()).startsWith("@modelcontextprotocol/sdk@1.");
      assertThat(legacy.path("era").asText()).isEqualTo("legacy");
      assertThat(legacy.at("/loaded/isError").asBoolean()).isFalse();
      assertThat(modern.path("sdk").asText()).startsWith("@modelcontextprotocol/client@2.");
      assertThat(modern.path("protocolVersion").asText()).isEqualTo("2026-07-28");

      for (JsonNode flow : List.of(legacy, modern)) {
        String era = flow.path("era").asText();
        String name = flow.path("toolName").asText();
        assertThat(name).as(era).matches("dyn__greet_preset_[0-9a-f]{6}");
        assertThat(flow.at("/register/structured/success").asBoolean()).as(era).isTrue();
        assertThat(flow.at("/register/structured/expires_in_sec").asLong()).as(era).isEqualTo(3600);

        // A calls it: the script ran with the preset name and the call's own argument.
        assertThat(flow.at("/aCall/isError").asBoolean())
            .as(era + " " + flow.get("aCall"))
            .isFalse();
        assertThat(flow.at("/aCall/structured/greeting").asText()).as(era).isEqualTo("Hello, Ada!");
        assertThat(flow.at("/aBadCall/isError").asBoolean()).as(era).isTrue();
        assertThat(flow.at("/aBadCall/structured/code").asText())
            .as(era)
            .isEqualTo("INVALID_ARGUMENTS");
        assertThat(flow.at("/aList/structured/count").asInt()).as(era).isEqualTo(1);
        assertThat(flow.at("/aList/structured/dynamic_tools/0/tool_name").asText())
            .as(era)
            .isEqualTo(name);
        assertThat(flow.at("/aList/structured/dynamic_tools/0/tool").asText())
            .isEqualTo("greeter__greet");

        // Never listed; the listing is what it was before the registration.
        assertThat(flow.at("/listed/dynamicListed").asBoolean()).as(era).isFalse();
        assertThat(flow.at("/listed/unchanged").asBoolean()).as(era).isTrue();
        assertThat(flow.path("coreListed").size()).as(era + " core tools listed").isEqualTo(3);

        // B cannot see, call or remove it.
        assertThat(flow.at("/bList/structured/count").asInt()).as(era).isZero();
        if (era.equals("legacy")) {
          assertThat(flow.at("/bCall/protocolError").asText()).as(era).contains(name);
        } else {
          assertThat(flow.at("/bCall/structured/code").asText())
              .as(era)
              .isEqualTo("ACTION_NOT_FOUND");
        }
        assertThat(flow.at("/bDeregister/structured/success").asBoolean()).as(era).isTrue();
        assertThat(flow.at("/bDeregister/structured/removed").asBoolean()).as(era).isFalse();

        // A's tool is untouched, then A removes it and it is gone.
        assertThat(flow.at("/aCallAgain/structured/greeting").asText())
            .as(era)
            .isEqualTo("Hello, Ada!");
        assertThat(flow.at("/aDeregister/structured/removed").asBoolean()).as(era).isTrue();
        assertThat(flow.at("/aListAfter/structured/count").asInt()).as(era).isZero();
        if (era.equals("legacy")) {
          assertThat(flow.at("/aCallGone/protocolError").asText()).as(era).contains(name);
        } else {
          assertThat(flow.at("/aCallGone/structured/code").asText())
              .as(era)
              .isEqualTo("ACTION_NOT_FOUND");
        }
      }
      assertThat(server.isAlive()).isTrue();
    }
  }

  private static JsonNode run(int major, LaunchedServer server) throws Exception {
    List<String> command =
        List.of(
            InteropTools.node().toString(),
            InteropTools.repository().resolve("interop/dynamic-tools-client.mjs").toString(),
            "--sdk",
            Integer.toString(major),
            "--sdk-dir",
            InteropTools.dir(major == 1 ? "sdk@1" : "client@2").toString(),
            "--url",
            server.uri().toString(),
            "--token-a",
            A,
            "--token-b",
            B,
            "--skill",
            "greeter",
            "--target",
            "greeter__greet",
            "--preset",
            "{\"name\":\"Ada\"}",
            "--args",
            "{\"punct\":\"!\"}");
    ExternalCommand.Outcome outcome =
        ExternalCommand.of(command)
            .environment(InteropTools.environment())
            .timeout(Duration.ofMinutes(2))
            .run();
    assertThat(outcome.exit()).as(outcome.toString()).isZero();
    String last = outcome.stdout().strip().lines().reduce((x, y) -> y).orElse("{}");
    JsonNode summary = JSON.readTree(last);
    assertThat(summary.path("ok").asBoolean()).as(outcome.toString()).isTrue();
    return summary;
  }

  private static void writeSkill(Path dir) throws Exception {
    Files.createDirectories(dir.resolve("scripts"));
    Files.writeString(
        dir.resolve("SKILL.md"),
        """
        ---
        name: greeter
        description: Greets someone by name
        metadata:
          dcc-mcp:
            tools: tools.yaml
        ---
        Greet with greet.
        """);
    Files.writeString(
        dir.resolve("tools.yaml"),
        """
        tools:
          - name: greet
            description: Greets someone
            input_schema:
              type: object
              properties: {name: {type: string}, punct: {type: string}}
              required: [name]
        """);
    Files.writeString(
        dir.resolve("scripts/greet.py"),
        """
        import json, sys
        args = json.load(sys.stdin)
        print(json.dumps({"greeting": "Hello, " + args["name"] + args.get("punct", "")}))
        """);
  }
}

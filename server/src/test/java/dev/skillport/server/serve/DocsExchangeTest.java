package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolHandlerProvider;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.mcp.transport.StreamableHttpTransport;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The tool results {@code docs/writing-skills.md} shows are what the server answers. A JSON block
 * noted {@code <!-- result of TOOL ARGUMENTS -->} is the {@code result} of {@code tools/call TOOL}
 * with those arguments, made over Streamable HTTP in a 2025-11-25 session that loaded the guide's
 * greeting skill and activated its groups; the checkout's path in it reads {@code
 * /path/to/skillport}.
 */
class DocsExchangeTest {
  private static final Path REPO =
      Path.of(System.getProperty("skillport.repo", "..")).toAbsolutePath().normalize();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern NOTED =
      Pattern.compile("(?ms)^<!-- result of (\\w+) (\\{[^\\n]*\\}) -->\\n```json\\n(.*?)^```$");

  private URLClassLoader samples;
  private SkillportServer server;
  private StreamableHttpTransport http;

  @BeforeEach
  void start() throws Exception {
    // The samples module's classes are kept off this module's test class path (they reach a server
    // as a plugin only), so the greeting skill's handler is loaded from its build output.
    samples =
        new URLClassLoader(
            new URL[] {REPO.resolve("samples/target/classes").toUri().toURL()},
            getClass().getClassLoader());
    ToolHandlerProvider greeting =
        (ToolHandlerProvider)
            samples
                .loadClass("dev.skillport.samples.guide.GreetingHandlers")
                .getConstructor()
                .newInstance();
    Map<String, ToolHandler> handlers = new LinkedHashMap<>(greeting.handlers());
    ServeConfig config =
        new ServeConfig(
            List.of(SkillRoot.of(REPO.resolve("samples/guide"), Scope.REPO)),
            LoaderOptions.DEFAULTS,
            List.of(),
            handlers,
            Duration.ofSeconds(20),
            false);
    server = SkillportServer.start(config, "0.0.0-docs");
    http = StreamableHttpTransport.builder(server.mcp()).host("127.0.0.1").port(0).build();
    http.start();
    http.setReady(true);
    server.transportStarted(http.uri().toString());
  }

  @AfterEach
  void stop() throws Exception {
    if (http != null) {
      http.close();
    }
    if (server != null) {
      server.close();
    }
    if (samples != null) {
      samples.close();
    }
  }

  @Test
  void writingSkills_everyResultShownIsTheServersAnswer() throws Exception {
    PlainMcpClient client = new PlainMcpClient(http.uri()).open();
    JsonNode loaded = client.call("load_skill", JSON.readTree("{\"skill_name\":\"greeting\"}"));
    assertThat(loaded.path("isError").asBoolean(false)).as(loaded.toString()).isFalse();
    JsonNode activated =
        client.call(
            "activate_tool_group",
            JSON.readTree("{\"group_name\":\"loud\",\"skill_name\":\"greeting\"}"));
    assertThat(activated.path("isError").asBoolean(false)).as(activated.toString()).isFalse();

    String page = Files.readString(REPO.resolve("docs/writing-skills.md"), StandardCharsets.UTF_8);
    Matcher m = NOTED.matcher(page);
    int checked = 0;
    while (m.find()) {
      JsonNode result = client.call(m.group(1), JSON.readTree(m.group(2)));
      String actual =
          JSON.writeValueAsString(result).replace(REPO.toString(), "/path/to/skillport");
      assertThat(JSON.readTree(m.group(3)))
          .as("docs/writing-skills.md: result of %s %s", m.group(1), m.group(2))
          .isEqualTo(JSON.readTree(actual));
      checked++;
    }
    assertThat(checked).as("results shown").isGreaterThanOrEqualTo(2);
  }
}

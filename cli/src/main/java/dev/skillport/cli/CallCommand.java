package dev.skillport.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.SkillRoots;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.testkit.SkillTestKit;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code skillport call SKILL__TOOL}: calls one tool as a client would and prints its result on
 * stdout, progress on stderr; the exit code says whether the tool succeeded. In-process it reads
 * the skill from the roots and runs the tool through the server's own runtime (the same input
 * check, handler binding and script runner); with {@code --url} it sends a 2026-07-28 {@code
 * tools/call} to a running server.
 */
@Command(
    name = "call",
    addMethodSubcommands = false,
    description = {
      "Call one tool, in-process or on a running server (--url); the result goes to stdout"
          + " (structuredContent as JSON, else the text), progress to stderr.",
      "Exit codes: 0 the tool succeeded, 1 it failed (or the server could not be reached),"
          + " 2 usage error."
    })
final class CallCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String VERSION = "2026-07-28";

  @ParentCommand private SkillportCommand parent;

  @Spec private CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "SKILL__TOOL",
      description = "The tool's qualified name: its skill, two underscores, the tool.")
  private String name;

  @Option(
      names = "--skills",
      paramLabel = "DIR",
      description =
          "A skill folder or tree to find the skill in (repeatable); without it, the roots"
              + " configured in SKILLPORT_SKILL_PATHS, SKILLPORT_TEAM_SKILL_PATHS and"
              + " ~/.skillport/skills.")
  private List<Path> skills = new ArrayList<>();

  @Option(
      names = "--arg",
      paramLabel = "KEY=VALUE",
      description =
          "An argument (repeatable). VALUE is read as JSON when it is a number, true, false,"
              + " null, an object or an array, else as a string.")
  private List<String> args = new ArrayList<>();

  @Option(
      names = "--json",
      paramLabel = "OBJECT",
      description = "All arguments as one JSON object; --arg values are added to it.")
  private String json;

  @Option(
      names = "--url",
      paramLabel = "URL",
      description = "Call the tool on the server at this MCP endpoint instead of in-process.")
  private URI url;

  @Option(
      names = "--auth-token",
      paramLabel = "TOKEN",
      description = "The bearer token for --url (also SKILLPORT_AUTH_TOKEN).")
  private String authToken;

  @Override
  public Integer call() throws Exception {
    int split = name.indexOf("__");
    if (split <= 0 || split + 2 >= name.length()) {
      throw new ParameterException(
          spec.commandLine(), "'" + name + "' is not SKILL__TOOL (e.g. file-stats__count_lines)");
    }
    ObjectNode arguments = arguments();
    ToolResult result =
        url != null
            ? remote(arguments)
            : local(name.substring(0, split), name.substring(split + 2), arguments);
    if (result == null) {
      return SkillportCommand.EXIT_FAILED;
    }
    print(result);
    return result.isError() ? SkillportCommand.EXIT_FAILED : SkillportCommand.EXIT_OK;
  }

  /** {@code --json} with every {@code --arg} on top. */
  private ObjectNode arguments() {
    ObjectNode object;
    if (json == null) {
      object = JSON.createObjectNode();
    } else {
      JsonNode parsed;
      try {
        parsed = JSON.readTree(json);
      } catch (JsonProcessingException e) {
        throw new ParameterException(
            spec.commandLine(), "--json is not JSON: " + e.getOriginalMessage());
      }
      if (parsed == null || !parsed.isObject()) {
        throw new ParameterException(spec.commandLine(), "--json must be a JSON object");
      }
      object = (ObjectNode) parsed;
    }
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (eq <= 0) {
        throw new ParameterException(spec.commandLine(), "--arg " + arg + " is not KEY=VALUE");
      }
      object.set(arg.substring(0, eq), value(arg.substring(eq + 1)));
    }
    return object;
  }

  /** A JSON literal, object or array as itself; anything else as a string. */
  private static JsonNode value(String text) {
    String trimmed = text.strip();
    boolean looksJson =
        trimmed.startsWith("{")
            || trimmed.startsWith("[")
            || trimmed.equals("true")
            || trimmed.equals("false")
            || trimmed.equals("null")
            || trimmed.matches("-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?");
    if (looksJson) {
      try {
        return JSON.readTree(trimmed);
      } catch (JsonProcessingException e) {
        // not JSON after all: the text itself
      }
    }
    return JSON.getNodeFactory().textNode(text);
  }

  private ToolResult local(String skillName, String tool, ObjectNode arguments) {
    PrintWriter err = parent.output().stderr();
    Optional<Skill> skill =
        parent.reader().read(roots(), false).skills().stream()
            .filter(s -> s.name().equals(skillName))
            .findFirst();
    if (skill.isEmpty()) {
      err.println("skillport call: no skill '" + skillName + "' under the skill roots");
      err.flush();
      return null;
    }
    if (skill.get().tool(tool).isEmpty()) {
      err.println(
          "skillport call: skill '"
              + skillName
              + "' has no tool '"
              + tool
              + "'; its tools: "
              + String.join(", ", skill.get().tools().stream().map(t -> t.name()).toList()));
      err.flush();
      return null;
    }
    try (SkillTestKit kit = SkillTestKit.load(skill.get().location().directory())) {
      return kit.call(tool, arguments, progressOn(err));
    }
  }

  /** {@code --skills} as roots of scope repo, else the roots the environment configures. */
  private List<SkillRoot> roots() {
    CliEnvironment env = parent.environment();
    if (skills.isEmpty()) {
      return SkillRoots.resolve(List.of(), env.variables(), env.userHome(), null, List.of());
    }
    List<SkillRoot> roots = new ArrayList<>();
    for (Path given : skills) {
      Path path = env.workingDirectory().resolve(given).normalize();
      if (!Files.isDirectory(path)) {
        throw new ParameterException(spec.commandLine(), "--skills " + given + ": no such folder");
      }
      roots.add(new SkillRoot(path, Scope.REPO, "command line"));
    }
    return roots;
  }

  /** Progress and log lines of the tool, on stderr. */
  private static ToolContext progressOn(PrintWriter err) {
    return new ToolContext() {
      @Override
      public void progress(double progress, Double total, String message) {
        err.println(progressLine(progress, total, message));
        err.flush();
      }

      @Override
      public void log(String level, String message) {
        err.println(level + ": " + message);
        err.flush();
      }

      @Override
      public boolean isCancelled() {
        return false;
      }
    };
  }

  private static String progressLine(double progress, Double total, String message) {
    String amount =
        total == null
            ? String.format(Locale.ROOT, "%s", progress)
            : String.format(Locale.ROOT, "%s/%s", progress, total);
    return "progress " + amount + (message == null || message.isEmpty() ? "" : " " + message);
  }

  /** A 2026-07-28 {@code tools/call}: stateless, so one request carries everything. */
  private ToolResult remote(ObjectNode arguments) throws IOException, InterruptedException {
    PrintWriter err = parent.output().stderr();
    ObjectNode params = JSON.createObjectNode();
    params.put("name", name);
    params.set("arguments", arguments);
    ObjectNode meta = params.putObject("_meta");
    meta.put("io.modelcontextprotocol/protocolVersion", VERSION);
    meta.putObject("io.modelcontextprotocol/clientCapabilities");
    meta.putObject("io.modelcontextprotocol/clientInfo")
        .put("name", "skillport-call")
        .put("version", SkillportCommand.Version.number());
    meta.put("progressToken", "call");
    ObjectNode message =
        JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/call");
    message.set("params", params);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(url)
            .timeout(Duration.ofMinutes(10))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", VERSION)
            .header("Mcp-Method", "tools/call")
            .header("Mcp-Name", name)
            .POST(HttpRequest.BodyPublishers.ofString(message.toString()));
    String token =
        authToken != null
            ? authToken
            : parent.environment().variables().get("SKILLPORT_AUTH_TOKEN");
    if (token != null && !token.isBlank()) {
      request.header("Authorization", "Bearer " + token.strip());
    }
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    HttpResponse<Stream<String>> response;
    try {
      response = client.send(request.build(), HttpResponse.BodyHandlers.ofLines());
    } catch (IOException e) {
      err.println(
          "skillport call: cannot reach "
              + url
              + ": "
              + (e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()));
      err.flush();
      return null;
    }
    JsonNode answer = null;
    try (Stream<String> lines = response.body()) {
      for (String line : (Iterable<String>) lines::iterator) {
        String data = line.startsWith("data:") ? line.substring(5).strip() : line.strip();
        if (!data.startsWith("{")) {
          continue;
        }
        JsonNode node = JSON.readTree(data);
        if ("notifications/progress".equals(node.path("method").asText())) {
          JsonNode p = node.path("params");
          err.println(
              progressLine(
                  p.path("progress").asDouble(),
                  p.has("total") ? p.get("total").asDouble() : null,
                  p.path("message").asText(null)));
          err.flush();
        } else if (node.has("result") || node.has("error")) {
          answer = node;
        }
      }
    }
    if (answer == null) {
      err.println("skillport call: " + url + " answered HTTP " + response.statusCode());
      err.flush();
      return null;
    }
    if (answer.has("error")) {
      err.println("skillport call: " + answer.path("error").path("message").asText());
      err.flush();
      return null;
    }
    return fromWire(answer.path("result"));
  }

  /** The wire result as the typed value the in-process call gives. */
  private static ToolResult fromWire(JsonNode result) {
    List<Content> content = new ArrayList<>();
    for (JsonNode c : result.path("content")) {
      if ("text".equals(c.path("type").asText())) {
        content.add(new Content.Text(c.path("text").asText()));
      }
    }
    JsonNode structured = result.get("structuredContent");
    return new ToolResult(content, structured, result.path("isError").asBoolean());
  }

  /** structuredContent as indented JSON, else every text block. */
  private void print(ToolResult result) throws JsonProcessingException {
    PrintWriter out = parent.output().stdout();
    if (result.structured() != null && !result.structured().isNull()) {
      out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(result.structured()));
    } else {
      for (Content c : result.content()) {
        if (c instanceof Content.Text text) {
          out.println(text.text());
        }
      }
    }
    out.flush();
  }
}

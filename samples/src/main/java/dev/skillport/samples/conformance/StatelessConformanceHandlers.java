package dev.skillport.samples.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.host.ToolHandlerExtension;
import dev.skillport.api.tool.ClientRequest;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolHandlerProvider;
import dev.skillport.api.tool.ToolInvocation;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.sdk.Arguments;
import dev.skillport.sdk.Results;
import dev.skillport.sdk.ToolHandlers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.pf4j.Extension;

/**
 * Handlers of the {@code mcp-conformance} tools that the 2026-07-28 scenarios of the suite call:
 * multi round-trip requests, capability checks, list changes and tasks. Each asks through the tool
 * context, the same calls for every client: the platform turns them into requests (2025 sessions)
 * or input_required round trips (2026-07-28). Found like {@link ConformanceHandlers}: by {@link
 * java.util.ServiceLoader} on a class path, as a PF4J extension in the plugin jar.
 */
@Extension
public final class StatelessConformanceHandlers implements ToolHandlerExtension {
  /**
   * The environment variable naming a skill root the list-change tools may write a scratch skill
   * into (the server must serve and watch that root).
   */
  public static final String SCRATCH_ROOT_ENV = "SKILLPORT_CONFORMANCE_SCRATCH";

  private static final String PREFIX = ConformanceHandlers.PREFIX;
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final AtomicInteger GENERATION = new AtomicInteger();

  private static final ToolHandlerProvider HANDLERS =
      ToolHandlers.builder()
          .handler(PREFIX + "test_logging_tool", StatelessConformanceHandlers::logging)
          .handler(PREFIX + "test_missing_capability", StatelessConformanceHandlers::needsSampling)
          .handler(
              PREFIX + "test_streaming_elicitation",
              inv -> greet(ask(inv, "user_name", nameQuestion())))
          .handler(PREFIX + "test_trigger_tool_change", inv -> rewriteScratch("tools"))
          .handler(PREFIX + "test_trigger_prompt_change", inv -> rewriteScratch("prompts"))
          .handler(
              PREFIX + "test_custom_headers",
              inv ->
                  Results.text("Custom headers received for " + Arguments.of(inv).string("region")))
          .handler(
              PREFIX + "test_input_required_result_elicitation",
              inv -> greet(ask(inv, "user_name", nameQuestion())))
          .handler(
              PREFIX + "test_input_required_result_sampling",
              inv ->
                  Results.text(
                      "The model said: "
                          + ask(inv, "capital_question", capitalQuestion())
                              .path("content")
                              .path("text")
                              .asText("")))
          .handler(
              PREFIX + "test_input_required_result_list_roots",
              inv ->
                  Results.text("Roots: " + ask(inv, "client_roots", rootsQuestion()).path("roots")))
          .handler(
              PREFIX + "test_input_required_result_request_state",
              inv -> {
                JsonNode answer = ask(inv, "confirmation", nameQuestion());
                return Results.text("state-ok: " + answer.path("content"));
              })
          .handler(
              PREFIX + "test_input_required_result_multiple_inputs",
              StatelessConformanceHandlers::multipleInputs)
          .handler(
              PREFIX + "test_input_required_result_multi_round",
              inv -> {
                JsonNode first = ask(inv, "step1", nameQuestion());
                JsonNode second = ask(inv, "step2", colorQuestion());
                return Results.text(
                    "Done: " + first.path("content") + " and " + second.path("content"));
              })
          .handler(
              PREFIX + "test_input_required_result_tampered_state",
              inv -> greet(ask(inv, "user_name", nameQuestion())))
          .handler(
              PREFIX + "test_input_required_result_capabilities",
              StatelessConformanceHandlers::declaredOnly)
          .handler(
              PREFIX + "greet",
              inv -> Results.text("Hello, " + Arguments.of(inv).string("name", "World") + "!"))
          .handler(PREFIX + "slow_compute", StatelessConformanceHandlers::slowCompute)
          .handler(
              PREFIX + "failing_job",
              inv -> {
                Thread.sleep(1000);
                return Results.error("The job failed as designed");
              })
          .handler(
              PREFIX + "protocol_error_job",
              inv -> {
                throw new FixtureFault("protocol_error_job fails in the server by design");
              })
          .handler(
              PREFIX + "confirm_delete",
              inv -> {
                JsonNode answer = ask(inv, "confirm", confirmQuestion());
                return Results.text(
                    "accept".equals(answer.path("action").asText())
                        ? "Deleted " + Arguments.of(inv).string("path", "the file")
                        : "Nothing deleted");
              })
          .handler(PREFIX + "multi_input", StatelessConformanceHandlers::multiInput)
          .handler(PREFIX + "test_tool_with_task", StatelessConformanceHandlers::thenTask)
          .build();

  @Override
  public Map<String, ToolHandler> handlers() {
    return HANDLERS.handlers();
  }

  private static ToolResult logging(ToolInvocation inv) {
    ToolContext ctx = inv.context();
    ctx.log("info", "Logging tool started");
    ctx.log("info", "Logging tool working");
    ctx.log("info", "Logging tool done");
    return Results.text("Logged three messages");
  }

  /** Needs sampling: thrown when the client cannot sample, which makes the call fail for it. */
  private static ToolResult needsSampling(ToolInvocation inv) throws Exception {
    JsonNode answer = inv.context().sample(capitalQuestion().params());
    return Results.text("The model said: " + answer.path("content").path("text").asText(""));
  }

  private static ToolResult multipleInputs(ToolInvocation inv) throws Exception {
    Map<String, ClientRequest> questions = new LinkedHashMap<>();
    questions.put("user_name", nameQuestion());
    questions.put("capital_question", capitalQuestion());
    questions.put("client_roots", rootsQuestion());
    Map<String, JsonNode> answers = inv.context().requestAll(questions);
    return Results.text("Got " + answers.size() + " answers: " + answers.keySet());
  }

  /** Asks only what the client declared it can answer. */
  private static ToolResult declaredOnly(ToolInvocation inv) throws Exception {
    ToolContext ctx = inv.context();
    Map<String, ClientRequest> questions = new LinkedHashMap<>();
    if (ctx.clientSupports("elicitation")) {
      questions.put("user_name", nameQuestion());
    }
    if (ctx.clientSupports("sampling")) {
      questions.put("capital_question", capitalQuestion());
    }
    if (ctx.clientSupports("roots")) {
      questions.put("client_roots", rootsQuestion());
    }
    Map<String, JsonNode> answers = ctx.requestAll(questions);
    return Results.text("Asked only what the client supports: " + answers.keySet());
  }

  private static ToolResult slowCompute(ToolInvocation inv) throws InterruptedException {
    Arguments args = Arguments.of(inv);
    double seconds = args.number("seconds", 1);
    Thread.sleep(Math.round(seconds * 1000));
    return Results.text(
        "Computed " + args.string("label", "a result") + " after " + seconds + " s");
  }

  private static ToolResult multiInput(ToolInvocation inv) throws Exception {
    Map<String, ClientRequest> questions = new LinkedHashMap<>();
    questions.put("first_name", nameQuestion());
    questions.put("favorite_color", colorQuestion());
    Map<String, JsonNode> answers = inv.context().requestAll(questions);
    return Results.text(
        "Got "
            + answers.get("first_name").path("content")
            + " and "
            + answers.get("favorite_color").path("content"));
  }

  /** Asks first (a round trip), then hands the greeting to a task. */
  private static ToolResult thenTask(ToolInvocation inv) throws Exception {
    String name = ask(inv, "user_name", nameQuestion()).path("content").path("name").asText("?");
    return inv.context()
        .continueAsJob(
            job -> {
              Thread.sleep(1000);
              return Results.text("Hello, " + name + "! (from the task)");
            });
  }

  /**
   * Rewrites the scratch skill in the root {@value #SCRATCH_ROOT_ENV} names, so its tools or its
   * prompts differ from before; the server's hot reload announces the change.
   */
  private static ToolResult rewriteScratch(String what) throws IOException {
    String root = System.getenv(SCRATCH_ROOT_ENV);
    if (root == null || root.isBlank()) {
      return Results.error(
          "No scratch skill root: serve a skill root and name it in " + SCRATCH_ROOT_ENV);
    }
    int generation = GENERATION.incrementAndGet();
    Path dir = Path.of(root).resolve("conformance-scratch");
    Files.createDirectories(dir.resolve("references"));
    Files.writeString(
        dir.resolve("references").resolve("notes.md"),
        "Notes of the scratch skill.\n",
        StandardCharsets.UTF_8);
    Files.writeString(
        dir.resolve("tools.yaml"),
        "tools:\n  - name: scratch_tool_"
            + (what.equals("tools") ? generation : 0)
            + "\n    description: A tool the conformance fixture rewrites.\n",
        StandardCharsets.UTF_8);
    Files.writeString(
        dir.resolve("prompts.yaml"),
        "prompts:\n  - name: scratch_prompt_"
            + (what.equals("prompts") ? generation : 0)
            + "\n    description: A prompt the conformance fixture rewrites.\n    template: Hi.\n",
        StandardCharsets.UTF_8);
    Files.writeString(
        dir.resolve("SKILL.md"),
        "---\nname: conformance-scratch\ndescription: A skill the conformance fixture rewrites"
            + " to change the server's lists.\nmetadata:\n  dcc-mcp:\n    tools: tools.yaml\n"
            + "    prompts: prompts.yaml\n---\nRewritten "
            + generation
            + " times.\n",
        StandardCharsets.UTF_8);
    return Results.text("The scratch skill's " + what + " changed (generation " + generation + ")");
  }

  private static JsonNode ask(ToolInvocation inv, String key, ClientRequest question)
      throws Exception {
    return inv.context().requestAll(Map.of(key, question)).get(key);
  }

  private static ToolResult greet(JsonNode answer) {
    return Results.text("Hello, " + answer.path("content").path("name").asText("stranger") + "!");
  }

  private static ClientRequest nameQuestion() {
    return form("What is your name?", "name");
  }

  private static ClientRequest colorQuestion() {
    return form("What is your favorite color?", "color");
  }

  private static ClientRequest confirmQuestion() {
    return form("Really delete it?", "reason");
  }

  private static ClientRequest form(String message, String field) {
    ObjectNode params = NODES.objectNode().put("mode", "form").put("message", message);
    ObjectNode schema = params.putObject("requestedSchema").put("type", "object");
    schema.putObject("properties").putObject(field).put("type", "string");
    schema.putArray("required").add(field);
    return new ClientRequest("elicitation/create", params);
  }

  private static ClientRequest capitalQuestion() {
    ObjectNode params = NODES.objectNode();
    ObjectNode message = params.putArray("messages").addObject().put("role", "user");
    message.putObject("content").put("type", "text").put("text", "What is the capital of France?");
    params.put("maxTokens", 100);
    return new ClientRequest("sampling/createMessage", params);
  }

  private static ClientRequest rootsQuestion() {
    return new ClientRequest("roots/list", NODES.objectNode());
  }

  /** A failure of the server rather than of the tool, as the tasks scenarios need one. */
  static final class FixtureFault extends Error {
    private static final long serialVersionUID = 1L;

    FixtureFault(String message) {
      super(message);
    }
  }
}

package dev.skillport.server.workflows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ClientRequestException;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.runtime.CallGuard;
import dev.skillport.runtime.CallMeta;
import dev.skillport.runtime.CapabilityRequiredException;
import dev.skillport.runtime.HandlerRegistry;
import dev.skillport.runtime.ScriptToolRunner;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.UnknownToolException;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.MemoryJobStore;
import dev.skillport.server.app.SkillportService;
import dev.skillport.workflows.RunClient;
import dev.skillport.workflows.Sleeper;
import dev.skillport.workflows.WorkflowEngine;
import dev.skillport.workflows.WorkflowStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * A skill folder ({@code flow}) with Java-handler and script tools and the given workflows, loaded
 * into a real {@link SkillportService} whose sessions get the workflow tools; a fake client and a
 * fake clock whose sleeps advance it.
 */
final class WorkflowHarness implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();

  final Path skillDir;
  final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  final CountDownLatch blockStarted = new CountDownLatch(1);
  final CountDownLatch release = new CountDownLatch(1);
  final AtomicBoolean blockInterrupted = new AtomicBoolean();
  final FakeClient client = new FakeClient();
  final FakeTime time = new FakeTime();
  final List<String> sessionNotifications = new CopyOnWriteArrayList<>();
  private final CatalogHolder catalog;
  private final HandlerRegistry handlers;
  private final ScriptToolRunner scripts =
      new ScriptToolRunner(Duration.ofSeconds(60), 1 << 20, 1 << 16);
  private final JobScheduler jobs = new JobScheduler(new MemoryJobStore(), 4);
  // Replaced by restart, as a server restarting over the same stores.
  SkillportService service;
  SessionState session;
  WorkflowTools tools;

  WorkflowHarness(Path root, WorkflowStore store, String... workflows) throws IOException {
    skillDir = root.resolve("flow");
    write(
        skillDir.resolve("SKILL.md"),
        """
        ---
        name: flow
        description: Tools for workflow tests
        metadata:
          dcc-mcp:
            tools: tools.yaml
            workflows: "workflows/*.workflow.yaml"
        ---
        Flow.
        """);
    write(
        skillDir.resolve("tools.yaml"),
        """
        tools:
          - {name: echo, handler: t.echo}
          - {name: flaky, handler: t.flaky}
          - {name: block, handler: t.block}
          - {name: count, handler: t.count}
          - {name: list, handler: t.list}
          - name: typed
            handler: t.echo
            input_schema: {type: object, properties: {n: {type: integer}}, required: [n]}
          - {name: sleepy, source_file: scripts/sleepy.sh}
          - {name: later, handler: t.echo, execution: async}
        """);
    Path script = skillDir.resolve("scripts/sleepy.sh");
    write(script, "#!/bin/sh\necho $$ > \"$0.pid\"\nsleep 30\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    for (int i = 0; i < workflows.length; i++) {
      write(skillDir.resolve("workflows/w" + i + ".workflow.yaml"), workflows[i]);
    }
    write(
        root.resolve("plain/SKILL.md"),
        "---\nname: plain\ndescription: A skill without workflows\n---\nPlain.\n");
    LoadResult loaded =
        new SkillLoader(LoaderOptions.DEFAULTS).load(List.of(SkillRoot.of(root, Scope.REPO)));
    handlers = new HandlerRegistry();
    handlers.register(
        "t.echo",
        inv -> {
          count(inv.tool());
          return ToolResult.structured(inv.arguments().deepCopy());
        });
    handlers.register(
        "t.flaky",
        inv -> {
          int n = count("flaky");
          if (n <= inv.arguments().path("fail_times").asInt(0)) {
            return ToolResult.error("flaky failure " + n);
          }
          return ToolResult.structured(JSON.createObjectNode().put("attempt", n));
        });
    handlers.register(
        "t.block",
        inv -> {
          count("block");
          blockStarted.countDown();
          try {
            release.await();
            return ToolResult.structured(JSON.createObjectNode().put("released", true));
          } catch (InterruptedException e) {
            blockInterrupted.set(true);
            throw e;
          }
        });
    handlers.register(
        "t.count", inv -> ToolResult.structured(JSON.createObjectNode().put("n", count("count"))));
    handlers.register(
        "t.list",
        inv -> {
          count("list");
          ObjectNode out = JSON.createObjectNode().put("count", 2);
          out.putArray("files").add(JSON.createObjectNode().put("path", "a.obj"));
          ((com.fasterxml.jackson.databind.node.ArrayNode) out.get("files"))
              .add(JSON.createObjectNode().put("path", "b.obj"));
          return ToolResult.structured(out);
        });
    catalog = new CatalogHolder(Catalog.of(1, loaded.skills(), loaded.diagnostics()));
    restart(store, CallGuard.NONE);
  }

  /**
   * A new service and workflow tools over the same catalog, handlers and jobs, keeping runs in
   * {@code store} and passing calls through {@code guard}, with a new session that loads the skills
   * the last one had: what a server restarting over the same stores gives its reconnecting client.
   */
  void restart(WorkflowStore store, CallGuard guard) {
    List<String> loaded = session == null ? List.of() : session.view().loadedSkills();
    Function<String, RunClient> clients = id -> client;
    service =
        SkillportService.builder(catalog, handlers)
            .scripts(scripts)
            .jobs(jobs)
            .guard(guard)
            .pageSize(100)
            .sessionTools((c, j) -> new WorkflowTools(c, j, store, clients, time, time))
            .build();
    tools = (WorkflowTools) service.sessionTools();
    session = service.openSession(sessionNotifications::add);
    for (String skill : loaded) {
      try {
        load(skill);
      } catch (UnknownToolException e) {
        throw new IllegalStateException("load_skill is a core tool", e);
      }
    }
  }

  /** {@link #restart(WorkflowStore, CallGuard)} without a guard. */
  void restart(WorkflowStore store) {
    restart(store, CallGuard.NONE);
  }

  private int count(String tool) {
    return calls.computeIfAbsent(tool, k -> new AtomicInteger()).incrementAndGet();
  }

  int calls(String tool) {
    AtomicInteger n = calls.get(tool);
    return n == null ? 0 : n.get();
  }

  static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  /** Calls a tool in the harness session the way tools/call does. */
  JsonNode call(String tool, String argsJson) throws UnknownToolException {
    try {
      return service.callTool(
          session,
          tool,
          JSON.readTree(argsJson),
          ToolContext.NONE,
          new CallMeta("s1", false, null, update -> {}));
    } catch (IOException e) {
      throw new IllegalArgumentException(argsJson, e);
    } catch (CapabilityRequiredException e) {
      throw new IllegalStateException("a session call never needs a declared capability", e);
    }
  }

  JsonNode load(String skill) throws UnknownToolException {
    return call("load_skill", "{\"skill_name\":\"" + skill + "\"}");
  }

  /** Starts a workflow and returns its run id. */
  String start(String name, String inputsJson) throws UnknownToolException {
    JsonNode result =
        call("workflows_run", "{\"name\":\"" + name + "\",\"inputs\":" + inputsJson + "}");
    assertThat(result.path("isError").asBoolean()).as(result.toString()).isFalse();
    assertThat(result.path("structuredContent").path("status").asText()).isEqualTo("pending");
    return result.path("structuredContent").path("run_id").asText();
  }

  JsonNode status(String runId) throws UnknownToolException {
    JsonNode result = call("workflows_get_status", "{\"run_id\":\"" + runId + "\"}");
    assertThat(result.path("isError").asBoolean()).as(result.toString()).isFalse();
    return result.path("structuredContent");
  }

  /** Waits until the run reaches {@code status} and returns its status document. */
  JsonNode awaitStatus(String runId, String status) {
    AtomicReference<JsonNode> last = new AtomicReference<>();
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(20))
        .untilAsserted(
            () -> {
              last.set(status(runId));
              assertThat(last.get().path("status").asText())
                  .as(last.get().toString())
                  .isEqualTo(status);
            });
    return last.get();
  }

  static JsonNode step(JsonNode status, String id) {
    for (JsonNode s : status.path("steps")) {
      if (s.path("id").asText().equals(id)) {
        return s;
      }
    }
    throw new AssertionError("no step " + id + " in " + status);
  }

  @Override
  public void close() {
    release.countDown();
    tools.close();
    jobs.close();
  }

  /** A client that records notifications and answers requests with a given function. */
  static final class FakeClient implements RunClient {
    final List<JsonNode> updates = new CopyOnWriteArrayList<>();
    final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    volatile boolean elicitation;
    volatile Function<JsonNode, JsonNode> answer = p -> JSON.createObjectNode();

    @Override
    public void notify(String method, JsonNode params) {
      if (method.equals(WorkflowEngine.UPDATED)) {
        updates.add(params.deepCopy());
      }
    }

    @Override
    public boolean supports(String capability) {
      return capability.equals("elicitation") && elicitation;
    }

    @Override
    public JsonNode request(String method, JsonNode params) throws ClientRequestException {
      requests.add(JSON.createObjectNode().put("method", method).set("params", params));
      return answer.apply(params);
    }

    List<String> statuses(String runId) {
      List<String> out = new ArrayList<>();
      for (JsonNode u : updates) {
        if (u.path("run_id").asText().equals(runId)) {
          String s = u.path("status").asText();
          if (out.isEmpty() || !out.get(out.size() - 1).equals(s)) {
            out.add(s);
          }
        }
      }
      return out;
    }
  }

  /** A clock that only moves when the engine sleeps; it records every sleep. */
  static final class FakeTime extends Clock implements Sleeper, java.util.function.DoubleSupplier {
    final List<Duration> sleeps = new CopyOnWriteArrayList<>();
    private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");
    volatile double random = 0.5;

    @Override
    public void sleep(Duration delay) {
      sleeps.add(delay);
      now = now.plus(delay);
    }

    @Override
    public double getAsDouble() {
      return random;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}

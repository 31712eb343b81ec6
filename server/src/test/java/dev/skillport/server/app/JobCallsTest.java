package dev.skillport.server.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.runtime.CallMeta;
import dev.skillport.runtime.HandlerRegistry;
import dev.skillport.runtime.ScriptPolicy;
import dev.skillport.runtime.ScriptToolRunner;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.MvStoreJobStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobCallsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path root;
  @TempDir Path store;
  private SkillportService service;
  private SessionState session;
  private final List<ObjectNode> updates = new CopyOnWriteArrayList<>();

  @BeforeEach
  void setUp() throws IOException {
    write(
        root.resolve("work/SKILL.md"),
        """
        ---
        name: work
        description: Long running work
        metadata:
          dcc-mcp:
            tools: tools.yaml
        ---
        """);
    write(
        root.resolve("work/tools.yaml"),
        """
        tools:
          - name: square
            description: Squares n
            handler: test.square
            input_schema:
              type: object
              properties: {n: {type: integer}}
              required: [n]
          - name: hang
            description: Starts a child and waits
          - name: bake
            description: Always a job
            execution: async
        """);
    write(root.resolve("work/scripts/hang.sh"), "sleep 300 &\necho $! > \"$2\"\nwait\n");
    write(
        root.resolve("work/scripts/bake.py"),
        """
        import json, sys
        print("::progress 1 2 half", file=sys.stderr)
        print(json.dumps({"baked": json.load(sys.stdin)["what"]}))
        """);
    LoadResult loaded =
        new SkillLoader(LoaderOptions.DEFAULTS).load(List.of(SkillRoot.of(root, Scope.REPO)));
    HandlerRegistry handlers = new HandlerRegistry();
    handlers.register(
        "test.square",
        inv -> {
          int n = inv.arguments().path("n").asInt();
          return ToolResult.structured(JSON.createObjectNode().put("square", n * n));
        });
    service =
        SkillportService.builder(
                new CatalogHolder(Catalog.of(1, loaded.skills(), loaded.diagnostics())), handlers)
            .scripts(new ScriptToolRunner(ScriptPolicy.defaults()))
            .jobs(new JobScheduler(MvStoreJobStore.open(store), 8))
            .preload(List.of("work"))
            .pageSize(100)
            .build();
    session = service.openSession(m -> {});
  }

  @AfterEach
  void tearDown() {
    service.jobs().close();
  }

  @Test
  void callTool_asyncMeta_queuesJobAndNotifiesEveryStateChange() throws Exception {
    ObjectNode queued = callAsync("work__square", "{\"n\":7}", null);

    assertThat(queued.path("isError").asBoolean()).isFalse();
    String id = queued.path("structuredContent").path("job_id").asText();
    assertThat(queued.path("structuredContent").path("status").asText()).isEqualTo("pending");
    assertThat(queued.path("content").path(0).path("text").asText())
        .isEqualTo("Job " + id + " queued");
    JsonNode done = awaitFinished(id);
    assertThat(done.path("status").asText()).isEqualTo("completed");
    assertThat(done.path("result").path("structuredContent").path("square").asInt()).isEqualTo(49);
    await().atMost(WAIT).until(() -> updates.size() == 3);
    assertThat(updates)
        .extracting(u -> u.path("status").asText())
        .containsExactly("pending", "running", "completed");
    assertThat(updates).allMatch(u -> u.path("job_id").asText().equals(id));
  }

  @Test
  void callTool_toolDeclaringAsyncExecution_becomesJobWithoutMeta() throws Exception {
    ObjectNode queued =
        service.callTool(
            session, "work__bake", JSON.readTree("{\"what\":\"bread\"}"), ToolContext.NONE);

    String id = queued.path("structuredContent").path("job_id").asText();
    assertThat(id).isNotBlank();
    JsonNode done = awaitFinished(id);
    assertThat(done.path("status").asText()).isEqualTo("completed");
    assertThat(done.path("progress").path("message").asText()).isEqualTo("half");
    assertThat(done.path("result").path("structuredContent").path("baked").asText())
        .isEqualTo("bread");
  }

  @Test
  void callTool_twoHundredConcurrentAsyncCalls_allCompleteWithTheirResults() throws Exception {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      ids.add(
          callAsync("work__square", "{\"n\":" + i + "}", null)
              .path("structuredContent")
              .path("job_id")
              .asText());
    }

    await().atMost(WAIT).until(() -> service.jobs().activeJobs() == 0);
    for (int i = 0; i < 200; i++) {
      JsonNode done = status(ids.get(i));
      assertThat(done.path("status").asText()).isEqualTo("completed");
      assertThat(done.path("result").path("structuredContent").path("square").asInt())
          .isEqualTo(i * i);
    }
  }

  @Test
  void jobsCancel_parentJob_cancelsChildScriptAndKillsItsProcessTree() throws Exception {
    Path pidFile = root.resolve("child.pid");
    String parent =
        callAsync("work__hang", "{\"pid\":\"" + root.resolve("parent.pid") + "\"}", null)
            .path("structuredContent")
            .path("job_id")
            .asText();
    String child =
        callAsync("work__hang", "{\"pid\":\"" + pidFile + "\"}", parent)
            .path("structuredContent")
            .path("job_id")
            .asText();
    await().atMost(WAIT).until(() -> Files.exists(pidFile) && !Files.readString(pidFile).isBlank());

    ObjectNode cancel = call("jobs_cancel", "{\"job_id\":\"" + parent + "\"}");

    assertThat(cancel.path("structuredContent").path("cancelled").asBoolean()).isTrue();
    assertThat(status(parent).path("status").asText()).isEqualTo("cancelled");
    assertThat(status(child).path("status").asText()).isEqualTo("cancelled");
    long pid = Long.parseLong(Files.readString(pidFile).strip());
    await().atMost(WAIT).until(() -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true));
  }

  @Test
  void callTool_asyncWithInvalidArguments_isRefusedAtOnceWithoutAJob() throws Exception {
    ObjectNode result = callAsync("work__square", "{\"n\":\"seven\"}", null);

    assertThat(result.path("isError").asBoolean()).isTrue();
    assertThat(result.path("structuredContent").path("code").asText())
        .isEqualTo("INVALID_ARGUMENTS");
    assertThat(result.path("structuredContent").has("job_id")).isFalse();
    assertThat(service.jobs().store().all()).isEmpty();
  }

  @Test
  void jobsGetStatus_unknownJob_isErrorJobNotFound() throws Exception {
    ObjectNode result = call("jobs_get_status", "{\"job_id\":\"nope\"}");

    assertThat(result.path("isError").asBoolean()).isTrue();
    assertThat(result.path("structuredContent").path("code").asText()).isEqualTo("JOB_NOT_FOUND");
  }

  @Test
  void jobsCleanup_zeroHours_removesFinishedJobs() throws Exception {
    String id =
        callAsync("work__square", "{\"n\":3}", null)
            .path("structuredContent")
            .path("job_id")
            .asText();
    awaitFinished(id);

    ObjectNode cleaned = call("jobs_cleanup", "{\"older_than_hours\":0}");

    assertThat(cleaned.path("structuredContent").path("removed").asInt()).isEqualTo(1);
    assertThat(call("jobs_get_status", "{\"job_id\":\"" + id + "\"}").path("isError").asBoolean())
        .isTrue();
  }

  private ObjectNode callAsync(String tool, String args, String parent) throws Exception {
    ObjectNode meta = JSON.createObjectNode();
    ObjectNode dcc = meta.putObject("dcc").put("async", true);
    if (parent != null) {
      dcc.put("parentJobId", parent);
    }
    return service.callTool(
        session,
        tool,
        JSON.readTree(args),
        ToolContext.NONE,
        CallMeta.fromRequest(meta, "s1", updates::add));
  }

  private ObjectNode call(String tool, String args) throws Exception {
    return service.callTool(session, tool, JSON.readTree(args), ToolContext.NONE);
  }

  private JsonNode status(String id) throws Exception {
    return call("jobs_get_status", "{\"job_id\":\"" + id + "\",\"include_result\":true}")
        .path("structuredContent");
  }

  private JsonNode awaitFinished(String id) throws Exception {
    await()
        .atMost(WAIT)
        .until(() -> !List.of("pending", "running").contains(status(id).path("status").asText()));
    return status(id);
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}

package dev.skillport.benchmarks.exec;

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
import dev.skillport.runtime.CapabilityRequiredException;
import dev.skillport.runtime.HandlerRegistry;
import dev.skillport.runtime.ScriptPolicy;
import dev.skillport.runtime.ScriptToolRunner;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.UnknownToolException;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.JobStatus;
import dev.skillport.runtime.jobs.JobStore;
import dev.skillport.runtime.jobs.MemoryJobStore;
import dev.skillport.runtime.jobs.MvStoreJobStore;
import dev.skillport.server.app.SkillportService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * An in-process {@link SkillportService} whose one skill has a trivial Java handler tool, with a
 * {@link JobScheduler} over a memory or MVStore job store. {@link #drain(int)} submits a batch of
 * asynchronous calls ({@code _meta.dcc.async}) and waits until every job has finished.
 */
public final class JobQueueRun implements AutoCloseable {
  /** The tool every job calls. */
  public static final String TOOL = "bench-jobs__square";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path dir;
  private final SkillportService service;
  private final SessionState session;

  private JobQueueRun(Path dir, boolean persistent, int workers) throws IOException {
    this.dir = dir;
    Path skill = dir.resolve("skills").resolve("bench-jobs");
    Files.createDirectories(skill);
    Files.writeString(
        skill.resolve("SKILL.md"),
        "---\nname: bench-jobs\ndescription: Squares numbers, for job queue benchmarks\n"
            + "metadata:\n  dcc-mcp:\n    tools: tools.yaml\n---\n");
    Files.writeString(
        skill.resolve("tools.yaml"),
        "tools:\n  - name: square\n    description: Squares n\n    handler: bench.square\n"
            + "    input_schema: {type: object, properties: {n: {type: integer}}, required: [n]}\n");
    LoadResult loaded =
        new SkillLoader(LoaderOptions.DEFAULTS)
            .load(List.of(SkillRoot.of(dir.resolve("skills"), Scope.REPO)));
    if (loaded.skills().size() != 1) {
      throw new IllegalStateException("benchmark skill did not load: " + loaded.diagnostics());
    }
    HandlerRegistry handlers = new HandlerRegistry();
    handlers.register(
        "bench.square",
        inv -> {
          long n = inv.arguments().path("n").asLong();
          return ToolResult.structured(JSON.createObjectNode().put("square", n * n));
        });
    ScriptToolRunner scripts = new ScriptToolRunner(ScriptPolicy.defaults());
    JobStore store = persistent ? MvStoreJobStore.open(dir.resolve("jobs")) : new MemoryJobStore();
    this.service =
        SkillportService.builder(
                new CatalogHolder(Catalog.of(1, loaded.skills(), loaded.diagnostics())), handlers)
            .scripts(scripts)
            .jobs(new JobScheduler(store, workers))
            .preload(List.of("bench-jobs"))
            .pageSize(100)
            .build();
    this.session = service.openSession(method -> {});
  }

  /**
   * A service over a fresh temp folder; {@code persistent} picks the MVStore job store (in that
   * folder) over the memory store.
   */
  public static JobQueueRun start(boolean persistent, int workers) throws IOException {
    return new JobQueueRun(Files.createTempDirectory("skillport-jobs-bench"), persistent, workers);
  }

  /** The scheduler behind the service, for checking what the jobs left behind. */
  public JobScheduler jobs() {
    return service.jobs();
  }

  /**
   * Submits {@code count} async calls and waits for all of them to finish.
   *
   * @return the nanoseconds from the first submission to the last finished job
   * @throws IllegalStateException when a call is not queued or a job does not complete
   */
  public long drain(int count)
      throws InterruptedException, UnknownToolException, CapabilityRequiredException {
    CountDownLatch finished = new CountDownLatch(count);
    AtomicInteger completed = new AtomicInteger();
    Consumer<ObjectNode> updates =
        status -> {
          JobStatus s = JobStatus.fromWire(status.path("status").asText()).orElseThrow();
          if (s.terminal()) {
            if (s == JobStatus.COMPLETED) {
              completed.incrementAndGet();
            }
            finished.countDown();
          }
        };
    CallMeta async = new CallMeta("bench", true, null, updates);
    long start = System.nanoTime();
    for (int i = 0; i < count; i++) {
      JsonNode queued =
          service.callTool(
              session, TOOL, JSON.createObjectNode().put("n", i), ToolContext.NONE, async);
      if (queued.path("isError").asBoolean(true)) {
        throw new IllegalStateException("call was not queued: " + queued);
      }
    }
    if (!finished.await(5, TimeUnit.MINUTES)) {
      throw new IllegalStateException(finished.getCount() + " jobs still open after 5 minutes");
    }
    long elapsed = System.nanoTime() - start;
    if (completed.get() != count) {
      throw new IllegalStateException((count - completed.get()) + " jobs did not complete");
    }
    return elapsed;
  }

  /** Removes the finished jobs, so every batch starts from an equally small store. */
  public int clear() {
    return service.jobs().cleanup(Duration.ZERO);
  }

  @Override
  public void close() throws IOException {
    service.jobs().close();
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}

package dev.skillport.server.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.mcp.Era;
import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.McpException;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.RequestContext;
import dev.skillport.runtime.jobs.JobRecord;
import dev.skillport.runtime.jobs.OwnedJobs;
import dev.skillport.server.app.SkillportService;
import dev.skillport.server.app.TaskView;
import java.util.Objects;

/**
 * The {@code io.modelcontextprotocol/tasks} extension of the stateless era, on the job store: a
 * call that becomes a job answers with its task, {@code tasks/get} reads it (its result, error or
 * the questions it waits on), {@code tasks/update} delivers answers, {@code tasks/cancel} cancels
 * it (a script's process tree is killed). Task ids are the job ids: random UUIDs. A task is visible
 * to the caller that created it only ({@link OwnedJobs}); any other id reads as unknown, so a
 * task's existence does not leak.
 */
final class TasksFeature implements McpFeature {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final SkillportService service;

  TasksFeature(SkillportService service) {
    this.service = Objects.requireNonNull(service, "service");
  }

  @Override
  public void capabilities(ObjectNode capabilities) {
    // Not defined before 2026-07-28: sessions keep their own jobs and jobs_* tools.
  }

  @Override
  public void modernCapabilities(ObjectNode capabilities) {
    ObjectNode extensions =
        capabilities.get("extensions") instanceof ObjectNode existing
            ? existing
            : capabilities.putObject("extensions");
    extensions.putObject(TaskView.EXTENSION);
  }

  @Override
  public void register(McpServer.Builder builder) {
    builder
        .handler("tasks/get", (ctx, params) -> TaskView.detailed(task(ctx, params)))
        .handler("tasks/update", this::update)
        .handler("tasks/cancel", this::cancel)
        .onlyIn(Era.MODERN, "tasks/get", "tasks/update", "tasks/cancel");
  }

  private JsonNode update(RequestContext ctx, JsonNode params) throws McpException {
    JobRecord job = task(ctx, params);
    JsonNode responses = params.get("inputResponses");
    if (responses == null || !responses.isObject()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "inputResponses (an object) is required");
    }
    owned(ctx).answer(job.id(), responses);
    return NODES.objectNode();
  }

  private JsonNode cancel(RequestContext ctx, JsonNode params) throws McpException {
    JobRecord job = task(ctx, params);
    owned(ctx).cancel(job.id());
    return NODES.objectNode();
  }

  /** The tasks the caller owns: the only ones its requests reach. */
  private OwnedJobs owned(RequestContext ctx) {
    return new OwnedJobs(service.jobs(), ctx.caller().identity());
  }

  /** The caller's task named by {@code params.taskId}. */
  private JobRecord task(RequestContext ctx, JsonNode params) throws McpException {
    if (!ctx.clientSupportsExtension(TaskView.EXTENSION)) {
      ObjectNode data = NODES.objectNode();
      data.putObject("requiredCapabilities").putObject("extensions").putObject(TaskView.EXTENSION);
      throw new McpException(
          ErrorKind.MISSING_CLIENT_CAPABILITY,
          "Missing required client capability: declare the " + TaskView.EXTENSION + " extension",
          data);
    }
    JsonNode id = params.get("taskId");
    if (id == null || !id.isTextual() || id.asText().isBlank()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "taskId (a string) is required");
    }
    return owned(ctx)
        .status(id.asText())
        .orElseThrow(
            () -> new McpException(ErrorKind.INVALID_PARAMS, "Unknown task: " + id.asText()));
  }
}

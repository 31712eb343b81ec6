package dev.skillport.runtime.core;

import static dev.skillport.runtime.core.CoreTools.NODES;
import static dev.skillport.runtime.core.CoreTools.noSuchJob;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.registry.Catalog;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.OwnedJobs;
import dev.skillport.runtime.jobs.ResultRenderer;

/**
 * {@code jobs_get_status}: a job of the caller's, its progress, its result once finished and the
 * lines it logged.
 */
final class JobsGetStatus implements CoreToolCall {
  private final JobScheduler jobs;
  private final ResultRenderer results;

  JobsGetStatus(JobScheduler jobs, ResultRenderer results) {
    this.jobs = jobs;
    this.results = results;
  }

  @Override
  public ToolResult call(Catalog catalog, SessionState session, JsonNode args, ToolContext ctx) {
    return jobStatus(new OwnedJobs(jobs, ctx.principal()), args);
  }

  private ToolResult jobStatus(OwnedJobs jobs, JsonNode a) {
    String id = a.path("job_id").asText("");
    boolean withResult = a.path("include_result").asBoolean(true);
    boolean withLogs = a.path("include_logs").asBoolean(false);
    return jobs.status(id)
        .map(
            job -> {
              ObjectNode out = withResult ? job.toWire(results) : job.toWire();
              if (withLogs) {
                out.set("logs", jobs.logs(id).orElseGet(JobsGetStatus::logsNotKept));
              }
              return ToolResult.structured(out);
            })
        .orElseGet(() -> noSuchJob(id));
  }

  /** The logs of a job this run did not start, or started too long ago: none kept. */
  private static ObjectNode logsNotKept() {
    ObjectNode o = NODES.objectNode();
    o.putArray("lines");
    return o.put("truncated", false).put("dropped_lines", 0).put("kept", false);
  }
}

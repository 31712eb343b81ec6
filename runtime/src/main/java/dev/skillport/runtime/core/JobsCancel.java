package dev.skillport.runtime.core;

import static dev.skillport.runtime.core.CoreTools.NODES;
import static dev.skillport.runtime.core.CoreTools.noSuchJob;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.registry.Catalog;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.OwnedJobs;

/** {@code jobs_cancel}: cancels a pending or running job of the caller's and its child jobs. */
final class JobsCancel implements CoreToolCall {
  private final JobScheduler jobs;

  JobsCancel(JobScheduler jobs) {
    this.jobs = jobs;
  }

  @Override
  public ToolResult call(Catalog catalog, SessionState session, JsonNode args, ToolContext ctx) {
    return cancelJob(new OwnedJobs(jobs, ctx.principal()), args);
  }

  private static ToolResult cancelJob(OwnedJobs jobs, JsonNode a) {
    String id = a.path("job_id").asText("");
    if (jobs.status(id).isEmpty()) {
      return noSuchJob(id);
    }
    boolean cancelled = jobs.cancel(id);
    return ToolResult.structured(NODES.objectNode().put("job_id", id).put("cancelled", cancelled));
  }
}

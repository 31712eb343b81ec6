package dev.skillport.runtime.core;

import static dev.skillport.runtime.core.CoreTools.NODES;
import static dev.skillport.runtime.core.CoreTools.invalid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.registry.Catalog;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.OwnedJobs;
import java.time.Duration;

/** {@code jobs_cleanup}: removes the caller's finished jobs older than an age. */
final class JobsCleanup implements CoreToolCall {
  private final JobScheduler jobs;

  JobsCleanup(JobScheduler jobs) {
    this.jobs = jobs;
  }

  @Override
  public ToolResult call(Catalog catalog, SessionState session, JsonNode args, ToolContext ctx) {
    return cleanupJobs(new OwnedJobs(jobs, ctx.principal()), args);
  }

  private static ToolResult cleanupJobs(OwnedJobs jobs, JsonNode a) {
    double hours = a.path("older_than_hours").asDouble(24);
    if (!(hours >= 0)) {
      return invalid("older_than_hours must not be negative", null);
    }
    int removed = jobs.cleanup(Duration.ofSeconds(Math.round(hours * 3600)));
    ObjectNode out = NODES.objectNode().put("removed", removed);
    if (hours == Math.rint(hours) && hours <= Integer.MAX_VALUE) {
      out.put("older_than_hours", (int) hours);
    } else {
      out.put("older_than_hours", hours);
    }
    return ToolResult.structured(out);
  }
}

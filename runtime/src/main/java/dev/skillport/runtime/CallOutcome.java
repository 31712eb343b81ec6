package dev.skillport.runtime;

import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.skill.NextTools;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.runtime.jobs.JobRecord;
import java.util.Objects;
import java.util.Optional;

/**
 * What one tool call came to, before anything is written for a client: a result (the tool ran, and
 * may have failed), a job it became, or a refusal before anything ran. The MCP surface renders it
 * ({@code SkillportService.callTool} in the server); the audit, the statistics and workflow steps
 * read it as it is, never from the wire shape.
 */
public sealed interface CallOutcome {
  /** Visits the outcome's kind. */
  <R> R accept(Visitor<R> visitor);

  /** The word the audit trail and the statistics record: {@code ok}, {@code queued} or a code. */
  String auditWord();

  /**
   * What the call produced, through {@code call_tool} too: the tool's result or the refusal; empty
   * when the call became a job.
   */
  default Optional<ToolResult> ranResult() {
    return accept(
        new Visitor<Optional<ToolResult>>() {
          @Override
          public Optional<ToolResult> completed(Completed completed) {
            return Optional.of(completed.result());
          }

          @Override
          public Optional<ToolResult> queued(Queued queued) {
            return Optional.empty();
          }

          @Override
          public Optional<ToolResult> refused(Refused refused) {
            return Optional.of(refused.result());
          }

          @Override
          public Optional<ToolResult> delegated(Delegated delegated) {
            return delegated.outcome().ranResult();
          }
        });
  }

  /** One method per kind of outcome. */
  interface Visitor<R> {
    R completed(Completed completed);

    R queued(Queued queued);

    R refused(Refused refused);

    R delegated(Delegated delegated);
  }

  /** A refusal with its code, message and hint, before anything ran. */
  static Refused refused(ToolFailureCode code, String message, String hint) {
    return new Refused(code, ToolResult.failure(code, message, hint), null);
  }

  /**
   * The tool ran and produced {@code result} ({@code isError} when the tool itself failed).
   *
   * @param next the tool's follow-up hints, or null
   */
  record Completed(ToolResult result, NextTools next) implements CallOutcome {
    public Completed {
      Objects.requireNonNull(result, "result");
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.completed(this);
    }

    @Override
    public String auditWord() {
      if (!result.isError()) {
        return "ok";
      }
      return result.structured() != null && result.structured().path("code").isTextual()
          ? result.structured().get("code").asText()
          : "error";
    }
  }

  /** The call became {@code job} (a job or, for a client of the Tasks extension, a task). */
  record Queued(JobRecord job) implements CallOutcome {
    public Queued {
      Objects.requireNonNull(job, "job");
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.queued(this);
    }

    @Override
    public String auditWord() {
      return "queued";
    }
  }

  /**
   * Refused before anything ran; {@code result} is the failure a client is shown.
   *
   * @param next the refused tool's follow-up hints, or null
   */
  record Refused(ToolFailureCode code, ToolResult result, NextTools next) implements CallOutcome {
    public Refused {
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(result, "result");
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.refused(this);
    }

    @Override
    public String auditWord() {
      return code.name();
    }
  }

  /**
   * {@code call_tool} called {@code name}, which resolved to {@code tool} of {@code skill} (both
   * null when the name named no skill's tool), and came to {@code outcome}.
   */
  record Delegated(CallOutcome outcome, String name, String skill, ToolSpec tool)
      implements CallOutcome {
    public Delegated {
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(name, "name");
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.delegated(this);
    }

    @Override
    public String auditWord() {
      return outcome.auditWord();
    }
  }
}

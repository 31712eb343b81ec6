package dev.skillport.runtime.jobs;

import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.skill.NextTools;
import java.util.Objects;

/**
 * What a job's call produced, as a value: the tool's result and the follow-up hints it is shown
 * with. A job keeps it as it is; the store writes it with {@link JobRecordCodec} and the MCP
 * surface renders it ({@link ResultRenderer}).
 *
 * @param result the call's result
 * @param next the tool's follow-up hints, or {@code null}
 */
public record JobResult(ToolResult result, NextTools next) {
  private static final String FAILED = "the call failed";

  public JobResult {
    Objects.requireNonNull(result, "result");
  }

  /** A job's result without follow-up hints. */
  public static JobResult of(ToolResult result) {
    return new JobResult(result, null);
  }

  /**
   * Why the call failed, in one line, or {@code null} when it did not: {@code CODE: message} of a
   * typed failure, else the result's first text.
   */
  public String failure() {
    if (!result.isError()) {
      return null;
    }
    if (result.failure() != null) {
      return result.failure().reason();
    }
    return result.content().isEmpty() ? FAILED : result.content().get(0).accept(FIRST_TEXT);
  }

  /** The text of a failure's first content; other kinds say only that the call failed. */
  private static final Content.Visitor<String> FIRST_TEXT =
      new Content.Visitor<>() {
        @Override
        public String text(Content.Text text) {
          return text.text();
        }

        @Override
        public String image(Content.Image image) {
          return FAILED;
        }

        @Override
        public String audio(Content.Audio audio) {
          return FAILED;
        }

        @Override
        public String embeddedResource(Content.EmbeddedResource resource) {
          return FAILED;
        }
      };
}

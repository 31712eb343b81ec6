package dev.skillport.runtime.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.skill.NextTools;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobRecordCodecTest {
  private static final Instant T = Instant.parse("2026-03-01T10:00:00Z");
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void readWrite_failedCallWithTypedFailureAndHints_comesBackEqual() throws Exception {
    ToolResult failed =
        ToolResult.failure(
            ToolFailureCode.SCRIPT_FAILED,
            "exit 3",
            "check the input",
            JsonNodeFactory.instance.objectNode().put("exit_code", 3));
    JobResult result = new JobResult(failed, new NextTools(List.of("a"), List.of("b", "c")));
    JobRecord job =
        JobRecord.pending("j1", "make_cube", "s1", null, "alice", T)
            .running(T)
            .finished(JobStatus.FAILED, T, result.failure(), result);

    JobRecord back = JobRecordCodec.read(JSON.readTree(JobRecordCodec.write(job).toString()));

    assertThat(back).isEqualTo(job);
    assertThat(back.result().result().failure().code()).isEqualTo("SCRIPT_FAILED");
    assertThat(back.error()).isEqualTo("SCRIPT_FAILED: exit 3");
  }

  @Test
  void readWrite_everyKindOfContent_comesBackEqual() {
    ToolResult mixed =
        new ToolResult(
            List.of(
                new Content.Text("t"),
                new Content.Image("aW1n", "image/png"),
                new Content.Audio("YXVk", "audio/wav"),
                new Content.EmbeddedResource("skill://x/a.txt", "text/plain", "hi", null),
                new Content.EmbeddedResource("skill://x/b.bin", null, null, "Ymlu")),
            JsonNodeFactory.instance.objectNode().put("n", 1),
            false);
    JobRecord job =
        JobRecord.pending("j2", "t", null, null, T)
            .running(T)
            .finished(JobStatus.COMPLETED, T, null, JobResult.of(mixed));

    assertThat(JobRecordCodec.read(JobRecordCodec.write(job))).isEqualTo(job);
  }

  @Test
  void read_unknownContentType_isADamagedRecord() {
    var stored =
        JobRecordCodec.write(
            JobRecord.pending("j3", "t", null, null, T)
                .running(T)
                .finished(JobStatus.COMPLETED, T, null, JobResult.of(ToolResult.text("x"))));
    ((com.fasterxml.jackson.databind.node.ObjectNode) stored.get("call").get("content").get(0))
        .put("type", "hologram");

    assertThatThrownBy(() -> JobRecordCodec.read(stored))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hologram");
  }
}

package dev.skillport.benchmarks.exec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.tool.ToolResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ScriptCallPathsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @ParameterizedTest
  @ValueSource(strings = {"python", "bash"})
  void runnerAndBare_sameScript_echoTheSameArguments(String kind) throws Exception {
    try (ScriptCallPaths paths = ScriptCallPaths.create(kind)) {
      ToolResult viaRunner = paths.runner();
      byte[] bare = paths.bare();

      assertThat(viaRunner.isError()).as(viaRunner.toString()).isFalse();
      assertThat(viaRunner.structured().path("echo").path("text").asText()).isEqualTo("hello");
      assertThat(JSON.readTree(bare).path("echo").path("text").asText()).isEqualTo("hello");
    }
  }
}

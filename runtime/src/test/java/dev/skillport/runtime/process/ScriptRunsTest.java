package dev.skillport.runtime.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScriptRunsTest {
  @TempDir Path dir;

  @Test
  void killLeftovers_recordedScriptStillRunning_isKilledAndForgotten() throws Exception {
    ProcessBuilder pb = new ProcessBuilder("sleep", "60");
    pb.environment().put(ProcessTree.VARIABLE, "skillport-1-a-1");
    Process left = pb.start();
    try {
      ScriptRuns.in(dir)
          .started(left.pid(), left.info().startInstant().orElseThrow(), "skillport-1-a-1");

      int killed = ScriptRuns.in(dir).killLeftovers();

      assertThat(left.waitFor(5, TimeUnit.SECONDS)).isTrue();
      assertThat(killed).isEqualTo(1);
      try (var files = Files.list(dir)) {
        assertThat(files).isEmpty();
      }
    } finally {
      left.destroyForcibly();
    }
  }

  @Test
  void killLeftovers_pidNowAnotherProgram_isLeftAlone() throws Exception {
    // Another program: a different start time and no marker of the recorded run.
    Process other = new ProcessBuilder("sleep", "60").start();
    try {
      ScriptRuns.in(dir).started(other.pid(), Instant.now().minusSeconds(3600), "skillport-1-a-2");

      assertThat(ScriptRuns.in(dir).killLeftovers()).isZero();
      assertThat(other.isAlive()).isTrue();
    } finally {
      other.destroyForcibly();
    }
  }

  @Test
  void ended_forgetsTheRun() throws Exception {
    ScriptRuns runs = ScriptRuns.in(dir);
    runs.started(1, Instant.now(), "skillport-1-a-3");
    runs.ended("skillport-1-a-3");
    try (var files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }
}

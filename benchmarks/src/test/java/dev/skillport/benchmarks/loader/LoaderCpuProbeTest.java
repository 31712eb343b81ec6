package dev.skillport.benchmarks.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class LoaderCpuProbeTest {

  @Test
  void run_smallTree_reportsEachRoundAndAPositiveMedian() throws Exception {
    StringWriter text = new StringWriter();
    LoaderCpuProbe probe = new LoaderCpuProbe(new PrintWriter(text, true));

    double median = probe.run(5, 2, 0, 1);

    assertThat(median).isPositive();
    assertThat(text.toString())
        .contains("round 1: ", "round 2: ", "skills per thread CPU-second (median): ");
  }

  @Test
  void run_zeroRounds_isRefused() {
    LoaderCpuProbe probe = new LoaderCpuProbe(new PrintWriter(new StringWriter(), true));

    assertThatThrownBy(() -> probe.run(5, 0, 0, 1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void round_rates_divideSkillsByEachTime() {
    LoaderCpuProbe.Round round =
        new LoaderCpuProbe.Round(100, 500_000_000L, 1_000_000_000L, 2_000_000_000L);

    assertThat(round.perThreadCpuSecond()).isEqualTo(200.0);
    assertThat(round.perProcessCpuSecond()).isEqualTo(100.0);
    assertThat(round.perWallSecond()).isEqualTo(50.0);
  }
}

package dev.skillport.benchmarks.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.api.tool.ToolResult;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class HostCallPathsTest {

  @Test
  void bothPaths_sameScript_giveTheSameAnswer() throws Exception {
    try (HostCallPaths paths = HostCallPaths.start()) {
      ToolResult host = paths.inHost();
      ToolResult process = paths.subprocess();
      assertThat(host.isError()).as(host.toString()).isFalse();
      assertThat(process.isError()).as(process.toString()).isFalse();
      assertThat(host.structured().get("sum").asInt()).isEqualTo(5);
      assertThat(process.structured().get("sum").asInt()).isEqualTo(5);
    }
  }

  @Test
  void inHost_warm_isFasterThanAProcessPerCall() throws Exception {
    try (HostCallPaths paths = HostCallPaths.start()) {
      long[] host = new long[15];
      long[] process = new long[15];
      for (int i = 0; i < host.length; i++) {
        long t0 = System.nanoTime();
        paths.inHost();
        long t1 = System.nanoTime();
        paths.subprocess();
        host[i] = t1 - t0;
        process[i] = System.nanoTime() - t1;
      }
      Arrays.sort(host);
      Arrays.sort(process);
      // Starting Python costs tens of milliseconds; a queued call into a warm host does not.
      assertThat(host[host.length / 2]).isLessThan(process[process.length / 2]);
    }
  }
}

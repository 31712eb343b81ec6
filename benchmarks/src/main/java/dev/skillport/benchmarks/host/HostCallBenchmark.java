package dev.skillport.benchmarks.host;

import dev.skillport.api.tool.ToolResult;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A script tool call through the sample Python host adapter's in-host executor against the same
 * script as a subprocess. Sample-time mode reports p50 and p99 of each ({@code ·p0.50} rows).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
public class HostCallBenchmark {
  private HostCallPaths paths;

  @Setup
  public void start() throws Exception {
    paths = HostCallPaths.start();
  }

  @TearDown
  public void stop() throws Exception {
    paths.close();
  }

  @Benchmark
  public ToolResult inHostExecutor() throws Exception {
    return paths.inHost();
  }

  @Benchmark
  public ToolResult subprocess() {
    return paths.subprocess();
  }
}

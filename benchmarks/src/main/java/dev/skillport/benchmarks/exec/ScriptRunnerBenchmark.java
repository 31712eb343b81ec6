package dev.skillport.benchmarks.exec;

import dev.skillport.api.tool.ToolResult;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A trivial script tool call through the server's script runner against the same interpreter and
 * script spawned bare. Sample-time mode reports p50 and p99 of each; the runner's overhead is the
 * difference of the {@code ·p0.50} rows for the same {@code kind}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
public class ScriptRunnerBenchmark {
  @Param({"python", "bash"})
  public String kind;

  private ScriptCallPaths paths;

  @Setup
  public void create() throws Exception {
    paths = ScriptCallPaths.create(kind);
  }

  @TearDown
  public void delete() throws Exception {
    paths.close();
  }

  @Benchmark
  public ToolResult runner() {
    return paths.runner();
  }

  @Benchmark
  public byte[] bare() throws Exception {
    return paths.bare();
  }
}

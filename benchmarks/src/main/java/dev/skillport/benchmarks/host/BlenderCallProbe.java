package dev.skillport.benchmarks.host;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.adapters.blender.BlenderAdapter;
import dev.skillport.api.host.HostCall;
import dev.skillport.api.host.HostExecutor;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One small {@code bpy} script called two ways: through the Blender adapter's main-thread executor
 * (a request to the Blender the adapter keeps running) and by starting {@code blender -b
 * --factory-startup} for every call, as a server without the adapter would have to. Prints p50, p99
 * and max of each.
 *
 * <p>Arguments: in-Blender calls (default 1000), spawned calls (default 20), the Blender executable
 * (default: {@code SKILLPORT_BLENDER}, else {@code blender} on {@code PATH}).
 */
public final class BlenderCallProbe {
  /** Works both ways: {@code main(**params)} in the adapter, argv and stdout when spawned. */
  static final String SCRIPT =
      """
      import json, sys
      import bpy

      def main(a, b, **params):
          return {"sum": a + b, "objects": len(bpy.data.objects)}

      if __name__ == "__main__":
          params = json.loads(sys.argv[sys.argv.index("--") + 1])
          print("RESULT:" + json.dumps(main(**params)), flush=True)
      """;

  private static final ObjectMapper JSON = new ObjectMapper();

  private BlenderCallProbe() {}

  public static void main(String[] argv) throws Exception {
    int inHostCalls = argv.length > 0 ? Integer.parseInt(argv[0]) : 1000;
    int spawnedCalls = argv.length > 1 ? Integer.parseInt(argv[1]) : 20;
    String blender =
        argv.length > 2 ? argv[2] : System.getenv().getOrDefault("SKILLPORT_BLENDER", "blender");
    Path skill = Files.createTempDirectory("skillport-blender-bench");
    try {
      Path script = Files.createDirectories(skill.resolve("scripts")).resolve("add.py");
      Files.writeString(script, SCRIPT);
      long[] inHost = inHost(blender, skill, script, inHostCalls);
      long[] spawned = spawned(blender, skill, script, spawnedCalls);
      PrintStream out = System.out;
      out.println(line("in Blender (adapter executor)", inHost));
      out.println(line("blender -b per call", spawned));
      out.printf(
          Locale.ROOT,
          "p50 ratio: spawning is %.0f times slower%n",
          (double) pct(spawned, 0.50) / pct(inHost, 0.50));
    } finally {
      try (Stream<Path> paths = Files.walk(skill)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static long[] inHost(String blender, Path skill, Path script, int calls)
      throws Exception {
    BlenderAdapter adapter = new BlenderAdapter();
    adapter.configure(Map.of(BlenderAdapter.EXECUTABLE, blender));
    adapter.start();
    try {
      HostExecutor executor = adapter.mainThreadExecutor().orElseThrow();
      JsonNode args = JSON.createObjectNode().put("a", 2).put("b", 3);
      HostCall call =
          new HostCall(
              "bench", "add", script, skill, args, Duration.ofSeconds(30), ToolContext.NONE);
      for (int i = 0; i < Math.min(100, calls); i++) {
        check(executor.execute(call));
      }
      long[] samples = new long[calls];
      for (int i = 0; i < calls; i++) {
        long t0 = System.nanoTime();
        ToolResult r = executor.execute(call);
        samples[i] = System.nanoTime() - t0;
        check(r);
      }
      Arrays.sort(samples);
      return samples;
    } finally {
      adapter.stop();
    }
  }

  private static void check(ToolResult r) {
    if (r.isError() || r.structured() == null || r.structured().path("sum").asInt() != 5) {
      throw new IllegalStateException("the in-Blender call failed: " + r.content());
    }
  }

  private static long[] spawned(String blender, Path skill, Path script, int calls)
      throws Exception {
    Path tmp = Files.createDirectories(skill.resolve("tmp"));
    spawnOnce(blender, script, tmp); // the first start reads Blender from disk
    long[] samples = new long[calls];
    for (int i = 0; i < calls; i++) {
      long t0 = System.nanoTime();
      spawnOnce(blender, script, tmp);
      samples[i] = System.nanoTime() - t0;
    }
    Arrays.sort(samples);
    return samples;
  }

  private static void spawnOnce(String blender, Path script, Path tmp)
      throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(
                List.of(
                    blender,
                    "-b",
                    "--factory-startup",
                    "-noaudio",
                    "--python-exit-code",
                    "1",
                    "--python",
                    script.toString(),
                    "--",
                    "{\"a\": 2, \"b\": 3}"))
            .redirectErrorStream(true);
    builder.environment().put("TMPDIR", tmp.toString());
    builder.environment().put("XDG_CACHE_HOME", tmp.toString());
    Process p = builder.start();
    p.getOutputStream().close();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || !output.contains("RESULT:{\"sum\": 5")) {
      p.destroyForcibly();
      throw new IllegalStateException("the spawned Blender call failed:\n" + output);
    }
  }

  private static String line(String what, long[] sorted) {
    return String.format(
        Locale.ROOT,
        "%-30s %5d calls: p50 %9.3f ms, p99 %9.3f ms, max %9.3f ms",
        what,
        sorted.length,
        pct(sorted, 0.50) / 1e6,
        pct(sorted, 0.99) / 1e6,
        sorted[sorted.length - 1] / 1e6);
  }

  private static long pct(long[] sorted, double p) {
    int index = (int) Math.ceil(p * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }
}

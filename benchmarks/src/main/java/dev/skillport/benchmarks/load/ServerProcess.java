package dev.skillport.benchmarks.load;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A server under test started as a child process: its pid, its CPU time and peak resident memory
 * read from {@code /proc}, and its end (SIGTERM, then SIGKILL after 10 s).
 */
final class ServerProcess implements AutoCloseable {
  private static final long TICKS_PER_SECOND = 100;

  private final Process process;
  private final OutputStream stdin;

  private ServerProcess(Process process) {
    this.process = process;
    this.stdin = process.getOutputStream();
  }

  /** Starts {@code command}; its stderr goes to {@code log}, its stdout is discarded. */
  static ServerProcess start(List<String> command, Map<String, String> env, Path log)
      throws IOException {
    ProcessBuilder b = new ProcessBuilder(command);
    b.environment().putAll(env);
    b.redirectError(log.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    return new ServerProcess(b.start());
  }

  long pid() {
    return process.pid();
  }

  /** The process's user plus system CPU time so far, in nanoseconds (10 ms resolution). */
  long cpuNanos() throws IOException {
    return cpuNanos(pid());
  }

  /** Process {@code pid}'s user plus system CPU time so far, in nanoseconds (10 ms resolution). */
  static long cpuNanos(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    // Fields after the command name, which is in parentheses and may hold spaces.
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
    return ticks * (1_000_000_000L / TICKS_PER_SECOND);
  }

  /**
   * The CPU time so far of the process's JIT compiler threads ({@code C1 CompilerThread}, {@code C2
   * CompilerThread}), in nanoseconds. On a machine too busy for a warm-up to finish compiling, the
   * compilers' work lands in the measured window; subtracting it leaves the CPU the requests
   * themselves cost. A compiler thread that has ended is no longer counted.
   */
  long compilerCpuNanos() throws IOException {
    long ticks = 0;
    try (java.util.stream.Stream<Path> tasks =
        Files.list(Path.of("/proc", Long.toString(pid()), "task"))) {
      for (Path task : tasks.toList()) {
        try {
          // The thread name as the kernel keeps it, cut to 15 characters: "C2 CompilerThre".
          if (!Files.readString(task.resolve("comm")).contains("CompilerThre")) {
            continue;
          }
          String stat = Files.readString(task.resolve("stat"));
          String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException e) {
          // the thread ended meanwhile
        }
      }
    }
    return ticks * (1_000_000_000L / TICKS_PER_SECOND);
  }

  /** The process's peak resident set so far ({@code VmHWM}), in KiB. */
  long peakRssKiB() throws IOException {
    return peakRssKiB(pid());
  }

  /** The peak resident set of the process {@code pid} so far, in KiB; -1 when not reported. */
  static long peakRssKiB(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return -1;
  }

  /** Waits until a POST of {@code initialize} to {@code url} answers 200. */
  void awaitHttp(URI url, Duration timeout) throws Exception {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    String init =
        "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"probe\",\"version\":\"1\"}}}";
    long end = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < end) {
      if (!process.isAlive()) {
        throw new IllegalStateException("the server exited with " + process.exitValue());
      }
      try {
        HttpResponse<Void> r =
            client.send(
                HttpRequest.newBuilder(url)
                    .timeout(Duration.ofSeconds(5))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(init, StandardCharsets.UTF_8))
                    .build(),
                HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("the server did not answer at " + url);
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() throws IOException {
    try {
      stdin.close();
    } catch (IOException e) {
      // already gone
    }
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}

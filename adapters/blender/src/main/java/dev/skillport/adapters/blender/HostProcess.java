package dev.skillport.adapters.blender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Blender process running the host loop, and the pipes to it: JSON requests on its stdin, JSON
 * answers on its original stdout (the loop moves everything else Blender prints to stderr), and
 * stderr logged with its last lines kept for crash reports.
 */
final class HostProcess {
  private static final Logger LOG = LoggerFactory.getLogger(HostProcess.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SecureRandom RANDOM = new SecureRandom();

  /** An answer larger than this ends the process: the stream can no longer be trusted. */
  static final int MAX_MESSAGE_BYTES = 64 << 20;

  private static final int MAX_STDERR_LINE = 8 << 10;
  private static final int STDERR_TAIL_LINES = 30;

  /** What the process tells its owner, on the process's reader thread. */
  interface Listener {
    /** An answer or a progress report. */
    void message(HostProcess process, JsonNode message);

    /** The process ended (once); {@code how} describes the exit for people. */
    void exited(HostProcess process, String how);
  }

  private final Process process;
  private final Listener listener;
  private final String nonce;
  private final Instant startedAt;
  private final OutputStream requests;
  private final CompletableFuture<JsonNode> hello = new CompletableFuture<>();
  private final Deque<String> stderrTail = new ArrayDeque<>();
  private final AtomicBoolean killRequested = new AtomicBoolean();
  private volatile String exit;

  private HostProcess(Process process, Listener listener, String nonce, Instant startedAt) {
    this.process = process;
    this.listener = listener;
    this.nonce = nonce;
    this.startedAt = startedAt;
    this.requests = process.getOutputStream();
  }

  /**
   * Starts Blender in background mode with the host loop and waits until the loop says hello.
   *
   * @param workDir Blender's working folder; its temporary files and caches go below it
   * @throws BlenderUnavailableException when Blender cannot be started or exits before the loop
   *     runs
   */
  static HostProcess launch(
      BlenderInstall install, String loop, Path workDir, Duration handshake, Listener listener)
      throws BlenderUnavailableException {
    String nonce = HexFormat.of().formatHex(bytes());
    Process process;
    try {
      Path tmp = Files.createDirectories(workDir.resolve("tmp"));
      Path cache = Files.createDirectories(workDir.resolve("cache"));
      ProcessBuilder builder =
          new ProcessBuilder(
                  List.of(
                      install.executable().toString(),
                      "-b",
                      "--factory-startup",
                      "-noaudio",
                      "--python-exit-code",
                      "1",
                      "--python-expr",
                      loop))
              .directory(workDir.toFile());
      // Blender's session folder, crash logs and thumbnail cache stay under the adapter's folder,
      // which is removed on shutdown, instead of the user's temp and home folders.
      builder.environment().put("TMPDIR", tmp.toString());
      builder.environment().put("TEMP", tmp.toString());
      builder.environment().put("TMP", tmp.toString());
      builder.environment().put("XDG_CACHE_HOME", cache.toString());
      builder.environment().put("SKILLPORT_HOST_NONCE", nonce);
      process = builder.start();
    } catch (IOException e) {
      throw new BlenderUnavailableException(
          "Blender (" + install.executable() + ") could not be started: " + e.getMessage(), e);
    }
    HostProcess host = new HostProcess(process, listener, nonce, Instant.now());
    host.startThreads();
    try {
      JsonNode greeting = host.hello.get(handshake.toMillis(), TimeUnit.MILLISECONDS);
      if (!greeting.path("main_thread").asBoolean()) {
        host.kill();
        throw new BlenderUnavailableException(
            "Blender's host loop does not run on the main thread; it cannot serve main-thread"
                + " tools");
      }
      LOG.info(
          "Blender {} started (pid {}, Python {})",
          greeting.path("blender").asText(),
          host.pid(),
          greeting.path("python").asText());
      return host;
    } catch (TimeoutException e) {
      host.kill();
      throw new BlenderUnavailableException(
          "Blender ("
              + install.executable()
              + ") did not start its host loop within "
              + handshake.toSeconds()
              + " s"
              + host.stderrSuffix());
    } catch (ExecutionException e) {
      throw new BlenderUnavailableException(
          "Blender ("
              + install.executable()
              + ") exited before its host loop started: "
              + e.getCause().getMessage()
              + host.stderrSuffix());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      host.kill();
      throw new BlenderUnavailableException("interrupted while Blender was starting", e);
    }
  }

  private static byte[] bytes() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return b;
  }

  private void startThreads() {
    Thread reader = new Thread(this::readAnswers, "blender-" + pid() + "-answers");
    reader.setDaemon(true);
    reader.start();
    Thread errors = new Thread(this::readStderr, "blender-" + pid() + "-stderr");
    errors.setDaemon(true);
    errors.start();
  }

  long pid() {
    return process.pid();
  }

  Instant startedAt() {
    return startedAt;
  }

  /** The greeting's field, for example {@code blender} (the version) or {@code python}. */
  String greeting(String field) {
    return hello.isDone() && !hello.isCompletedExceptionally()
        ? hello.join().path(field).asText()
        : "";
  }

  boolean isAlive() {
    return exit == null && process.isAlive();
  }

  /** How the process ended, or {@code null} while it runs. */
  String exit() {
    return exit;
  }

  /** Whether the process was ended on purpose (a kill or a close), not by a crash. */
  boolean endedOnPurpose() {
    return killRequested.get();
  }

  /** Sends one request line. */
  void send(JsonNode request) throws IOException {
    byte[] line = (JSON.writeValueAsString(request) + "\n").getBytes(StandardCharsets.UTF_8);
    synchronized (requests) {
      requests.write(line);
      requests.flush();
    }
  }

  /** Ends the process and everything it started, now. */
  void kill() {
    killRequested.set(true);
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  /**
   * Ends the loop by closing its input (Blender then quits normally) and waits up to {@code grace}
   * before killing it.
   */
  void close(Duration grace) {
    killRequested.set(true);
    try {
      synchronized (requests) {
        requests.close();
      }
    } catch (IOException e) {
      LOG.debug("Blender's input was already closed: {}", e.toString());
    }
    try {
      if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        kill();
        process.waitFor(2, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      kill();
    }
  }

  /** The last lines Blender wrote to stderr, oldest first. */
  String stderrTail() {
    synchronized (stderrTail) {
      return String.join("\n", stderrTail);
    }
  }

  private String stderrSuffix() {
    String tail = stderrTail().strip();
    return tail.isEmpty() ? "" : "; Blender's last output:\n" + tail;
  }

  private void readAnswers() {
    String failure = null;
    try (InputStream in = process.getInputStream()) {
      LineReader lines = new LineReader(in, MAX_MESSAGE_BYTES, false);
      byte[] line;
      while ((line = lines.next()) != null) {
        handle(line);
      }
    } catch (MessageTooLargeException e) {
      failure = e.getMessage();
      LOG.warn("Blender (pid {}) {}; it is stopped", pid(), failure);
      kill();
    } catch (IOException e) {
      LOG.debug("Blender's answers could not be read: {}", e.toString());
    }
    exit = describeExit(failure);
    hello.completeExceptionally(new IOException(exit));
    listener.exited(this, exit);
  }

  private void handle(byte[] line) {
    JsonNode message;
    try {
      message = JSON.readTree(line);
    } catch (IOException e) {
      message = null;
    }
    if (!hello.isDone()) {
      if (message != null
          && "hello".equals(message.path("op").asText())
          && nonce.equals(message.path("nonce").asText())) {
        hello.complete(message);
      } else {
        LOG.debug("blender[{}] {}", pid(), new String(line, StandardCharsets.UTF_8).strip());
      }
      return;
    }
    if (message == null || !message.isObject()) {
      LOG.warn("Blender (pid {}) sent a line that is not a JSON object; ignored", pid());
      return;
    }
    listener.message(this, message);
  }

  private String describeExit(String failure) {
    long seconds = Duration.between(startedAt, Instant.now()).toSeconds();
    String code;
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        kill();
        process.waitFor(2, TimeUnit.SECONDS);
      }
      int value = process.exitValue();
      code =
          value > 128 && value < 160 && !isWindows()
              ? "exit code " + value + " (killed by signal " + (value - 128) + ")"
              : "exit code " + value;
    } catch (InterruptedException | IllegalThreadStateException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      code = "no exit code";
    }
    return (failure == null ? "" : failure + "; ")
        + "Blender (pid "
        + pid()
        + ") ended with "
        + code
        + " after "
        + seconds
        + " s";
  }

  private void readStderr() {
    try (InputStream in = process.getErrorStream()) {
      LineReader lines = new LineReader(in, MAX_STDERR_LINE, true);
      byte[] line;
      while ((line = lines.next()) != null) {
        String text = new String(line, StandardCharsets.UTF_8).stripTrailing();
        LOG.debug("blender[{}] {}", pid(), text);
        synchronized (stderrTail) {
          if (stderrTail.size() == STDERR_TAIL_LINES) {
            stderrTail.removeFirst();
          }
          stderrTail.addLast(text);
        }
      }
    } catch (IOException e) {
      LOG.debug("Blender's stderr could not be read: {}", e.toString());
    }
  }

  /** Reads lines of bytes in chunks; a line over the limit is cut or refused. */
  private static final class LineReader {
    private final InputStream in;
    private final int max;
    private final boolean cutLongLines;
    private final byte[] buffer = new byte[64 << 10];
    private int start;
    private int end;

    LineReader(InputStream in, int max, boolean cutLongLines) {
      this.in = in;
      this.max = max;
      this.cutLongLines = cutLongLines;
    }

    /** The next line without its end, or {@code null} at the end of the stream. */
    byte[] next() throws IOException {
      ByteArrayOutputStream line = new ByteArrayOutputStream(256);
      boolean cut = false;
      while (true) {
        if (start == end) {
          int n = in.read(buffer);
          if (n < 0) {
            return line.size() == 0 && !cut ? null : line.toByteArray();
          }
          start = 0;
          end = n;
        }
        int newline = start;
        while (newline < end && buffer[newline] != '\n') {
          newline++;
        }
        int room = max - line.size();
        int take = Math.min(newline - start, Math.max(room, 0));
        line.write(buffer, start, take);
        if (take < newline - start) {
          if (!cutLongLines) {
            throw new MessageTooLargeException(
                "sent an answer larger than " + (max >> 20) + " MiB");
          }
          cut = true;
        }
        if (newline < end) {
          start = newline + 1;
          return line.toByteArray();
        }
        start = end;
      }
    }
  }

  private static boolean isWindows() {
    return System.getProperty("os.name", "").startsWith("Windows");
  }

  /** An answer line over {@link #MAX_MESSAGE_BYTES}. */
  private static final class MessageTooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    MessageTooLargeException(String message) {
      super(message);
    }
  }
}

package dev.skillport.bridge;

import dev.skillport.mcp.client.McpClient;
import dev.skillport.model.skill.McpBridgeSpec;
import dev.skillport.runtime.process.ProcessTree;
import dev.skillport.runtime.secrets.Redactor;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running bridged server: its process (and every process it starts, found by a marker in their
 * environment), the MCP client on its stdin and stdout, and the redacted tail of its stderr.
 */
final class BridgeConnection {
  private static final Logger LOG = LoggerFactory.getLogger(BridgeConnection.class);

  /** Characters of stderr kept (its tail); older lines are dropped. */
  static final int STDERR_TAIL_CHARS = 64 * 1024;

  private static final int STDERR_LINE_BYTES = 8 * 1024;

  /**
   * How long an exit waits for stderr to be read to its end, so a crash report quotes the last
   * lines; a process that left a child holding stderr open is reported without waiting longer.
   */
  private static final Duration STDERR_DRAIN = Duration.ofSeconds(2);

  private final String skill;
  private final Process process;
  private final ProcessTree tree;
  private final McpClient client;
  private final Deque<String> stderr = new ArrayDeque<>();
  private int stderrChars;
  private volatile boolean stopping;

  private BridgeConnection(String skill, Process process, ProcessTree tree, McpClient client) {
    this.skill = skill;
    this.process = process;
    this.tree = tree;
    this.client = client;
  }

  /**
   * Starts the bridged server and its client.
   *
   * @param program the absolute path of the program to start, resolved and checked by the trust
   * @param marker this run's value of {@link ProcessTree#VARIABLE}
   * @param onExit called with the exit code when the process ends without {@link #stop} asking
   * @throws IOException when the command cannot be started
   */
  static BridgeConnection start(
      String skill,
      McpBridgeSpec spec,
      Path program,
      Map<String, String> env,
      String marker,
      McpClient.Options options,
      McpClient.Listener listener,
      Redactor redactor,
      IntConsumer onExit)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(program.toString());
    command.addAll(spec.args());
    ProcessBuilder pb = new ProcessBuilder(command).directory(spec.cwd().toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    pb.environment().put(ProcessTree.VARIABLE, marker);
    Process process = pb.start();
    ProcessTree tree = new ProcessTree(process, marker);
    McpClient client =
        McpClient.open(process.getInputStream(), process.getOutputStream(), options, listener);
    BridgeConnection connection = new BridgeConnection(skill, process, tree, client);
    Thread errors =
        new Thread(
            () -> connection.readStderr(process.getErrorStream(), redactor),
            "bridge-stderr-" + skill);
    errors.setDaemon(true);
    errors.start();
    process
        .onExit()
        .thenAccept(
            p -> {
              client.close();
              if (!connection.stopping) {
                // What it wrote last, often why it ended, may still be in the pipe.
                drained(errors);
                onExit.accept(p.exitValue());
              }
            });
    return connection;
  }

  private static void drained(Thread reader) {
    try {
      reader.join(STDERR_DRAIN.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  McpClient client() {
    return client;
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Remembers the processes the server has started so far, so a kill finds them. */
  void track() {
    tree.track();
  }

  /** The last {@code maxChars} characters of stderr, redacted, or "" when it wrote nothing. */
  synchronized String stderrTail(int maxChars) {
    StringBuilder out = new StringBuilder();
    for (String line : stderr) {
      out.append(line).append('\n');
    }
    String all = out.toString().strip();
    return all.length() <= maxChars ? all : "…" + all.substring(all.length() - maxChars + 1);
  }

  private void readStderr(InputStream err, Redactor redactor) {
    try (InputStream in = new BufferedInputStream(err)) {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      int b;
      boolean truncated = false;
      while ((b = in.read()) != -1) {
        if (b == '\n') {
          keep(redactor.text(line.toString(StandardCharsets.UTF_8)) + (truncated ? " …" : ""));
          line.reset();
          truncated = false;
        } else if (line.size() < STDERR_LINE_BYTES) {
          line.write(b);
        } else {
          truncated = true;
        }
      }
      if (line.size() > 0) {
        keep(redactor.text(line.toString(StandardCharsets.UTF_8)));
      }
    } catch (IOException e) {
      LOG.debug("stderr of the bridge of {} ended", skill, e);
    }
  }

  private void keep(String line) {
    LOG.debug("[bridge {}] {}", skill, line);
    synchronized (this) {
      stderr.addLast(line);
      stderrChars += line.length() + 1;
      while (stderrChars > STDERR_TAIL_CHARS && stderr.size() > 1) {
        stderrChars -= stderr.removeFirst().length() + 1;
      }
    }
  }

  /**
   * Stops the server: its input is closed (the stdio binding's shutdown signal), then after {@code
   * grace} the process and everything it started are killed; whatever it started is killed even
   * when it exited in time.
   *
   * @return how many processes had to be killed
   */
  int stop(Duration grace) {
    stopping = true;
    client.close();
    try {
      process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return tree.kill();
  }
}

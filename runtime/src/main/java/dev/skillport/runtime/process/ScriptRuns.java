package dev.skillport.runtime.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run marker of one server instance: a file per script it runs now, in a folder of the
 * instance's own, naming the script's process id, start time and {@link ProcessTree#VARIABLE}
 * marker. A server that dies (kill -9) leaves the files behind; its next run under the same name
 * kills what they name before it serves ({@link #killLeftovers}). A process is killed only when it
 * is the one recorded: its start time matches, or its environment carries the run's marker (which
 * also finds what the script detached); a reused pid of another program is left alone.
 */
public final class ScriptRuns {
  private static final Logger LOG = LoggerFactory.getLogger(ScriptRuns.class);
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

  /** How far a recorded start time may be from the process's as read now (clock ticks). */
  private static final Duration SAME_START = Duration.ofSeconds(1);

  private final Path dir;

  private ScriptRuns(Path dir) {
    this.dir = dir;
  }

  /** The run marker in {@code dir}, created when missing. */
  public static ScriptRuns in(Path dir) throws IOException {
    Files.createDirectories(dir);
    return new ScriptRuns(dir);
  }

  /** The folder of the marker files. */
  public Path dir() {
    return dir;
  }

  /**
   * Records a script that started: {@code pid}, started at {@code start}, marked {@code marker}.
   */
  public void started(long pid, Instant start, String marker) {
    if (!NAME.matcher(marker).matches()) {
      throw new IllegalArgumentException("not a run marker: " + marker);
    }
    String text =
        "pid="
            + pid
            + "\nstart="
            + (start == null ? "" : start.toEpochMilli())
            + "\nmarker="
            + marker
            + "\n";
    try {
      Files.writeString(dir.resolve(marker), text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      LOG.warn("script run {} is not recorded in {}: {}", marker, dir, e.toString());
    }
  }

  /** Forgets a script that ended (its tree is gone). */
  public void ended(String marker) {
    try {
      Files.deleteIfExists(dir.resolve(marker));
    } catch (IOException e) {
      LOG.debug("script run {} not forgotten: {}", marker, e.toString());
    }
  }

  /**
   * Kills the process trees of the scripts a previous run recorded and left running, and forgets
   * them; returns how many processes were signalled.
   */
  public int killLeftovers() {
    int killed = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path file : files) {
        killed += kill(file);
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      LOG.warn("leftover scripts in {} not read: {}", dir, e.toString());
    }
    if (killed > 0) {
      LOG.info("{} processes of scripts a previous run of this instance left are killed", killed);
    }
    return killed;
  }

  private static int kill(Path file) throws IOException {
    Properties run = new Properties();
    try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      run.load(in);
    }
    String marker = run.getProperty("marker", "");
    Set<ProcessHandle> tree = new LinkedHashSet<>();
    try {
      long pid = Long.parseLong(run.getProperty("pid", ""));
      String start = run.getProperty("start", "");
      ProcessHandle p = ProcessHandle.of(pid).orElse(null);
      if (p != null
          && !start.isEmpty()
          && sameStart(p, Instant.ofEpochMilli(Long.parseLong(start)))) {
        tree.add(p);
        p.descendants().forEach(tree::add);
      }
    } catch (NumberFormatException e) {
      LOG.debug("damaged run marker {}", file);
    }
    if (NAME.matcher(marker).matches()) {
      for (ProcessHandle p : ProcessTree.marked(marker, false)) {
        tree.add(p);
        p.descendants().forEach(tree::add);
      }
    }
    int killed = 0;
    for (ProcessHandle p : tree) {
      if (p.isAlive() && p.destroyForcibly()) {
        killed++;
      }
    }
    return killed;
  }

  private static boolean sameStart(ProcessHandle p, Instant recorded) {
    return p.info()
        .startInstant()
        .map(now -> Duration.between(now, recorded).abs().compareTo(SAME_START) < 0)
        .orElse(false);
  }
}

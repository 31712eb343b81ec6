package dev.skillport.server.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The processes of one run (a script, a bridged MCP server): the process and everything it started,
 * including daemons that left its process tree.
 *
 * <p>Members are found three ways, so that a kill misses none: the script's descendants now; every
 * descendant seen while the script ran ({@link #track}, called every 50 ms), which keeps a child
 * whose parent exited and which was re-parented away; and, where {@code /proc} exists (Linux),
 * every process whose environment carries this run's marker ({@link #VARIABLE}), which every child
 * inherits, so a {@code setsid} double-forked daemon is found however fast it detached. A kill
 * repeats until a round finds no member, so children forked during the kill are caught too.
 *
 * <p>Limits: a process that clears its environment ({@code env -i}) and detaches before it is seen
 * escapes; without {@code /proc} (macOS) only descendants and tracked processes are found;
 * processes of another user (a setuid program) cannot be read or killed.
 */
public final class ProcessTree {
  /** The environment variable that marks every process of a run. */
  public static final String VARIABLE = "SKILLPORT_SCRIPT_RUN";

  private static final Logger LOG = LoggerFactory.getLogger(ProcessTree.class);
  private static final Path PROC = Path.of("/proc");
  private static final int MAX_ROUNDS = 50;

  private final Process root;
  private final String marker;
  private final Set<ProcessHandle> seen = ConcurrentHashMap.newKeySet();

  /** The run of {@code root}, started with {@link #VARIABLE} set to {@code marker}. */
  public ProcessTree(Process root, String marker) {
    this.root = root;
    this.marker = marker;
  }

  /** Remembers the script's current descendants. */
  public void track() {
    root.descendants().forEach(seen::add);
  }

  /**
   * Kills every member, SIGKILL, round after round until none is left (at most {@link #MAX_ROUNDS}
   * rounds); returns how many processes were signalled.
   */
  public int kill() {
    int killed = 0;
    for (int round = 0; round < MAX_ROUNDS; round++) {
      Set<ProcessHandle> members = members();
      if (members.isEmpty()) {
        return killed;
      }
      for (ProcessHandle p : members) {
        if (p.destroyForcibly()) {
          killed++;
        }
      }
      pause();
    }
    LOG.warn(
        "processes of script run {} were still starting after {} kill rounds", marker, MAX_ROUNDS);
    return killed;
  }

  /** The live members now. */
  public Set<ProcessHandle> members() {
    Set<ProcessHandle> out = new LinkedHashSet<>();
    ProcessHandle self = root.toHandle();
    if (self.isAlive()) {
      out.add(self);
    }
    root.descendants().forEach(out::add);
    for (ProcessHandle p : seen) {
      if (p.isAlive()) {
        out.add(p);
        p.descendants().forEach(out::add);
      }
    }
    out.addAll(marked(marker, false));
    out.removeIf(p -> !p.isAlive());
    return out;
  }

  /**
   * Kills every process whose marker starts with {@code prefix}: what runs of one server left
   * behind (a daemon a script detached). Returns how many were signalled.
   */
  public static int killMarked(String prefix) {
    int killed = 0;
    for (int round = 0; round < MAX_ROUNDS; round++) {
      List<ProcessHandle> left = marked(prefix, true);
      if (left.isEmpty()) {
        return killed;
      }
      for (ProcessHandle p : left) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        if (p.destroyForcibly()) {
          killed++;
        }
      }
      pause();
    }
    return killed;
  }

  /**
   * The live processes whose environment holds {@code VARIABLE=value} ({@code VARIABLE=value...}
   * when {@code prefix}); empty without {@code /proc}.
   */
  public static List<ProcessHandle> marked(String value, boolean prefix) {
    List<ProcessHandle> out = new ArrayList<>();
    if (!Files.isDirectory(PROC)) {
      return out;
    }
    byte[] wanted =
        (VARIABLE + "=" + value + (prefix ? "" : "\0")).getBytes(StandardCharsets.UTF_8);
    long me = ProcessHandle.current().pid();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.isEmpty() || !Character.isDigit(name.charAt(0))) {
          continue;
        }
        long pid;
        try {
          pid = Long.parseLong(name);
        } catch (NumberFormatException e) {
          continue;
        }
        if (pid != me && holds(entry.resolve("environ"), wanted)) {
          ProcessHandle.of(pid).filter(ProcessHandle::isAlive).ifPresent(out::add);
        }
      }
    } catch (IOException | SecurityException e) {
      LOG.debug("cannot list {}", PROC, e);
    }
    return out;
  }

  /** Whether the NUL-separated environment in {@code environ} has an entry starting with it. */
  private static boolean holds(Path environ, byte[] wanted) {
    byte[] env;
    try {
      env = Files.readAllBytes(environ);
    } catch (IOException | SecurityException e) {
      // Gone, or another user's: not ours to kill.
      return false;
    }
    int start = 0;
    while (start + wanted.length <= env.length) {
      if (startsAt(env, start, wanted)) {
        return true;
      }
      int nul = start;
      while (nul < env.length && env[nul] != 0) {
        nul++;
      }
      start = nul + 1;
    }
    return false;
  }

  private static boolean startsAt(byte[] env, int at, byte[] wanted) {
    for (int i = 0; i < wanted.length; i++) {
      if (env[at + i] != wanted[i]) {
        return false;
      }
    }
    return true;
  }

  private static void pause() {
    try {
      TimeUnit.MILLISECONDS.sleep(10);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

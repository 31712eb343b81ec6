package dev.skillport.runtime.process;

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

  /** Extra looks, 10 ms apart, when a new process showed no environment. */
  private static final int SETTLE_ROUNDS = 3;

  private final Process root;
  private final String marker;
  private final Set<ProcessHandle> seen = ConcurrentHashMap.newKeySet();

  /** The run of {@code root}, started with {@link #VARIABLE} set to {@code marker}. */
  public ProcessTree(Process root, String marker) {
    this.root = root;
    this.marker = marker;
  }

  /**
   * What one look through {@code /proc} found: the marked processes, and whether a process newer
   * than the run showed no environment at all, as one does for a moment while it executes a new
   * program, so that a later look may still find it marked.
   */
  private record Scan(List<ProcessHandle> marked, boolean unsettled) {}

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
    int settling = 0;
    for (int round = 0; round < MAX_ROUNDS; round++) {
      Scan scan = scan(marker, false, root.pid());
      Set<ProcessHandle> members = members(scan.marked());
      if (members.isEmpty()) {
        if (!scan.unsettled() || ++settling > SETTLE_ROUNDS) {
          return killed;
        }
        // A daemon caught between two programs shows its environment again a moment later (a
        // process that really has none, started since, costs these few rounds only).
        pause();
        continue;
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
    return members(marked(marker, false));
  }

  private Set<ProcessHandle> members(List<ProcessHandle> marked) {
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
    out.addAll(marked);
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
    return scan(value, prefix, Long.MAX_VALUE).marked();
  }

  /**
   * Marked processes; a process with a pid above {@code newerThan} whose environment reads empty
   * (and which is neither a kernel thread nor a zombie) makes the scan unsettled.
   */
  private static Scan scan(String value, boolean prefix, long newerThan) {
    List<ProcessHandle> out = new ArrayList<>();
    boolean unsettled = false;
    if (!Files.isDirectory(PROC)) {
      return new Scan(out, false);
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
        if (pid == me) {
          continue;
        }
        byte[] env = environment(entry.resolve("environ"));
        if (env == null) {
          continue;
        }
        if (env.length == 0) {
          unsettled |= pid > newerThan && executing(entry.resolve("stat"));
        } else if (holds(env, wanted)) {
          ProcessHandle.of(pid).filter(ProcessHandle::isAlive).ifPresent(out::add);
        }
      }
    } catch (IOException | SecurityException e) {
      LOG.debug("cannot list {}", PROC, e);
    }
    return new Scan(out, unsettled);
  }

  /** A process's environment, or null when it is gone or another user's (not ours to kill). */
  private static byte[] environment(Path environ) {
    try {
      return Files.readAllBytes(environ);
    } catch (IOException | SecurityException e) {
      return null;
    }
  }

  /**
   * Whether a process without a readable environment is a user process that is alive: not a kernel
   * thread (a child of kthreadd, pid 2) and not a zombie, which never show one.
   */
  private static boolean executing(Path stat) {
    String line;
    try {
      line = Files.readString(stat, StandardCharsets.US_ASCII);
    } catch (IOException | SecurityException e) {
      return false;
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last
    // ')'.
    String[] fields = line.substring(line.lastIndexOf(')') + 1).strip().split(" ");
    return fields.length > 1 && !fields[0].equals("Z") && !fields[1].equals("2");
  }

  /**
   * Whether the NUL-separated environment {@code env} has an entry starting with {@code wanted}.
   */
  private static boolean holds(byte[] env, byte[] wanted) {
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

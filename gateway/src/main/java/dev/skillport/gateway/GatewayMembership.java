package dev.skillport.gateway;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An instance's part in the gateway: it registers, heartbeats every {@link #BEAT} with its current
 * catalog digest, and takes itself out when it stops. When it is to ensure a gateway ({@code serve
 * --gateway auto}), it starts one if none answers at first, and revives it after {@link
 * #MISSES_TO_REVIVE} missed probes; only the instance holding the registry's lock file starts it
 * (single flight), and a lock older than {@link #STALE_LOCK} is taken over.
 */
public final class GatewayMembership implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GatewayMembership.class);

  /** How often an instance heartbeats and probes its gateway. */
  public static final Duration BEAT = Duration.ofSeconds(2);

  /** Missed gateway probes in a row after which an instance starts a new one. */
  public static final int MISSES_TO_REVIVE = 2;

  /**
   * How long a starter waits, holding the lock, for the gateway it started to answer (a loaded
   * machine can take many seconds to start a JVM); it stops waiting when the process ends.
   */
  static final Duration START_WAIT = Duration.ofSeconds(60);

  /** A lock file older than this is left by a starter that died: it is taken over. */
  public static final Duration STALE_LOCK = START_WAIT.plusSeconds(30);

  /** How soon a missed gateway probe is followed by the second one that decides a revival. */
  static final Duration SECOND_PROBE = Duration.ofMillis(500);

  static final String LOCK = "gateway.lock";

  /** The name of the gateway's log in the registry folder. */
  public static final String LOG_FILE = "gateway.log";

  private final InstanceRegistry registry;
  private final Supplier<String> digest;
  private final Clock clock;
  private final InstanceClient client;
  private final Optional<Starter> starter;
  private final ScheduledExecutorService beats;
  private volatile InstanceEntry entry;
  private int gatewayMisses;

  /**
   * Starts the gateway's process.
   *
   * @param url the gateway's MCP endpoint, probed at its {@code /healthz}
   * @param command the command that runs a gateway (the launcher and its arguments)
   */
  public record Starter(URI url, List<String> command) {
    public Starter {
      command = List.copyOf(command);
    }
  }

  /**
   * @param registry where the instance registers; a {@link FolderRegistry} when it also ensures the
   *     gateway runs (the election's lock file lives in its folder)
   * @param starter present when this instance ensures the gateway runs
   */
  public GatewayMembership(
      InstanceRegistry registry,
      InstanceEntry entry,
      Supplier<String> digest,
      Optional<Starter> starter,
      InstanceClient client,
      Clock clock) {
    if (starter.isPresent() && !(registry instanceof FolderRegistry)) {
      throw new IllegalArgumentException(
          "only an instance registered in a registry folder starts the gateway");
    }
    this.registry = registry;
    this.entry = entry;
    this.digest = digest;
    this.starter = starter;
    this.client = client;
    this.clock = clock;
    this.beats =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "gateway-membership");
              t.setDaemon(true);
              return t;
            });
  }

  /** Registers, ensures the gateway when asked to, and heartbeats from now on. */
  public void start() throws IOException {
    beat();
    starter.ifPresent(s -> ensure(s, true));
    beats.scheduleWithFixedDelay(
        this::tick, BEAT.toMillis(), BEAT.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void tick() {
    try {
      beat();
    } catch (IOException | RuntimeException e) {
      LOG.warn("cannot heartbeat to the gateway registry {}: {}", registry, e.toString());
    }
    starter.ifPresent(s -> ensure(s, false));
  }

  private void beat() throws IOException {
    entry = entry.beat(clock.instant(), digest.get());
    registry.put(entry);
  }

  /**
   * Probes the gateway; starts it at once at the start, else after {@link #MISSES_TO_REVIVE} misses
   * in a row (a miss is probed again after {@link #SECOND_PROBE}, not a whole beat later).
   */
  private void ensure(Starter s, boolean starting) {
    try {
      if (listening(s.url())) {
        gatewayMisses = 0;
        return;
      }
      gatewayMisses++;
      if (!starting && gatewayMisses < MISSES_TO_REVIVE) {
        Thread.sleep(SECOND_PROBE.toMillis());
        if (listening(s.url())) {
          gatewayMisses = 0;
          return;
        }
        gatewayMisses++;
      }
      if (!starting) {
        LOG.warn("the gateway at {} missed {} probes: starting it again", s.url(), gatewayMisses);
      }
      startUnderLock(s);
    } catch (IOException | RuntimeException e) {
      LOG.warn("cannot start the gateway at {}: {}", s.url(), e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Whether something takes connections on the gateway's port. A probe misses only when nothing
   * does: a gateway that is slow to answer (a loaded machine) is left alone, and a new one could
   * not bind the port anyway.
   */
  static boolean listening(URI url) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(url.getHost(), url.getPort()), 2000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Starts the gateway when this instance gets the lock and it still does not answer. */
  void startUnderLock(Starter s) throws IOException, InterruptedException {
    Path folder = ((FolderRegistry) registry).root();
    Path lock = folder.resolve(LOCK);
    if (!acquire(lock)) {
      LOG.info("another instance is starting the gateway (lock {})", lock);
      return;
    }
    try {
      // It may have come up between the probe and the lock: the starter before us released it.
      if (listening(s.url())) {
        gatewayMisses = 0;
        return;
      }
      List<String> command = new ArrayList<>(s.command());
      Path log = folder.resolve(LOG_FILE);
      ProcessBuilder pb =
          new ProcessBuilder(command)
              .redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
      Process process = pb.start();
      LOG.info("started the gateway at {} (pid {}), log in {}", s.url(), process.pid(), log);
      Instant deadline = clock.instant().plus(START_WAIT);
      while (clock.instant().isBefore(deadline) && process.isAlive()) {
        if (client.healthy(s.url(), Duration.ofSeconds(2))) {
          gatewayMisses = 0;
          return;
        }
        Thread.sleep(100);
      }
      LOG.warn(
          "the gateway started at {} did not answer within {} s (see {})",
          s.url(),
          START_WAIT.toSeconds(),
          log);
    } finally {
      Files.deleteIfExists(lock);
    }
  }

  private static java.io.File nullDevice() {
    return new java.io.File(
        System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
  }

  /** Creates the lock file, taking over one older than {@link #STALE_LOCK}. */
  private boolean acquire(Path lock) throws IOException {
    for (int attempt = 0; attempt < 2; attempt++) {
      try {
        Path created =
            lock.getFileSystem().supportedFileAttributeViews().contains("posix")
                ? Files.createFile(
                    lock,
                    PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rw-------")))
                : Files.createFile(lock);
        Files.writeString(created, ProcessHandle.current().pid() + " " + clock.instant() + "\n");
        return true;
      } catch (FileAlreadyExistsException e) {
        Instant written;
        try {
          written = Files.getLastModifiedTime(lock).toInstant();
        } catch (NoSuchFileException gone) {
          continue;
        }
        if (written.plus(STALE_LOCK).isAfter(clock.instant())) {
          return false;
        }
        // Moving it aside is atomic: of several instances taking it over, one succeeds.
        Path aside = lock.resolveSibling(LOCK + "." + UUID.randomUUID() + ".stale");
        try {
          Files.move(lock, aside, StandardCopyOption.ATOMIC_MOVE);
          Files.deleteIfExists(aside);
          LOG.warn("took over the gateway lock left since {}", written);
        } catch (NoSuchFileException gone) {
          // another instance took it over first
        }
      }
    }
    return false;
  }

  /** The entry as last written. */
  public InstanceEntry entry() {
    return entry;
  }

  @Override
  public void close() {
    beats.shutdownNow();
    try {
      registry.remove(entry.id());
    } catch (IOException e) {
      LOG.warn("cannot leave the gateway registry: {}", e.toString());
    }
  }
}

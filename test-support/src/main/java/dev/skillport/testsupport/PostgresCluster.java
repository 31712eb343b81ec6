package dev.skillport.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server for one test class: {@code initdb} into a temporary folder, {@code
 * pg_ctl start} on a free 127.0.0.1 port (TCP only, password authentication), {@link #close} stops
 * it and deletes the folder. The server binaries are the installed ones ({@code
 * /usr/lib/postgresql/<version>/bin}, the newest version, or {@code SKILLPORT_PG_BIN}).
 *
 * <p>PostgreSQL refuses to run as root: under root the cluster is created and run as the {@code
 * postgres} user (the package's) or else {@code nobody}, through {@code runuser}. Starting fails
 * with an {@link IllegalStateException} naming what is missing; it never skips.
 */
public final class PostgresCluster implements AutoCloseable {
  /** The superuser the cluster is created with. */
  public static final String USER = "skillport";

  private static final Path VERSIONS = Path.of("/usr/lib/postgresql");
  private static final String[] RUN_AS = {"postgres", "nobody"};

  private final Path bin;
  private final Path root;
  private final Path data;
  private final Path passwordFile;
  private final String password;
  private final String runAs;
  private final int port;
  private boolean stopped;

  private PostgresCluster(
      Path bin, Path root, Path passwordFile, String password, String runAs, int port) {
    this.bin = bin;
    this.root = root;
    this.data = root.resolve("data");
    this.passwordFile = passwordFile;
    this.password = password;
    this.runAs = runAs;
    this.port = port;
  }

  /**
   * Creates and starts a cluster in a new folder under {@code parent}.
   *
   * @throws IllegalStateException when PostgreSQL is not installed or does not start
   */
  public static PostgresCluster start(Path parent) {
    Path bin = binaries();
    String runAs = isRoot() ? unprivilegedUser() : null;
    Path root;
    try {
      root = Files.createTempDirectory(parent, "pg-");
      String password = UUID.randomUUID().toString();
      Path passwordFile = root.resolve("password");
      Files.writeString(passwordFile, password);
      Files.setPosixFilePermissions(passwordFile, PosixFilePermissions.fromString("rw-------"));
      if (runAs != null) {
        handOver(root, passwordFile, runAs);
      }
      PostgresCluster cluster =
          new PostgresCluster(bin, root, passwordFile, password, runAs, freePort());
      try {
        cluster.initAndStart();
      } catch (RuntimeException e) {
        cluster.close();
        throw e;
      }
      return cluster;
    } catch (IOException e) {
      throw new IllegalStateException("PostgreSQL cluster folder: " + e, e);
    }
  }

  /** {@code postgresql://127.0.0.1:<port>/<database>}. */
  public String url(String database) {
    return "postgresql://127.0.0.1:" + port + "/" + database;
  }

  /** The JDBC URL of {@code database}. */
  public String jdbcUrl(String database) {
    return "jdbc:" + url(database);
  }

  /** The port it listens on (127.0.0.1). */
  public int port() {
    return port;
  }

  /** The superuser's password. */
  public String password() {
    return password;
  }

  /** A file holding only the password (mode 0600), readable by this process. */
  public Path passwordFile() {
    return passwordFile;
  }

  /** Creates database {@code name}, owned by {@link #USER}. */
  public void createDatabase(String name) {
    run(
        List.of(
            bin.resolve("createdb").toString(),
            "-h",
            "127.0.0.1",
            "-p",
            "" + port,
            "-U",
            USER,
            name),
        true);
  }

  /** Stops the server at once (in-flight connections are dropped) and starts it again. */
  public void restart() {
    pgCtl("restart", "-m", "fast");
  }

  /** Stops the server (fast shutdown); {@link #startAgain} brings it back. */
  public void stop() {
    pgCtl("stop", "-m", "fast");
  }

  /** Starts a stopped server again on the same port. */
  public void startAgain() {
    pgCtl("start");
  }

  @Override
  public void close() {
    if (stopped) {
      return;
    }
    stopped = true;
    try {
      if (Files.exists(data.resolve("postmaster.pid"))) {
        pgCtl("stop", "-m", "immediate");
      }
    } finally {
      deleteTree(root);
    }
  }

  private void initAndStart() {
    run(
        List.of(
            bin.resolve("initdb").toString(),
            "-D",
            data.toString(),
            "-U",
            USER,
            "--pwfile=" + passwordFile,
            "--auth=scram-sha-256",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            // A test's cluster is thrown away: durability on disk only slows it down.
            "--no-sync"),
        false);
    pgCtl("start");
  }

  private void pgCtl(String action, String... extra) {
    List<String> cmd = new ArrayList<>();
    cmd.add(bin.resolve("pg_ctl").toString());
    cmd.add(action);
    cmd.add("-D");
    cmd.add(data.toString());
    cmd.add("-w");
    cmd.add("-t");
    cmd.add("60");
    cmd.addAll(List.of(extra));
    if (!action.equals("stop")) {
      cmd.add("-l");
      cmd.add(root.resolve("server.log").toString());
      // TCP on loopback only: no socket file lands in a shared folder.
      cmd.add("-o");
      cmd.add(
          "-c listen_addresses=127.0.0.1 -p "
              + port
              + " -c unix_socket_directories='' -c fsync=off -c synchronous_commit=off"
              + " -c full_page_writes=off");
    }
    run(cmd, false);
  }

  private void run(List<String> command, boolean withPassword) {
    List<String> full = new ArrayList<>();
    if (runAs != null) {
      full.addAll(List.of("runuser", "-u", runAs, "--"));
    }
    full.addAll(command);
    ExternalCommand c = ExternalCommand.of(full).timeout(Duration.ofMinutes(2)).directory(root);
    if (withPassword) {
      c.environment(java.util.Map.of("PGPASSWORD", password));
    }
    ExternalCommand.Outcome out = c.run();
    if (out.exit() != 0) {
      throw new IllegalStateException(
          "PostgreSQL: " + String.join(" ", command) + " failed: " + out + serverLog());
    }
  }

  private String serverLog() {
    try {
      Path log = root.resolve("server.log");
      return Files.exists(log) ? "\n--- server.log\n" + Files.readString(log) : "";
    } catch (IOException e) {
      return "";
    }
  }

  /** The newest installed version's binaries, or those {@code SKILLPORT_PG_BIN} names. */
  private static Path binaries() {
    String forced = System.getenv("SKILLPORT_PG_BIN");
    if (forced != null && !forced.isBlank()) {
      return Path.of(forced);
    }
    if (!Files.isDirectory(VERSIONS)) {
      throw new IllegalStateException(
          "PostgreSQL is not installed (no " + VERSIONS + "): apt-get install postgresql");
    }
    try (Stream<Path> versions = Files.list(VERSIONS)) {
      Optional<Path> newest =
          versions
              .filter(p -> p.getFileName().toString().matches("\\d+"))
              .filter(p -> Files.isExecutable(p.resolve("bin/initdb")))
              .max(Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString())));
      return newest
          .map(p -> p.resolve("bin"))
          .orElseThrow(
              () ->
                  new IllegalStateException(
                      "no PostgreSQL server binaries under " + VERSIONS + "/<version>/bin"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean isRoot() {
    try {
      return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  private static String unprivilegedUser() {
    UserPrincipalLookupService users = Path.of("/").getFileSystem().getUserPrincipalLookupService();
    for (String name : RUN_AS) {
      try {
        users.lookupPrincipalByName(name);
        return name;
      } catch (IOException e) {
        // try the next one
      }
    }
    throw new IllegalStateException(
        "PostgreSQL does not run as root and neither user 'postgres' nor 'nobody' exists");
  }

  /**
   * Gives the cluster folder to {@code user}; the password file stays readable by both (its group
   * and owner become the user's, this root process reads it anyway).
   */
  private static void handOver(Path root, Path passwordFile, String user) throws IOException {
    UserPrincipalLookupService users = root.getFileSystem().getUserPrincipalLookupService();
    Files.setOwner(root, users.lookupPrincipalByName(user));
    Files.setOwner(passwordFile, users.lookupPrincipalByName(user));
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx------"));
    // The folders above must let the user through to its cluster.
    for (Path p = root.getParent(); p != null; p = p.getParent()) {
      if (!Files.getPosixFilePermissions(p)
          .contains(java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE)) {
        throw new IllegalStateException(
            p + " is not searchable by " + user + ", who runs PostgreSQL (root cannot)");
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}

package dev.skillport.server.serve;

import dev.skillport.testsupport.LaunchedServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The repository's sample skills served the way users serve them, by {@code bin/skillport serve
 * --http} on 127.0.0.1 (a free port), not watching for edits, for the tests that drive it with
 * outside clients.
 */
final class SamplesHttpServer {
  private SamplesHttpServer() {}

  /** The samples folder (from {@code -Dskillport.samples}, else the reactor's). */
  static Path samples() {
    return Path.of(System.getProperty("skillport.samples", "../samples/skills")).toAbsolutePath();
  }

  /**
   * The root of the MCP conformance fixture skill, served with its plugin jar only (from {@code
   * -Dskillport.conformance}, else the reactor's).
   */
  static Path conformance() {
    return Path.of(System.getProperty("skillport.conformance", "../samples/conformance"))
        .toAbsolutePath();
  }

  /**
   * Starts serving the samples with {@code home} as the server's home; every session starts with
   * {@code preload} loaded.
   */
  static LaunchedServer start(Path home, String... preload) {
    List<String> args = new ArrayList<>(List.of("--no-watch", "--skills", samples().toString()));
    if (preload.length > 0) {
      args.add("--preload");
      args.add(String.join(",", preload));
    }
    return LaunchedServer.start(home, args.toArray(String[]::new));
  }
}

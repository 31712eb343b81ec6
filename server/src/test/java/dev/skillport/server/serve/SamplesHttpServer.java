package dev.skillport.server.serve;

import dev.skillport.api.skill.Scope;
import dev.skillport.loader.SkillRoot;
import dev.skillport.mcp.transport.StreamableHttpTransport;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * The repository's sample skills served by a real Skillport over Streamable HTTP on 127.0.0.1 (a
 * free port), not watching for edits, for the tests that drive it with outside clients.
 */
final class SamplesHttpServer implements AutoCloseable {
  private final SkillportServer server;
  private final StreamableHttpTransport http;

  private SamplesHttpServer(SkillportServer server, StreamableHttpTransport http) {
    this.server = server;
    this.http = http;
  }

  /** The samples folder (from {@code -Dskillport.samples}, else the reactor's). */
  static Path samples() {
    return Path.of(System.getProperty("skillport.samples", "../samples/skills")).toAbsolutePath();
  }

  /** Starts serving the samples; every session starts with {@code preload} loaded. */
  static SamplesHttpServer start(String... preload) throws Exception {
    SkillportServer server =
        SkillportServer.start(
            ServeConfig.of(List.of(SkillRoot.of(samples(), Scope.REPO)))
                .withWatch(false)
                .withPreload(List.of(preload)),
            "test");
    StreamableHttpTransport http =
        StreamableHttpTransport.builder(server.mcp()).host("127.0.0.1").port(0).build();
    try {
      http.start();
    } catch (Exception e) {
      server.close();
      throw e;
    }
    http.setReady(true);
    return new SamplesHttpServer(server, http);
  }

  /** The MCP endpoint. */
  URI uri() {
    return http.uri();
  }

  @Override
  public void close() {
    http.close();
    server.close();
  }
}

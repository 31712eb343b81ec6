package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.InteropTools;
import dev.skillport.testsupport.LaunchedServer;
import dev.skillport.testsupport.PostgresCluster;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statelessness: two {@code bin/skillport} processes behind a round-robin proxy on 127.0.0.1 (no
 * stickiness: request N goes to instance N mod 2) serve one 2026-07-28 client, the TypeScript SDK
 * 2.x, through the whole flow of {@code interop/flow-client.mjs}. Every request alternates
 * instances, so the signed state of the question round trip is verified by the instance that did
 * not mint it, and the task started on one is polled and cancelled through the other. What the
 * instances share is the same state key ({@code SKILLPORT_STATE_KEY}) and one PostgreSQL store
 * ({@code --store}), started by the test.
 */
class StatelessProxyIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path homeA;
  @TempDir Path homeB;
  @TempDir Path skills;
  @TempDir Path work;

  private static PostgresCluster cluster;

  @BeforeAll
  static void startDatabase() {
    cluster = PostgresCluster.start(Path.of(System.getProperty("java.io.tmpdir")));
    cluster.createDatabase("fleet");
  }

  @AfterAll
  static void stopDatabase() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void oneModernClient_twoInstances_everyRequestAlternating_wholeFlow() throws Exception {
    FlowKit.writeTo(skills);
    InteropTools.dir("client@2");

    String[] serve = {
      "--no-watch",
      "--no-bundled",
      "--skills",
      skills.toString(),
      "--plugins",
      FlowKit.plugins().toString(),
      "--tool-listing",
      "catalog",
      "--store",
      cluster.url("fleet") + "?user=" + PostgresCluster.USER
    };
    Map<String, String> key =
        Map.of(
            "SKILLPORT_STATE_KEY",
            "a key both instances are given",
            "PGPASSWORD",
            cluster.password());
    Path pids = work.resolve("cancelled.pids");
    try (LaunchedServer a = LaunchedServer.start(homeA, key, serve);
        LaunchedServer b = LaunchedServer.start(homeB, key, serve);
        RoundRobin proxy = new RoundRobin(List.of(a.uri(), b.uri()))) {
      ExternalCommand.Outcome run =
          ExternalCommand.of(FlowKit.client(2, pids, "--url", proxy.uri().toString()))
              .environment(InteropTools.environment())
              .timeout(Duration.ofMinutes(3))
              .run();

      assertThat(run.exit()).as(run + "\nproxied: " + proxy.log).isZero();
      JsonNode flow = JSON.readTree(run.stdout().strip().lines().reduce((x, y) -> y).orElse("{}"));
      assertThat(flow.path("ok").asBoolean()).as(run.toString()).isTrue();
      assertThat(flow.path("protocolVersion").asText()).isEqualTo("2026-07-28");
      assertThat(flow.path("elicited").asText()).contains("Hello, Ada!");
      assertThat(flow.at("/async/status").asText()).isEqualTo("completed");
      assertThat(flow.at("/cancelled/status").asText()).isEqualTo("cancelled");
      assertThat(proxy.failures).as("requests the proxy could not forward").isZero();
      // Every request the client sent, in order, alternated between the instances.
      assertThat(proxy.log).hasSizeGreaterThanOrEqualTo(12);
      for (int i = 0; i < proxy.log.size(); i++) {
        assertThat(proxy.log.get(i)).startsWith((i % 2 == 0 ? "A " : "B "));
      }
      assertThat(proxy.log)
          .as("task reads reached both instances")
          .anyMatch(l -> l.startsWith("A ") && l.contains("tasks/get"))
          .anyMatch(l -> l.startsWith("B ") && l.contains("tasks/get"));
      assertThat(proxy.log).noneMatch(l -> l.contains(" 5"));
      EraInteropIT.assertProcessesEnd(pids);
      assertThat(a.isAlive()).isTrue();
      assertThat(b.isAlive()).isTrue();
    }
  }

  /**
   * A tiny reverse proxy: request N goes to backend N mod size, headers and body passed through,
   * the response streamed back as it arrives (an event stream stays an event stream). Logs {@code
   * "A|B <Mcp-Method> <status>"} per request.
   */
  static final class RoundRobin implements AutoCloseable {
    private static final Set<String> HOP =
        Set.of(
            "host",
            "connection",
            "content-length",
            "transfer-encoding",
            "upgrade",
            "expect",
            "keep-alive",
            "http2-settings",
            "te");

    final List<String> log = new CopyOnWriteArrayList<>();
    volatile int failures;
    private final List<URI> backends;
    private final AtomicLong next = new AtomicLong();
    private final HttpServer server;
    private final HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    RoundRobin(List<URI> backends) throws IOException {
      this.backends = List.copyOf(backends);
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.setExecutor(Executors.newCachedThreadPool());
      server.createContext("/", this::forward);
      server.start();
    }

    URI uri() {
      return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
    }

    private void forward(HttpExchange exchange) throws IOException {
      int index = (int) (next.getAndIncrement() % backends.size());
      URI backend = backends.get(index);
      String name = String.valueOf((char) ('A' + index));
      String method = exchange.getRequestHeaders().getFirst("Mcp-Method");
      try (exchange) {
        byte[] body = exchange.getRequestBody().readAllBytes();
        HttpRequest.Builder request =
            HttpRequest.newBuilder(backend.resolve(exchange.getRequestURI().getPath()))
                .method(
                    exchange.getRequestMethod(),
                    body.length == 0
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        exchange
            .getRequestHeaders()
            .forEach(
                (header, values) -> {
                  if (!HOP.contains(header.toLowerCase(Locale.ROOT))) {
                    values.forEach(v -> request.header(header, v));
                  }
                });
        HttpResponse<InputStream> response =
            client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        log.add(name + " " + method + " " + response.statusCode());
        response
            .headers()
            .map()
            .forEach(
                (header, values) -> {
                  if (!HOP.contains(header.toLowerCase(Locale.ROOT)) && !header.startsWith(":")) {
                    exchange.getResponseHeaders().put(header, values);
                  }
                });
        int status = response.statusCode();
        boolean empty =
            status == 204 || status == 304 || "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(status, empty ? -1 : 0);
        try (InputStream in = response.body();
            OutputStream out = exchange.getResponseBody()) {
          byte[] buffer = new byte[8192];
          int n;
          while ((n = in.read(buffer)) >= 0) {
            out.write(buffer, 0, n);
            out.flush();
          }
        }
      } catch (IOException | InterruptedException | RuntimeException e) {
        failures++;
        log.add(name + " " + method + " failed: " + e);
      }
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}

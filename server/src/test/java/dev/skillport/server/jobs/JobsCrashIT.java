package dev.skillport.server.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills the real server (the shaded jar) with SIGKILL while jobs run, restarts it on the same job
 * store, and checks every record: running ones read interrupted, finished ones keep their results.
 */
class JobsCrashIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path skills;
  @TempDir Path store;
  @TempDir Path pids;
  private final List<Process> servers = new ArrayList<>();

  @AfterEach
  void tearDown() throws IOException {
    servers.forEach(Process::destroyForcibly);
    // Scripts of a killed server are orphans; end them here so they do not outlive the test.
    try (Stream<Path> files = Files.list(pids)) {
      for (Path f : files.toList()) {
        ProcessHandle.of(Long.parseLong(Files.readString(f).strip()))
            .ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  @Test
  void killedServer_restartedOnSameStore_runningJobsInterruptedFinishedJobsKeepResults()
      throws Exception {
    writeSkill();
    Client first = new Client(start());
    List<String> finished = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      finished.add(first.callAsync("work__square", JSON.createObjectNode().put("n", i)));
    }
    List<String> running = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      running.add(
          first.callAsync(
              "work__nap",
              JSON.createObjectNode().put("pidfile", pids.resolve("nap" + i).toString())));
    }
    for (String id : finished) {
      await()
          .atMost(WAIT)
          .until(() -> first.status(id).path("status").asText().equals("completed"));
    }
    for (String id : running) {
      await().atMost(WAIT).until(() -> first.status(id).path("status").asText().equals("running"));
    }

    Process crashed = servers.get(0);
    crashed.destroyForcibly();
    assertThat(crashed.waitFor(20, TimeUnit.SECONDS)).isTrue();

    Client second = new Client(start());
    for (int i = 0; i < finished.size(); i++) {
      JsonNode job = second.status(finished.get(i));
      assertThat(job.path("status").asText()).isEqualTo("completed");
      assertThat(job.path("result").path("structuredContent").path("square").asInt())
          .isEqualTo(i * i);
    }
    for (String id : running) {
      JsonNode job = second.status(id);
      assertThat(job.path("status").asText()).isEqualTo("interrupted");
      assertThat(job.path("error").asText()).contains("running");
    }
  }

  private void writeSkill() throws IOException {
    Path work = Files.createDirectories(skills.resolve("work/scripts"));
    Files.writeString(
        skills.resolve("work/SKILL.md"),
        """
        ---
        name: work
        description: Work that takes a while
        metadata:
          dcc-mcp:
            tools: tools.yaml
        ---
        """);
    Files.writeString(
        skills.resolve("work/tools.yaml"),
        """
        tools:
          - name: square
            description: Squares n
          - name: nap
            description: Sleeps for a long time
        """);
    Files.writeString(
        work.resolve("square.py"),
        """
        import json, sys
        n = json.load(sys.stdin)["n"]
        print(json.dumps({"square": n * n}))
        """);
    Files.writeString(work.resolve("nap.sh"), "echo $$ > \"$2\"\nexec sleep 300\n");
  }

  private URI start() throws Exception {
    Path jar = Path.of(System.getProperty("skillport.jar", "target/skillport.jar"));
    assertThat(jar).isRegularFile();
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-jar",
            jar.toString(),
            "serve",
            "--http",
            "--port",
            "0",
            "--no-watch",
            "--skills",
            skills.toString(),
            "--preload",
            "work",
            "--jobs-dir",
            store.toString());
    Process server =
        new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    servers.add(server);
    server.getOutputStream().close();
    CompletableFuture<URI> url = new CompletableFuture<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader err =
                  new BufferedReader(
                      new InputStreamReader(server.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = err.readLine()) != null) {
                  int at = line.indexOf("serving MCP at ");
                  if (at >= 0) {
                    url.complete(
                        URI.create(line.substring(at + "serving MCP at ".length()).strip()));
                  }
                }
              } catch (IOException e) {
                url.completeExceptionally(e);
              }
              url.completeExceptionally(new IOException("the server ended before serving"));
            },
            "server-stderr");
    reader.setDaemon(true);
    reader.start();
    return url.get(60, TimeUnit.SECONDS);
  }

  /** A minimal MCP client over Streamable HTTP: one session, JSON or event-stream answers. */
  private static final class Client {
    private final HttpClient http =
        HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final URI endpoint;
    private final AtomicInteger ids = new AtomicInteger();
    private final String session;

    Client(URI endpoint) throws Exception {
      this.endpoint = endpoint;
      ObjectNode init = JSON.createObjectNode();
      init.put("protocolVersion", "2025-06-18").putObject("capabilities");
      init.putObject("clientInfo").put("name", "crash-test").put("version", "1");
      HttpResponse<String> response = post(request("initialize", init), null);
      this.session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
      post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", session);
    }

    String callAsync(String tool, ObjectNode args) throws Exception {
      ObjectNode params = JSON.createObjectNode().put("name", tool);
      params.set("arguments", args);
      params.putObject("_meta").putObject("dcc").put("async", true);
      JsonNode result = call(params);
      assertThat(result.path("structuredContent").path("status").asText()).isEqualTo("pending");
      return result.path("structuredContent").path("job_id").asText();
    }

    JsonNode status(String id) throws Exception {
      ObjectNode params = JSON.createObjectNode().put("name", "jobs_get_status");
      params.putObject("arguments").put("job_id", id).put("include_result", true);
      JsonNode result = call(params);
      assertThat(result.path("isError").asBoolean()).as(result.toString()).isFalse();
      return result.path("structuredContent");
    }

    private JsonNode call(ObjectNode params) throws Exception {
      HttpResponse<String> response = post(request("tools/call", params), session);
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      return answer(response.body()).path("result");
    }

    private String request(String method, ObjectNode params) {
      ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ids.incrementAndGet());
      r.put("method", method).set("params", params);
      return r.toString();
    }

    /** The JSON-RPC response in a body that is either plain JSON or an event stream. */
    private static JsonNode answer(String body) throws IOException {
      if (body.stripLeading().startsWith("{")) {
        return JSON.readTree(body);
      }
      for (String line : body.split("\n")) {
        if (line.startsWith("data:")) {
          JsonNode message = JSON.readTree(line.substring(5).strip());
          if (message.has("id") && (message.has("result") || message.has("error"))) {
            return message;
          }
        }
      }
      throw new IOException("no response in " + body);
    }

    private HttpResponse<String> post(String body, String sessionId)
        throws IOException, InterruptedException {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(endpoint)
              .timeout(Duration.ofSeconds(20))
              .header("Content-Type", "application/json")
              .header("Accept", "application/json, text/event-stream")
              .POST(HttpRequest.BodyPublishers.ofString(body));
      if (sessionId != null) {
        b.header("Mcp-Session-Id", sessionId);
      }
      return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
  }
}

package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.testsupport.LaunchedServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/skillport serve --stdio}: a call written right behind the {@code load_skill} that adds
 * its tool, without waiting for that answer, finds the tool. Four servers, 250 pairs each: the
 * first pair goes out with {@code initialize}, while the catalog still loads; each later one
 * follows an {@code unload_skill}, all three written at once.
 */
class LoadThenCallStdioIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int SERVERS = 4;
  private static final int PAIRS = 250;
  private static final String SKILL = "mcp-conformance";
  private static final String TOOL = "test_simple_text";

  @TempDir Path home;
  @TempDir Path tmp;
  @TempDir Path jobs;

  @Test
  void loadSkillThenCall_writtenBackToBack_thousandPairsNoUnknownTool() throws Exception {
    Path plugins =
        Path.of(System.getProperty("skillport.conformancePlugins", "../samples/target/plugins"))
            .toAbsolutePath();
    Path conformance = SamplesHttpServer.conformance();
    List<String> failures = new ArrayList<>();
    int calls = 0;
    long start = System.nanoTime();
    for (int s = 0; s < SERVERS; s++) {
      ProcessBuilder builder =
          new ProcessBuilder(
                  LaunchedServer.launcher().toString(),
                  "serve",
                  "--stdio",
                  "--no-watch",
                  "--no-bundled",
                  "--jobs-dir",
                  jobs.resolve("s" + s).toString(),
                  "--skills",
                  conformance.toString(),
                  "--plugins",
                  plugins.toString())
              .redirectError(ProcessBuilder.Redirect.DISCARD);
      builder.environment().putAll(LaunchedServer.environment(home));
      builder.environment().put("TMPDIR", tmp.toString());
      Process server = builder.start();
      Answers answers = new Answers();
      Thread reader = answers.readFrom(server);
      try (OutputStream in = server.getOutputStream()) {
        ObjectNode init = JSON.createObjectNode().put("protocolVersion", "2025-11-25");
        init.putObject("capabilities");
        init.putObject("clientInfo").put("name", "back-to-back").put("version", "1");
        StringBuilder opening = new StringBuilder();
        opening.append(request(1, "initialize", init)).append('\n');
        opening.append("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
        int id = 2;
        for (int p = 0; p < PAIRS; p++) {
          StringBuilder lines = p == 0 ? opening : new StringBuilder();
          if (p > 0) {
            lines.append(tool(id++, "unload_skill", Map.of("skill_name", SKILL))).append('\n');
          }
          int load = id++;
          int call = id++;
          lines.append(tool(load, "load_skill", Map.of("skill_name", SKILL))).append('\n');
          lines.append(tool(call, TOOL, Map.of())).append('\n');
          // Every line of the step in one write: the server reads them back to back.
          in.write(lines.toString().getBytes(StandardCharsets.UTF_8));
          in.flush();
          JsonNode loaded = answers.take(load, Duration.ofSeconds(60));
          JsonNode called = answers.take(call, Duration.ofSeconds(60));
          calls++;
          if (loaded.path("result").path("isError").asBoolean(true)) {
            failures.add("load " + loaded);
          }
          if (called.has("error") || called.path("result").path("isError").asBoolean(true)) {
            failures.add("call " + called);
          }
        }
      } finally {
        if (!server.waitFor(20, TimeUnit.SECONDS)) {
          server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        reader.join(5000);
      }
      assertThat(server.exitValue()).isZero();
    }
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    System.out.printf(
        "LoadThenCallStdioIT: %d pairs over %d servers in %d ms%n",
        calls, SERVERS, took.toMillis());

    assertThat(calls).isEqualTo(SERVERS * PAIRS);
    assertThat(failures).as("calls that did not find the tool just loaded").isEmpty();
    assertThat(took).isLessThan(Duration.ofMinutes(3));
  }

  private static String tool(int id, String name, Map<String, Object> arguments) {
    ObjectNode params = JSON.createObjectNode().put("name", name);
    params.set("arguments", JSON.valueToTree(arguments));
    return request(id, "tools/call", params);
  }

  private static String request(int id, String method, ObjectNode params) {
    ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id);
    r.put("method", method).set("params", params);
    return r.toString();
  }

  /** The server's responses by id; notifications are dropped. */
  private static final class Answers {
    private final Map<Integer, JsonNode> byId = new ConcurrentHashMap<>();

    synchronized void add(JsonNode message) {
      if (message.path("id").isInt() && !message.has("method")) {
        byId.put(message.path("id").asInt(), message);
        notifyAll();
      }
    }

    synchronized JsonNode take(int id, Duration wait) throws InterruptedException {
      long deadline = System.nanoTime() + wait.toNanos();
      while (!byId.containsKey(id)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("no answer to " + id + " within " + wait);
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return byId.remove(id);
    }

    Thread readFrom(Process server) {
      Thread reader =
          new Thread(
              () -> {
                try (BufferedReader out =
                    new BufferedReader(
                        new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
                  String line;
                  while ((line = out.readLine()) != null) {
                    if (!line.isBlank()) {
                      add(JSON.readTree(line));
                    }
                  }
                } catch (IOException e) {
                  // The server ended.
                }
              },
              "stdio-answers");
      reader.setDaemon(true);
      reader.start();
      return reader;
    }
  }
}

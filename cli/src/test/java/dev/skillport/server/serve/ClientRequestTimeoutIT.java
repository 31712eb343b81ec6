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
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client over stdio that declares the roots capability and never answers {@code roots/list}: the
 * server started by {@code bin/skillport} with {@code --client-request-timeout 2} answers {@code
 * list_roots} with a failure naming the method and the timeout once it passes, tells the client the
 * request is cancelled, and goes on answering.
 */
class ClientRequestTimeoutIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  @TempDir Path home;
  @TempDir Path skills;
  @TempDir Path jobs;

  @Test
  void listRoots_clientNeverAnswers_failsAfterTheTimeoutAndServerStaysResponsive()
      throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(
                LaunchedServer.launcher().toString(),
                "serve",
                "--stdio",
                "--no-watch",
                "--no-bundled",
                "--jobs-dir",
                jobs.toString(),
                "--skills",
                skills.toString(),
                "--client-request-timeout",
                String.valueOf(TIMEOUT.toSeconds()))
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().putAll(LaunchedServer.environment(home));
    Process server = builder.start();
    Mailbox received = new Mailbox();
    Thread reader = readInto(server, received);
    try (OutputStream in = server.getOutputStream()) {
      ObjectNode init = JSON.createObjectNode().put("protocolVersion", "2025-11-25");
      init.putObject("capabilities").putObject("roots").put("listChanged", true);
      init.putObject("clientInfo").put("name", "silent-client").put("version", "1");
      send(in, request(1, "initialize", init));
      assertThat(responseTo(1, received, Duration.ofSeconds(60)).has("result")).isTrue();
      send(
          in,
          JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "notifications/initialized"));

      long asked = System.nanoTime();
      send(in, request(2, "tools/call", listRoots()));
      JsonNode rootsRequest = next(received, m -> "roots/list".equals(m.path("method").asText()));
      JsonNode answer = responseTo(2, received, TIMEOUT.plusSeconds(10));
      Duration took = Duration.ofNanos(System.nanoTime() - asked);

      assertThat(took).isBetween(TIMEOUT.minusMillis(100), TIMEOUT.plusSeconds(3));
      JsonNode result = answer.path("result");
      assertThat(result.path("isError").asBoolean()).as(result.toString()).isTrue();
      assertThat(result.path("structuredContent").path("code").asText())
          .isEqualTo("CLIENT_REQUEST_FAILED");
      assertThat(result.path("structuredContent").path("message").asText())
          .isEqualTo("roots/list got no answer within 2 s from the client");
      assertThat(result.path("structuredContent").path("hint").asText())
          .contains("--client-request-timeout");
      JsonNode cancelled =
          next(received, m -> "notifications/cancelled".equals(m.path("method").asText()));
      assertThat(cancelled.path("params").path("requestId")).isEqualTo(rootsRequest.path("id"));

      // The server goes on: a ping is answered at once, and a client that answers gets its roots.
      long pinged = System.nanoTime();
      send(in, request(3, "ping", JSON.createObjectNode()));
      assertThat(responseTo(3, received, Duration.ofSeconds(5)).has("result")).isTrue();
      assertThat(Duration.ofNanos(System.nanoTime() - pinged)).isLessThan(Duration.ofSeconds(1));
      send(in, request(4, "tools/call", listRoots()));
      JsonNode again = next(received, m -> "roots/list".equals(m.path("method").asText()));
      ObjectNode roots = JSON.createObjectNode();
      roots.putArray("roots").addObject().put("uri", "file:///work").put("name", "work");
      ObjectNode reply = JSON.createObjectNode().put("jsonrpc", "2.0");
      reply.set("id", again.path("id"));
      reply.set("result", roots);
      send(in, reply);
      JsonNode listed = responseTo(4, received, Duration.ofSeconds(10)).path("result");
      assertThat(listed.path("isError").asBoolean()).as(listed.toString()).isFalse();
      assertThat(listed.path("structuredContent").path("count").asInt()).isEqualTo(1);
    } finally {
      if (!server.waitFor(20, TimeUnit.SECONDS)) {
        server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      reader.join(5000);
    }
  }

  private static ObjectNode listRoots() {
    ObjectNode params = JSON.createObjectNode().put("name", "list_roots");
    params.putObject("arguments");
    return params;
  }

  private static ObjectNode request(int id, String method, ObjectNode params) {
    ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id);
    r.put("method", method).set("params", params);
    return r;
  }

  private static void send(OutputStream in, JsonNode message) throws IOException {
    in.write((message.toString() + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  private static JsonNode responseTo(int id, Mailbox received, Duration wait)
      throws InterruptedException {
    return received.take(
        m -> m.path("id").isInt() && m.path("id").asInt() == id && !m.has("method"), wait);
  }

  private static JsonNode next(Mailbox received, Predicate<JsonNode> wanted)
      throws InterruptedException {
    return received.take(wanted, Duration.ofSeconds(20));
  }

  /** What the server wrote, taken by what a test waits for, in any order. */
  private static final class Mailbox {
    private final List<JsonNode> messages = new ArrayList<>();

    synchronized void add(JsonNode message) {
      messages.add(message);
      notifyAll();
    }

    /** Takes the first message {@code wanted}, waiting up to {@code wait} for it. */
    synchronized JsonNode take(Predicate<JsonNode> wanted, Duration wait)
        throws InterruptedException {
      long deadline = System.nanoTime() + wait.toNanos();
      while (true) {
        for (int i = 0; i < messages.size(); i++) {
          if (wanted.test(messages.get(i))) {
            return messages.remove(i);
          }
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("no such message within " + wait + "; received: " + messages);
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }
  }

  private static Thread readInto(Process server, Mailbox received) {
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader out =
                  new BufferedReader(
                      new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                  if (!line.isBlank()) {
                    received.add(JSON.readTree(line));
                  }
                }
              } catch (IOException e) {
                // The server ended.
              }
            },
            "stdio-reader");
    reader.setDaemon(true);
    reader.start();
    return reader;
  }
}

package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.testsupport.LaunchedServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host configuration snippets of {@code docs/getting-started.md} work as written: each stdio
 * entry's command and arguments start a server through {@code bin/skillport} that answers {@code
 * initialize} and {@code tools/list} on stdio, and each URL entry's path is where a server started
 * as the page says serves MCP.
 */
class DocsHostConfigIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
          + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"docs\",\"version\":\"1\"}}}";

  @TempDir Path home;

  @Test
  void stdioEntries_startAServerThatListsTheSkillsTools() throws Exception {
    List<DocsTest.HostEntry> entries =
        DocsTest.hostEntries().stream().filter(e -> e.entry().has("command")).toList();
    assertThat(entries).isNotEmpty();
    for (DocsTest.HostEntry entry : entries) {
      List<String> command = new ArrayList<>(List.of(LaunchedServer.launcher().toString()));
      command.addAll(DocsTest.stdioArguments(entry.entry()));
      ProcessBuilder builder = new ProcessBuilder(command);
      builder.environment().putAll(LaunchedServer.environment(home));
      builder.redirectError(ProcessBuilder.Redirect.DISCARD);
      Process process = builder.start();
      try {
        JsonNode tools = listTools(process);
        List<String> names = new ArrayList<>();
        tools.path("result").path("tools").forEach(t -> names.add(t.path("name").asText()));
        assertThat(names).as(entry.where()).contains("search_skills", "load_skill");
        boolean preloads = command.contains("--preload");
        assertThat(names)
            .as(entry.where())
            .contains(preloads ? "count_lines" : "__skill__file-stats");
      } finally {
        process.getOutputStream().close();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
          process.descendants().forEach(ProcessHandle::destroyForcibly);
          process.destroyForcibly();
        }
      }
      assertThat(process.exitValue()).as("%s: exit after stdin closed", entry.where()).isZero();
    }
  }

  private static JsonNode listTools(Process process) throws Exception {
    OutputStream in = process.getOutputStream();
    String messages =
        INITIALIZE
            + "\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
            + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n";
    in.write(messages.getBytes(StandardCharsets.UTF_8));
    in.flush();
    CompletableFuture<JsonNode> answer =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                BufferedReader out =
                    new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                String line;
                while ((line = out.readLine()) != null) {
                  JsonNode message = JSON.readTree(line);
                  if (message.path("id").asInt() == 2) {
                    return message;
                  }
                }
                throw new IllegalStateException("stdout ended before the tools/list answer");
              } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    return answer.get(90, TimeUnit.SECONDS);
  }

  @Test
  void urlEntries_nameThePathAServerStartedAsThePageSaysServesMcpAt() throws Exception {
    List<DocsTest.HostEntry> entries =
        DocsTest.hostEntries().stream().filter(e -> e.entry().has("url")).toList();
    assertThat(entries).isNotEmpty();
    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--skills",
            LaunchedServer.launcher().getParent().resolveSibling("samples/skills").toString())) {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      for (DocsTest.HostEntry entry : entries) {
        URI documented = URI.create(entry.entry().get("url").asText());
        assertThat(documented.getPath()).as(entry.where()).isEqualTo(server.uri().getPath());
        URI live = server.uri().resolve(documented.getPath());
        HttpResponse<String> response =
            http.send(
                HttpRequest.newBuilder(live)
                    .timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(entry.where()).isEqualTo(200);
        assertThat(response.body()).as(entry.where()).contains("\"serverInfo\"");
      }
    }
  }
}

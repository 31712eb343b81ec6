package dev.skillport.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.runtime.jobs.RawMcpClient;
import dev.skillport.testsupport.LaunchedServer;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bridged server's life as clients of both eras see it, on servers started with {@code
 * bin/skillport}: list changes re-listed at a safe point and passed on (a 2025 session's {@code
 * list_changed}, a 2026 {@code subscriptions/listen} stream), prompts and resources through the
 * TypeScript SDK clients, a cancelled call reaching the child, its logs and progress reaching the
 * caller, its whole process tree ending with an unload and when idle, a child that speaks
 * 2026-07-28, and the 2026 catalog listing policy applied to bridged tools as to any skill's.
 */
class BridgeLifecycleIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  @TempDir Path tmp;

  private Path skills() throws Exception {
    Path skills = Files.createDirectories(tmp.resolve("skills"));
    BridgeFixtures.skill(
        skills,
        "fx",
        BridgeFixtures.node(),
        List.of(BridgeFixtures.fixtureServer(), "good", "--grandchild"),
        Map.of("CANCEL_MARKER", tmp.resolve("cancelled").toString()),
        "");
    BridgeFixtures.skill(
        skills,
        "fxm",
        BridgeFixtures.node(),
        List.of(BridgeFixtures.fixtureServer(), "good", "--modern"),
        Map.of(),
        "");
    return skills;
  }

  private LaunchedServer start(Path skills) {
    return LaunchedServer.start(
        home,
        "--no-watch",
        "--no-bundled",
        "--skills",
        skills.toString(),
        "--trust-bridge",
        "fx,fxm");
  }

  @Test
  void tsClients_bothEras_listCallPromptReadAndSeeListChanges() throws Exception {
    try (LaunchedServer server = start(skills())) {
      JsonNode summary =
          BridgeFixtures.smoke(
              1,
              "--url",
              server.uri().toString(),
              "--call",
              "load_skill",
              "--args",
              "{\"skill_name\":\"fx\"}",
              "--prompt",
              "fx__greet",
              "--prompt-args",
              "{\"who\":\"Ada\"}",
              "--read",
              BridgedContent.uri("fx", "note://hello"));
      assertThat(summary.path("toolsAfterCalls").toString()).contains("fx__echo");
      assertThat(summary.path("prompts").toString()).contains("fx__greet");
      assertThat(summary.path("prompt").toString()).contains("Say hello to Ada.");
      assertThat(summary.path("resources").toString()).contains("bridge://fx/note%3A%2F%2Fhello");
      assertThat(summary.path("resourceTemplates").toString())
          .contains("bridge://fx/note%3A%2F%2F{name}");
      assertThat(summary.path("reads").get(0).path("contents").get(0).path("text").asText())
          .isEqualTo("the note note://hello");

      JsonNode modernSummary =
          BridgeFixtures.smoke(
              2,
              "--negotiate",
              "auto",
              "--url",
              server.uri().toString(),
              "--call",
              "fx__echo",
              "--args",
              "{\"text\":\"modern\"}");
      assertThat(modernSummary.path("protocolVersion").asText()).isEqualTo("2026-07-28");
      assertThat(modernSummary.path("tools").toString())
          .as("the 2026 listing policy lists bridged tools like any skill's")
          .contains("fx__echo");
      assertThat(modernSummary.path("calls").get(0).path("content").toString())
          .contains("echo: modern");

      // A 2025 session: the child's list change is re-listed after the call that caused it and
      // reaches the session's stream as our own list_changed.
      RawMcpClient client = new RawMcpClient(server.uri());
      List<JsonNode> stream = client.openStream();
      assertThat(call(client, "load_skill", "skill_name", "fx").path("isError").asBoolean())
          .isFalse();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> stream.stream().anyMatch(BridgeLifecycleIT::isToolsListChanged));
      int before = stream.size();
      assertThat(client.result("tools/list", JSON.createObjectNode()).toString())
          .doesNotContain("fx__grown_0");
      assertThat(call(client, "fx__grow").toString()).contains("now 1 grown tools");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  stream.subList(before, stream.size()).stream()
                      .anyMatch(BridgeLifecycleIT::isToolsListChanged));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  client
                      .result("tools/list", JSON.createObjectNode())
                      .toString()
                      .contains("fx__grown_0"));
      assertThat(client.result("tools/list", JSON.createObjectNode()).toString())
          .doesNotContain("\"grown_0\"");
    }
  }

  @Test
  void modernEra_catalogListing_hidesBridgedToolsLikeAnySkills_andCallToolReachesThem()
      throws Exception {
    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--no-bundled",
            "--skills",
            skills().toString(),
            "--trust-bridge",
            "fx,fxm",
            "--tool-listing",
            "catalog")) {
      JsonNode summary =
          BridgeFixtures.smoke(
              2,
              "--negotiate",
              "auto",
              "--url",
              server.uri().toString(),
              "--call",
              "load_skill",
              "--args",
              "{\"skill_name\":\"fx\"}",
              "--call",
              "call_tool",
              "--args",
              "{\"name\":\"fx__echo\",\"arguments\":{\"text\":\"through the catalog\"}}");
      assertThat(summary.path("protocolVersion").asText()).isEqualTo("2026-07-28");
      assertThat(summary.path("tools").toString())
          .as("the catalog policy lists no skill's tools, bridged or not")
          .contains("call_tool", "search_tools")
          .doesNotContain("fx__", "fxm__");
      assertThat(summary.path("calls").get(0).path("content").toString())
          .as("load_skill starts the bridge and shows its tools")
          .contains("fx__echo");
      assertThat(summary.path("calls").get(1).path("content").toString())
          .contains("echo: through the catalog");
    }
  }

  @Test
  void idleBridge_isStoppedWithItsTree_andTheNextCallStartsItAgain() throws Exception {
    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--no-bundled",
            "--skills",
            skills().toString(),
            "--trust-bridge",
            "fx,fxm",
            "--bridge-idle",
            "2")) {
      RawMcpClient client = new RawMcpClient(server.uri());
      assertThat(call(client, "load_skill", "skill_name", "fx").path("isError").asBoolean())
          .isFalse();
      assertThat(call(client, "fx__echo", "text", "busy").toString()).contains("echo: busy");
      ProcessHandle first = BridgeTrustIT.fixtureChild(server).orElseThrow();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  first
                      .descendants()
                      .anyMatch(p -> p.info().command().orElse("").endsWith("sleep")));
      List<ProcessHandle> tree = new ArrayList<>(first.descendants().toList());
      tree.add(first);

      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> tree.stream().noneMatch(ProcessHandle::isAlive));
      assertThat(BridgeTrustIT.fixtureChild(server)).isEmpty();

      assertThat(call(client, "fx__echo", "text", "woken").toString()).contains("echo: woken");
      assertThat(BridgeTrustIT.fixtureChild(server).orElseThrow().pid()).isNotEqualTo(first.pid());
    }
  }

  @Test
  void oversizedResult_isCutToItsBounds_andSaysSo() throws Exception {
    try (LaunchedServer server = start(skills())) {
      RawMcpClient client = new RawMcpClient(server.uri());
      assertThat(call(client, "load_skill", "skill_name", "fx").path("isError").asBoolean())
          .isFalse();
      JsonNode big = call(client, "fx__big");
      assertThat(big.path("isError").asBoolean()).isFalse();
      JsonNode content = big.path("content");
      assertThat(content.size()).isLessThanOrEqualTo(BridgedResultReader.MAX_ITEMS + 1);
      long chars = 0;
      for (int i = 0; i < content.size() - 1; i++) {
        chars += content.get(i).path("text").asText().length();
      }
      assertThat(chars).isEqualTo(BridgedResultReader.MAX_RESULT_CHARS);
      assertThat(content.get(content.size() - 1).path("text").asText())
          .contains("was cut to 4 MiB and 64 items")
          .contains("items were left out");
      assertThat(call(client, "fx__echo", "text", "after").toString()).contains("echo: after");
    }
  }

  private static boolean isToolsListChanged(JsonNode message) {
    return message.path("method").asText().equals("notifications/tools/list_changed");
  }

  @Test
  void cancel_reachesTheChild_logsAndProgressReachTheCaller_unloadEndsTheTree() throws Exception {
    Path marker = tmp.resolve("cancelled");
    try (LaunchedServer server = start(skills())) {
      RawMcpClient client = new RawMcpClient(server.uri());
      client.result("logging/setLevel", JSON.createObjectNode().put("level", "info"));
      assertThat(call(client, "load_skill", "skill_name", "fx").path("isError").asBoolean())
          .isFalse();
      ProcessHandle child = BridgeTrustIT.fixtureChild(server).orElseThrow();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  child
                      .descendants()
                      .anyMatch(p -> p.info().command().orElse("").endsWith("sleep")));
      List<ProcessHandle> tree = new ArrayList<>(child.descendants().toList());
      tree.add(child);

      ObjectNode slow = JSON.createObjectNode().put("name", "fx__slow");
      slow.putObject("arguments");
      slow.putObject("_meta").put("progressToken", 77);
      CompletableFuture<List<JsonNode>> running = client.requestAsync(5001, "tools/call", slow);
      Thread.sleep(1000);
      assertThat(marker).doesNotExist();
      client.notify(
          "notifications/cancelled",
          JSON.createObjectNode().put("requestId", 5001).put("reason", "stop"));
      List<JsonNode> messages = running.get(20, TimeUnit.SECONDS);
      await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(marker));
      String seen = messages.toString();
      assertThat(seen).contains("notifications/progress").contains("\"progressToken\":77");
      assertThat(seen).contains("notifications/message").contains("slow started");

      JsonNode unloaded = call(client, "unload_skill", "skill_name", "fx");
      assertThat(unloaded.path("structuredContent").path("unloaded").asBoolean()).isTrue();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> tree.stream().noneMatch(ProcessHandle::isAlive));
    }
  }

  @Test
  void childOfTheModernEra_isSpokenTo_inItsEra_andItsListChangesReachListenStreams()
      throws Exception {
    try (LaunchedServer server = start(skills())) {
      List<JsonNode> stream = new CopyOnWriteArrayList<>();
      HttpClient http = HttpClient.newHttpClient();
      ObjectNode listen = JSON.createObjectNode();
      listen.set("_meta", modernMeta());
      listen.putObject("notifications").put("toolsListChanged", true);
      ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", "listen-1");
      request.put("method", "subscriptions/listen").set("params", listen);
      HttpResponse<InputStream> opened =
          http.send(
              HttpRequest.newBuilder(server.uri())
                  .header("Content-Type", "application/json")
                  .header("Accept", "application/json, text/event-stream")
                  .header("MCP-Protocol-Version", "2026-07-28")
                  .header("Mcp-Method", "subscriptions/listen")
                  .POST(HttpRequest.BodyPublishers.ofString(request.toString()))
                  .build(),
              HttpResponse.BodyHandlers.ofInputStream());
      Thread reader =
          new Thread(
              () -> {
                try (BufferedReader r =
                    new BufferedReader(
                        new InputStreamReader(opened.body(), StandardCharsets.UTF_8))) {
                  String line;
                  while ((line = r.readLine()) != null) {
                    if (line.startsWith("data:")) {
                      stream.add(JSON.readTree(line.substring(5).strip()));
                    }
                  }
                } catch (Exception e) {
                  // the stream ended with the server
                }
              });
      reader.setDaemon(true);
      reader.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> !stream.isEmpty());

      RawMcpClient client = new RawMcpClient(server.uri());
      assertThat(call(client, "load_skill", "skill_name", "fxm").path("isError").asBoolean())
          .isFalse();
      int before = stream.size();
      assertThat(call(client, "fxm__echo", "text", "to a modern child").toString())
          .as("the child refuses a call without the 2026 request metadata")
          .contains("echo: to a modern child");
      assertThat(call(client, "fxm__grow").toString()).contains("now 1 grown tools");

      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  client
                      .result("tools/list", JSON.createObjectNode())
                      .toString()
                      .contains("fxm__grown_0"));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  stream.subList(before, stream.size()).stream()
                      .anyMatch(
                          m ->
                              m.path("method")
                                  .asText()
                                  .equals("notifications/tools/list_changed")));
      JsonNode change =
          stream.stream()
              .filter(m -> m.path("method").asText().equals("notifications/tools/list_changed"))
              .findFirst()
              .orElseThrow();
      assertThat(change.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asText())
          .isEqualTo("listen-1");
      opened.body().close();
    }
  }

  private static ObjectNode modernMeta() {
    ObjectNode meta = JSON.createObjectNode();
    meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
    meta.putObject("io.modelcontextprotocol/clientCapabilities");
    meta.putObject("io.modelcontextprotocol/clientInfo")
        .put("name", "listen-test")
        .put("version", "1");
    return meta;
  }

  private static JsonNode call(RawMcpClient client, String tool, String... keyValues)
      throws Exception {
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    ObjectNode args = params.putObject("arguments");
    for (int i = 0; i < keyValues.length; i += 2) {
      args.put(keyValues[i], keyValues[i + 1]);
    }
    return client.call(params);
  }
}

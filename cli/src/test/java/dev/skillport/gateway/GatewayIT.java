package dev.skillport.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.InteropTools;
import dev.skillport.testsupport.LaunchedServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The gateway as users get it: instances started by {@code bin/skillport serve --http --gateway
 * auto} (one plain with the sample skills, one with the python-host sample adapter), the gateway
 * started by the first of them, and the official TypeScript SDK 2.x client talking to the gateway
 * only. The registry folders live under {@code target/}; every process started here is stopped.
 */
class GatewayIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<LaunchedServer> instances = new ArrayList<>();
  private Path work;

  private long started;

  @BeforeEach
  void folder() throws IOException {
    started = System.currentTimeMillis();
    work = Path.of("target", "gateway-it", UUID.randomUUID().toString()).toAbsolutePath();
    Files.createDirectories(work);
  }

  @AfterEach
  void stopEverything() throws IOException {
    instances.forEach(LaunchedServer::close);
    gateways(work).forEach(ProcessHandle::destroyForcibly);
    // Whatever the killed instance left (the python host's interpreter) is ours too.
    leftovers.forEach(ProcessHandle::destroyForcibly);
    // The killed instance could not remove its unpacked bundled skills and plugins; the others
    // (stopped above) removed theirs.
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    try (Stream<Path> left = Files.list(tmp)) {
      for (Path p : left.toList()) {
        String name = p.getFileName().toString();
        if ((name.startsWith("skillport-bundled") || name.startsWith("skillport-plugins"))
            && Files.getLastModifiedTime(p).toMillis() >= started - 1000) {
          try (Stream<Path> all = Files.walk(p)) {
            all.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
          }
        }
      }
    }
    try (Stream<Path> all = Files.walk(work)) {
      all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  private final List<ProcessHandle> leftovers = new ArrayList<>();

  @Test
  void twoInstances_throughTheGatewayOnly_searchCallEvictAndRevive() throws Exception {
    Path registry = work.resolve("registry");
    int port = freePort();
    URI gateway = URI.create("http://127.0.0.1:" + port + "/mcp");
    Path text = work.resolve("poem.txt");
    Files.writeString(text, "one two three\nfour five\n");
    InteropTools.dir("client@2");

    LaunchedServer plain =
        start(
            work.resolve("home-plain"),
            registry,
            port,
            "--instance",
            "plain",
            "--skills",
            samples().toString());
    LaunchedServer host =
        start(
            work.resolve("home-host"),
            registry,
            port,
            "--instance",
            "host",
            "--plugins",
            pluginFolder().toString());
    awaitIndexed(gateway, "plain", "host");
    assertThat(gateways(work))
        .as("one gateway, the first instance's: %s", log(registry))
        .hasSize(1);

    JsonNode flow =
        smoke(
            gateway,
            "--call",
            "list_instances",
            "--call",
            "search",
            "--args",
            "{\"query\":\"line count\"}",
            "--call",
            "search",
            "--args",
            "{\"query\":\"scene objects\"}",
            "--call",
            "call",
            "--args",
            "{\"name\":\"plain/file-stats__count_lines\",\"arguments\":{\"path\":\""
                + text
                + "\"}}",
            "--call",
            "call",
            "--args",
            "{\"name\":\"python-scene__host_info\"}");
    assertThat(flow.path("sdk").asText()).startsWith("@modelcontextprotocol/client@2.");
    assertThat(flow.path("tools").toString())
        .contains("search", "describe", "load_skill", "call", "list_instances");
    JsonNode calls = flow.path("calls");
    assertThat(calls.get(0).at("/structuredContent/total").asInt()).isEqualTo(2);
    assertThat(firstHit(calls.get(1))).isEqualTo("plain/file-stats");
    assertThat(firstHit(calls.get(2))).isEqualTo("host/python-scene");
    assertThat(calls.get(3).path("isError").asBoolean()).as(calls.get(3).toString()).isFalse();
    assertThat(calls.get(3).path("structuredContent").toString()).contains("\"words\":5");
    assertThat(calls.get(4).path("isError").asBoolean()).as(calls.get(4).toString()).isFalse();

    // kill -9 the host instance: gone from search within 15 s, its calls answer INSTANCE_GONE.
    leftovers.addAll(ProcessHandle.of(host.pid()).orElseThrow().descendants().toList());
    long killed = System.nanoTime();
    host.signal("KILL");
    awaitTrue(
        Duration.ofSeconds(15),
        () -> {
          String hits = searchText(gateway, "scene objects");
          return hits != null && !hits.contains("host/python-scene");
        },
        "the killed instance left search");
    long goneMillis = (System.nanoTime() - killed) / 1_000_000;
    JsonNode after =
        smoke(
            gateway,
            "--allow-tool-error",
            "--call",
            "call",
            "--args",
            "{\"name\":\"host/python-scene__host_info\"}",
            "--call",
            "call",
            "--args",
            "{\"name\":\"plain/file-stats__count_lines\",\"arguments\":{\"path\":\""
                + text
                + "\"}}");
    assertThat(after.at("/calls/0/isError").asBoolean()).isTrue();
    assertThat(after.at("/calls/0/structuredContent/code").asText()).isEqualTo("INSTANCE_GONE");
    assertThat(after.at("/calls/1/isError").asBoolean()).isFalse();
    System.out.println("GatewayIT: a killed instance left search after " + goneMillis + " ms");

    // kill -9 the gateway: the surviving instance starts another within 10 s.
    List<ProcessHandle> running = gateways(work);
    assertThat(running).hasSize(1);
    long gatewayKilled = System.nanoTime();
    ExternalCommand.of("kill", "-KILL", Long.toString(running.get(0).pid()))
        .timeout(Duration.ofSeconds(10))
        .run();
    running.get(0).onExit().get();
    // Waited for longer than the bound, so that a failure says by how much it missed.
    awaitTrue(
        Duration.ofSeconds(60),
        () -> gateways(work).size() == 1 && healthy(gateway),
        "an instance revived the gateway");
    long reviveMillis = (System.nanoTime() - gatewayKilled) / 1_000_000;
    System.out.println("GatewayIT: the gateway was revived after " + reviveMillis + " ms");
    assertThat(reviveMillis).as("ms until the gateway answered again").isLessThanOrEqualTo(10_000);
    awaitIndexed(gateway, "plain");
    JsonNode revived =
        smoke(
            gateway,
            "--call",
            "call",
            "--args",
            "{\"name\":\"file-stats__count_lines\",\"arguments\":{\"path\":\"" + text + "\"}}");
    assertThat(revived.at("/calls/0/structuredContent").toString()).contains("\"words\":5");
    assertThat(plain.isAlive()).isTrue();
  }

  @Test
  void threeInstancesStartingAtOnce_spawnExactlyOneGateway() throws Exception {
    Path registry = work.resolve("registry");
    int port = freePort();
    URI gateway = URI.create("http://127.0.0.1:" + port + "/mcp");
    List<CompletableFuture<LaunchedServer>> starting = new ArrayList<>();
    for (String name : List.of("one", "two", "three")) {
      starting.add(
          CompletableFuture.supplyAsync(
              () ->
                  start(
                      work.resolve("home-" + name),
                      registry,
                      port,
                      "--instance",
                      name,
                      "--no-bundled",
                      "--skills",
                      samples().toString())));
    }
    starting.forEach(f -> f.join());
    awaitIndexed(gateway, "one", "two", "three");
    assertThat(gateways(work)).as(log(registry)).hasSize(1);
    // Nobody starts a second one later either.
    Thread.sleep(3000);
    assertThat(gateways(work)).as(log(registry)).hasSize(1);
    assertThat(Files.readString(registry.resolve("gateway.log")))
        .as("gateway starts")
        .containsOnlyOnce("gateway serving MCP at");
    JsonNode flow = smoke(gateway, "--call", "search", "--args", "{\"query\":\"line count\"}");
    List<String> found = new ArrayList<>();
    flow.at("/calls/0/structuredContent/skills")
        .forEach(h -> found.add(h.path("qualified_name").asText()));
    assertThat(found).contains("one/file-stats", "two/file-stats", "three/file-stats");
  }

  private static final String ALICE = "alice-gateway-token-0123456789";
  private static final String BOB = "bob-gateway-token-9876543210";
  private static final String GATEWAY_TOKEN = "the-gateway-own-token-0123456789";

  /**
   * Everything a client of the instance gets flows back through the gateway: an async tool's task
   * polled to completion and another cancelled (its script and helper gone), an {@code
   * input_required} round completed, a resource read and a prompt got, each by the ids and names
   * the gateway hands out; the callers' tokens pass through, so Bob can neither read nor cancel
   * Alice's task through the gateway.
   */
  @Test
  void tasksCancellationInputRoundsResourcesAndPrompts_flowBackThroughTheGateway()
      throws Exception {
    Path registry = work.resolve("registry");
    int port = freePort();
    URI gateway = URI.create("http://127.0.0.1:" + port + "/mcp");
    Path skills = Files.createDirectories(work.resolve("skills"));
    dev.skillport.server.serve.FlowKit.writeTo(skills);
    Path sdk = InteropTools.dir("client@2");
    Files.createDirectories(work.resolve("home-flow"));
    List<String> args =
        new ArrayList<>(
            List.of(
                "--no-watch",
                "--no-bundled",
                "--gateway",
                "auto",
                "--gateway-port",
                Integer.toString(port),
                "--gateway-registry",
                registry.toString(),
                "--gateway-probe-interval",
                "3",
                "--instance",
                "flow",
                "--skills",
                skills.toString(),
                "--skills",
                samples().toString(),
                "--plugins",
                dev.skillport.server.serve.FlowKit.plugins().toString(),
                "--auth-token",
                ALICE,
                "--auth-token",
                BOB,
                "--auth-token",
                GATEWAY_TOKEN));
    // The gateway this instance starts inherits its environment: the token it reads catalogs with.
    LaunchedServer flow =
        LaunchedServer.start(
            work.resolve("home-flow"),
            java.util.Map.of("SKILLPORT_GATEWAY_TOKEN", GATEWAY_TOKEN),
            args.toArray(String[]::new));
    instances.add(flow);
    awaitIndexed(gateway, "flow");
    leftovers.addAll(ProcessHandle.of(flow.pid()).orElseThrow().descendants().toList());

    // Two tasks of Alice's polled to completion through the gateway.
    JsonNode load =
        fleetClient(
            sdk,
            "load",
            "--url",
            gateway.toString(),
            "--token",
            ALICE,
            "--tool",
            "call",
            "--args",
            "{\"name\":\"flow/flow-kit__long_job\",\"arguments\":{\"seconds\":1}}",
            "--count",
            "2",
            "--concurrency",
            "2",
            "--label",
            "alice");
    assertThat(load.path("tasks")).as(load.toString()).hasSize(2);
    for (JsonNode task : load.path("tasks")) {
      assertThat(task.path("taskId").asText()).startsWith("flow/");
      assertThat(task.path("status").asText()).as(task.toString()).isEqualTo("completed");
    }
    String alices = load.at("/tasks/0/taskId").asText();

    // Caller isolation: Bob cannot read or cancel Alice's task through the gateway.
    JsonNode bobReads = taskRequest(gateway, BOB, "tasks/get", alices);
    assertThat(bobReads.has("error")).as("Bob reads Alice's task: %s", bobReads).isTrue();
    JsonNode bobCancels = taskRequest(gateway, BOB, "tasks/cancel", alices);
    assertThat(bobCancels.has("error")).as("Bob cancels Alice's task: %s", bobCancels).isTrue();
    JsonNode aliceReads = taskRequest(gateway, ALICE, "tasks/get", alices);
    assertThat(aliceReads.at("/result/status").asText())
        .as(aliceReads.toString())
        .isEqualTo("completed");
    assertThat(aliceReads.at("/result/taskId").asText()).isEqualTo(alices);

    // A task cancelled through the gateway: its script and the script's helper are gone.
    Path pids = work.resolve("cancelled.pids");
    JsonNode cancel =
        fleetClient(
            sdk,
            "cancel",
            "--url",
            gateway.toString(),
            "--cancel-url",
            gateway.toString(),
            "--token",
            BOB,
            "--tool",
            "call",
            "--args",
            "{\"name\":\"flow/flow-kit__long_job\",\"arguments\":{\"seconds\":60,"
                + "\"pid_file\":\""
                + pids
                + "\"}}",
            "--pid-file",
            pids.toString());
    assertThat(cancel.path("taskId").asText()).startsWith("flow/");
    assertThat(cancel.path("statusBefore").asText()).isEqualTo("working");
    assertThat(cancel.path("runningBefore").asInt()).as(cancel.toString()).isEqualTo(2);
    assertThat(cancel.path("runningAfter").asInt()).as(cancel.toString()).isZero();
    assertThat(cancel.path("status").asText()).isEqualTo("cancelled");

    // An input_required round minted by the instance, answered through the gateway.
    JsonNode ask =
        fleetClient(
            sdk,
            "ask",
            "--url",
            gateway.toString(),
            "--answer-url",
            gateway.toString(),
            "--token",
            ALICE,
            "--tool",
            "call",
            "--args",
            "{\"name\":\"flow/flow-kit__ask_name\"}");
    assertThat(ask.path("calls").toString()).isEqualTo("[\"call\",\"answer\"]");
    assertThat(ask.path("elicitations").asInt()).isEqualTo(1);
    assertThat(ask.path("isError").asBoolean()).as(ask.toString()).isFalse();
    assertThat(ask.path("text").asText()).contains("Hello, Ada!");

    // A resource and a prompt of the instance, named for it.
    JsonNode read =
        smoke(
            gateway,
            "--negotiate",
            "2026-07-28",
            "--header",
            "Authorization: Bearer " + ALICE,
            "--read",
            "gateway://flow/skill://flow-kit/SKILL.md",
            "--prompt",
            "flow/describe_image",
            "--prompt-args",
            "{\"path\":\"/tmp/x.png\",\"audience\":\"a web designer\"}");
    assertThat(read.path("resources").toString())
        .contains("gateway://flow/skill://flow-kit/SKILL.md");
    assertThat(read.path("prompts").toString()).contains("flow/describe_image");
    assertThat(read.at("/reads/0/contents/0/text").asText()).contains("name: flow-kit");
    assertThat(read.at("/prompt/messages/0/content/text").asText())
        .contains("/tmp/x.png", "a web designer");

    // The page and the metrics count what went to the instance.
    String page = httpGet(gateway.resolve("/"));
    assertThat(page).contains("data-instance=\"flow\"", ">up<");
    String metrics = httpGet(gateway.resolve("/metrics"));
    assertThat(metrics)
        .contains("skillport_gateway_routed_requests_total{instance=\"flow\",outcome=\"ok\"}")
        .contains("skillport_gateway_routed_requests_total{instance=\"flow\",outcome=\"error\"}")
        .contains("skillport_gateway_instances{state=\"up\"} 1");
    System.out.printf(
        "GatewayIT: 2 tasks through the gateway in %d ms; a cancel through it ended the script tree"
            + " in %d ms (status read cancelled after %d ms)%n",
        load.path("ms").asLong(),
        cancel.path("treeGoneMs").asLong(),
        cancel.path("statusMs").asLong());
  }

  /**
   * Instances on many machines: two standalone gateways share the registry in a PostgreSQL store
   * (as behind a load balancer) and require a registration token; an instance registered with the
   * token is routed to through either, one registered without it through neither.
   */
  @Test
  void twoGatewaysOnOnePostgresRegistry_routeOnlyToInstancesWithTheToken() throws Exception {
    dev.skillport.testsupport.PostgresCluster cluster =
        dev.skillport.testsupport.PostgresCluster.start(
            Path.of(System.getProperty("java.io.tmpdir")));
    List<Process> gatewayProcesses = new ArrayList<>();
    try {
      cluster.createDatabase("gateway");
      String store =
          cluster.url("gateway") + "?user=" + dev.skillport.testsupport.PostgresCluster.USER;
      java.util.Map<String, String> pg = java.util.Map.of("PGPASSWORD", cluster.password());
      Path token = work.resolve("registration.token");
      Files.writeString(token, "a-registration-token-0123456789\n");
      Path text = work.resolve("poem.txt");
      Files.writeString(text, "one two three\nfour five\n");
      List<URI> gateways = new ArrayList<>();
      for (String name : List.of("g1", "g2")) {
        int port = freePort();
        Path home = Files.createDirectories(work.resolve("home-" + name));
        List<String> command =
            new ArrayList<>(
                List.of(
                    LaunchedServer.launcher().toString(),
                    "gateway",
                    "--port",
                    Integer.toString(port),
                    "--store",
                    store,
                    "--registration-token-file",
                    token.toString(),
                    "--probe-interval",
                    "2"));
        ProcessBuilder builder =
            new ProcessBuilder(command)
                .redirectOutput(work.resolve(name + ".log").toFile())
                .redirectErrorStream(true);
        builder.environment().putAll(LaunchedServer.environment(home));
        builder.environment().putAll(pg);
        gatewayProcesses.add(builder.start());
        gateways.add(URI.create("http://127.0.0.1:" + port + "/mcp"));
      }
      for (URI g : gateways) {
        awaitTrue(Duration.ofSeconds(90), () -> healthy(g), "gateway " + g + " serving");
      }
      for (String name : List.of("member", "stranger")) {
        List<String> args =
            new ArrayList<>(
                List.of(
                    "--no-watch",
                    "--no-bundled",
                    "--skills",
                    samples().toString(),
                    "--instance",
                    name,
                    "--gateway",
                    gateways.get(0).toString(),
                    "--gateway-store",
                    store));
        if (name.equals("member")) {
          args.addAll(List.of("--gateway-registration-token-file", token.toString()));
        }
        instances.add(
            LaunchedServer.start(
                Files.createDirectories(work.resolve("home-" + name)),
                pg,
                args.toArray(String[]::new)));
      }
      for (URI g : gateways) {
        awaitIndexed(g, "member");
      }
      // The stranger has had time to be indexed too (several probe rounds): it never is.
      Thread.sleep(5000);
      for (URI g : gateways) {
        JsonNode listed =
            gatewayCall(g, "list_instances", JSON.createObjectNode()).path("structuredContent");
        List<String> ids = new ArrayList<>();
        listed.path("instances").forEach(i -> ids.add(i.path("instance_id").asText()));
        assertThat(ids).as("instances through %s", g).containsExactly("member");
        JsonNode flow =
            smoke(
                g,
                "--call",
                "call",
                "--args",
                "{\"name\":\"file-stats__count_lines\",\"arguments\":{\"path\":\"" + text + "\"}}");
        assertThat(flow.at("/calls/0/structuredContent").toString()).contains("\"words\":5");
      }
    } finally {
      gatewayProcesses.forEach(Process::destroy);
      for (Process p : gatewayProcesses) {
        if (!p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      }
      instances.forEach(LaunchedServer::close);
      instances.clear();
      cluster.close();
    }
  }

  /** {@code node interop/fleet-client.mjs MODE ...} on the TS SDK 2.x: its JSON summary. */
  private static JsonNode fleetClient(Path sdk, String mode, String... args) throws Exception {
    ExternalCommand.Outcome run =
        ExternalCommand.of(InteropTools.fleetClient(sdk, mode, args))
            .environment(InteropTools.environment())
            .timeout(Duration.ofMinutes(3))
            .run();
    assertThat(run.exit()).as(run.toString()).isZero();
    JsonNode summary = JSON.readTree(run.stdout());
    assertThat(summary.path("sdk").asText()).startsWith("@modelcontextprotocol/client@2.");
    return summary;
  }

  /** One 2026-07-28 request naming a task, as the token's caller: the JSON-RPC answer. */
  private static JsonNode taskRequest(URI gateway, String token, String method, String taskId)
      throws Exception {
    ObjectNode caps = JSON.createObjectNode();
    caps.putObject("extensions").putObject("io.modelcontextprotocol/tasks");
    ObjectNode answer = JSON.createObjectNode();
    try {
      answer.set(
          "result",
          new InstanceClient("it")
              .request(
                  gateway,
                  method,
                  JSON.createObjectNode().put("taskId", taskId),
                  Duration.ofSeconds(20),
                  new InstanceClient.Relay("Bearer " + token, caps, null, null, null, null)));
    } catch (InstanceClient.RpcError e) {
      answer.putObject("error").put("code", e.code()).put("message", e.getMessage());
    }
    return answer;
  }

  private static String httpGet(URI uri) throws Exception {
    java.net.http.HttpResponse<String> r =
        java.net.http.HttpClient.newHttpClient()
            .send(
                java.net.http.HttpRequest.newBuilder(uri).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(uri.toString()).isEqualTo(200);
    return r.body();
  }

  private LaunchedServer start(Path home, Path registry, int port, String... args) {
    List<String> all =
        new ArrayList<>(
            List.of(
                "--no-watch",
                "--gateway",
                "auto",
                "--gateway-port",
                Integer.toString(port),
                "--gateway-registry",
                registry.toString(),
                "--gateway-probe-interval",
                "3"));
    all.addAll(List.of(args));
    try {
      Files.createDirectories(home);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    LaunchedServer server = LaunchedServer.start(home, all.toArray(String[]::new));
    synchronized (instances) {
      instances.add(server);
    }
    return server;
  }

  /** The gateway processes serving {@code work}'s registries. */
  private static List<ProcessHandle> gateways(Path work) {
    String marker = work.toString();
    return ProcessHandle.allProcesses()
        .filter(ProcessHandle::isAlive)
        .filter(
            p ->
                p.info()
                    .commandLine()
                    .filter(c -> c.contains(" gateway ") && c.contains(marker))
                    .isPresent())
        .toList();
  }

  /** The gateway's log, for failure messages. */
  private static String log(Path registry) {
    try {
      return Files.readString(registry.resolve("gateway.log"));
    } catch (IOException e) {
      return "(no gateway log: " + e + ")";
    }
  }

  private static Path samples() {
    return Path.of(System.getProperty("skillport.samples", "../samples/skills")).toAbsolutePath();
  }

  private Path pluginFolder() throws IOException {
    Path plugins = work.resolve("plugins");
    Files.createDirectories(plugins);
    Files.copy(
        Path.of(System.getProperty("skillport.pythonHostPlugin")),
        plugins.resolve("adapter-python-host.jar"));
    return plugins;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** The TypeScript SDK 2.x smoke client against the gateway, pinned to 2026-07-28 or not. */
  private static JsonNode smoke(URI gateway, String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("--url", gateway.toString()));
    all.addAll(List.of(args));
    ExternalCommand.Outcome run =
        ExternalCommand.of(InteropTools.smokeClient(2, all.toArray(String[]::new)))
            .environment(InteropTools.environment())
            .timeout(Duration.ofMinutes(2))
            .run();
    assertThat(run.exit()).as(run.toString()).isZero();
    return JSON.readTree(run.stdout());
  }

  private static String firstHit(JsonNode searchCall) {
    return searchCall.at("/structuredContent/skills/0/qualified_name").asText();
  }

  /** A gateway tool called from Java (for polling; the flows above use the TypeScript SDK). */
  private static JsonNode gatewayCall(URI gateway, String tool, ObjectNode args) {
    try {
      return new InstanceClient("it").callTool(gateway, tool, args, Duration.ofSeconds(10), null);
    } catch (IOException e) {
      return JSON.createObjectNode();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return JSON.createObjectNode();
    }
  }

  /** The search's structured result as text, or null when the gateway did not answer it. */
  private static String searchText(URI gateway, String query) {
    JsonNode result = gatewayCall(gateway, "search", JSON.createObjectNode().put("query", query));
    JsonNode found = result.path("structuredContent");
    return found.isObject() ? found.toString() : null;
  }

  private static boolean healthy(URI gateway) {
    return new InstanceClient("it").healthy(gateway, Duration.ofSeconds(1));
  }

  private static void awaitIndexed(URI gateway, String... ids) throws InterruptedException {
    awaitTrue(
        // Instances and the gateway start slowly on a loaded machine; this is not the measured
        // part.
        Duration.ofSeconds(120),
        () -> {
          JsonNode listed =
              gatewayCall(gateway, "list_instances", JSON.createObjectNode())
                  .path("structuredContent")
                  .path("instances");
          List<String> indexed = new ArrayList<>();
          listed.forEach(
              i -> {
                if (i.path("indexed").asBoolean()) {
                  indexed.add(i.path("instance_id").asText());
                }
              });
          return indexed.containsAll(List.of(ids));
        },
        "instances " + String.join(", ", ids) + " indexed");
  }

  private static void awaitTrue(
      Duration within, java.util.function.BooleanSupplier check, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      if (check.getAsBoolean()) {
        return;
      }
      Thread.sleep(200);
    }
    assertThat(check.getAsBoolean()).as(what + " within " + within.toSeconds() + " s").isTrue();
  }
}

package dev.skillport.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.skillport.mcp.McpSession;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The official MCP Java SDK client against the Streamable HTTP transport. */
@Timeout(30)
class SdkClientInteropIT {
  private EchoApplication app;
  private StreamableHttpTransport transport;
  private McpSyncClient client;
  private final List<List<McpSchema.Tool>> toolChanges = new CopyOnWriteArrayList<>();
  private final List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    app = new EchoApplication();
    transport = StreamableHttpTransport.builder(app.server).host("127.0.0.1").port(0).build();
    transport.start();
    HttpClientStreamableHttpTransport clientTransport =
        HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + transport.port())
            .endpoint("/mcp")
            .build();
    client =
        McpClient.sync(clientTransport)
            .requestTimeout(Duration.ofSeconds(10))
            .initializationTimeout(Duration.ofSeconds(10))
            .clientInfo(
                new McpSchema.Implementation(
                    "sdk-interop", "SDK interop client", "1.0.0", null, null, null))
            .toolsChangeConsumer(toolChanges::add)
            .progressConsumer(progress::add)
            .build();
  }

  @AfterEach
  void tearDown() {
    if (client != null) {
      client.closeGracefully();
    }
    transport.close();
    app.server.close();
  }

  @Test
  void sdkClient_initializesListsCallsAndReceivesListChanged() {
    McpSchema.InitializeResult init = client.initialize();

    assertThat(init.serverInfo().name()).isEqualTo("echo-test");
    assertThat(init.protocolVersion()).isIn("2025-11-25", "2025-06-18", "2025-03-26");
    assertThat(init.capabilities().tools()).isNotNull();

    McpSchema.ListToolsResult tools = client.listTools();
    assertThat(tools.tools()).extracting(McpSchema.Tool::name).containsExactly("echo");

    McpSchema.CallToolResult result =
        client.callTool(
            new McpSchema.CallToolRequest(
                "echo", Map.of("text", "hello interop"), Map.of("progressToken", "p-1")));
    assertThat(result.isError()).isFalse();
    assertThat(result.content()).hasSize(1);
    assertThat(((McpSchema.TextContent) result.content().get(0)).text()).isEqualTo("hello interop");
    await().atMost(Duration.ofSeconds(5)).until(() -> progress.size() == 2);
    assertThat(progress.get(1).progress()).isEqualTo(2.0);

    await().atMost(Duration.ofSeconds(5)).until(() -> app.sessions.size() == 1);
    McpSession session = app.sessions.get(0);
    session.notify("notifications/tools/list_changed", null);

    // On list_changed the SDK client lists the tools again and hands them to the consumer.
    await().atMost(Duration.ofSeconds(10)).until(() -> !toolChanges.isEmpty());
    assertThat(toolChanges.get(0)).extracting(McpSchema.Tool::name).containsExactly("echo");
  }

  @Test
  void sdkClient_ping_succeeds() {
    client.initialize();

    Object pong = client.ping();

    assertThat(pong).isNotNull();
    assertThat(transport.sessionCount()).isEqualTo(1);
  }
}

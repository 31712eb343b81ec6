package dev.skillport.benchmarks.peer;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The official MCP Java SDK server as a benchmark peer: an {@code echo} tool and, with {@code
 * --tools N}, N generated tools of the benchmark skill's shape, written the way the SDK documents a
 * server (a sync server, its Streamable HTTP servlet on Jetty 12, or its stdio transport).
 *
 * <pre>
 * java -cp benchmarks.jar dev.skillport.benchmarks.peer.JavaSdkPeer (--stdio | --http --port PORT)
 *     [--tools N]
 * </pre>
 *
 * <p>Over HTTP it listens on 127.0.0.1 only, prints {@code listening PORT} on stderr and stops on
 * SIGTERM or when its standard input closes.
 */
public final class JavaSdkPeer {
  private static final String SCHEMA =
      "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}";

  private JavaSdkPeer() {}

  public static void main(String[] argv) throws Exception {
    boolean stdio = false;
    int port = 0;
    int tools = 0;
    for (int i = 0; i < argv.length; i++) {
      switch (argv[i]) {
        case "--stdio" -> stdio = true;
        case "--http" -> stdio = false;
        case "--port" -> port = Integer.parseInt(argv[++i]);
        case "--tools" -> tools = Integer.parseInt(argv[++i]);
        default -> throw new IllegalArgumentException("unknown option " + argv[i]);
      }
    }
    McpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());
    List<SyncToolSpecification> specs = tools(json, tools);
    McpSchema.ServerCapabilities caps = McpSchema.ServerCapabilities.builder().tools(true).build();
    if (stdio) {
      McpSyncServer server =
          McpServer.sync(new StdioServerTransportProvider(json))
              .serverInfo("java-sdk-peer", "1")
              .capabilities(caps)
              .tools(specs)
              .build();
      // The transport reads stdin on its own threads; the process ends when the client closes it.
      new CountDownLatch(1).await();
      server.close();
      return;
    }
    HttpServletStreamableServerTransportProvider transport =
        HttpServletStreamableServerTransportProvider.builder()
            .jsonMapper(json)
            .mcpEndpoint("/mcp")
            .build();
    McpSyncServer server =
        McpServer.sync(transport)
            .serverInfo("java-sdk-peer", "1")
            .capabilities(caps)
            .tools(specs)
            .build();
    Server jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    connector.setPort(port);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.addServlet(new ServletHolder(transport), "/*");
    jetty.setHandler(context);
    jetty.start();
    System.err.printf(Locale.ROOT, "listening %d%n", connector.getLocalPort());
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    server.close();
                    jetty.stop();
                  } catch (Exception e) {
                    // stopping anyway
                  }
                }));
    while (System.in.read() >= 0) {
      // stdin open: keep serving
    }
    System.exit(0);
  }

  private static List<SyncToolSpecification> tools(McpJsonMapper json, int count) {
    List<SyncToolSpecification> specs = new ArrayList<>();
    specs.add(tool(json, "echo", "Echo"));
    for (int i = 0; i < count; i++) {
      specs.add(
          tool(
              json,
              String.format(Locale.ROOT, "tool_%04d", i),
              "Generated tool " + i + " of the listing benchmark"));
    }
    return specs;
  }

  private static SyncToolSpecification tool(McpJsonMapper json, String name, String description) {
    McpSchema.Tool tool =
        McpSchema.Tool.builder(name, json, SCHEMA).description(description).build();
    return SyncToolSpecification.builder()
        .tool(tool)
        .callHandler(
            (exchange, request) -> {
              Object text = request.arguments() == null ? null : request.arguments().get("text");
              return McpSchema.CallToolResult.builder()
                  .addTextContent(text == null ? "" : text.toString())
                  .build();
            })
        .build();
  }
}

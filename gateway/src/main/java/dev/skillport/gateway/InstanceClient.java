package dev.skillport.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The gateway's client of its instances. Every request is one 2026-07-28 request: stateless, its
 * version and client in {@code _meta}, so an instance keeps nothing for the gateway and any
 * instance thread may answer. An answer streamed as server-sent events is read to its result, and
 * the progress notifications before it are handed on.
 */
public final class InstanceClient {
  /** The revision the gateway speaks to instances. */
  public static final String VERSION = "2026-07-28";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http;
  private final String clientVersion;
  private final AtomicLong ids = new AtomicLong();

  /** Progress of a routed call, as the instance reported it. */
  @FunctionalInterface
  public interface ProgressSink {
    void progress(double progress, Double total, String message);
  }

  public InstanceClient(String clientVersion) {
    this.clientVersion = clientVersion;
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(2))
            .version(HttpClient.Version.HTTP_1_1)
            .build();
  }

  /** Whether {@code url}'s server answers {@code /healthz} within {@code timeout}. */
  public boolean healthy(URI url, Duration timeout) {
    HttpRequest request = HttpRequest.newBuilder(url.resolve("/healthz")).timeout(timeout).build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Calls {@code tool} on the instance at {@code url} and answers the call's result object.
   *
   * @throws InstanceGoneException when nothing answers at {@code url}
   * @throws IOException when the instance answers something other than a result
   */
  public JsonNode callTool(
      URI url, String tool, JsonNode arguments, Duration timeout, ProgressSink progress)
      throws IOException, InterruptedException {
    ObjectNode params = JSON.createObjectNode();
    params.put("name", tool);
    params.set("arguments", arguments == null ? JSON.createObjectNode() : arguments);
    ObjectNode meta = params.putObject("_meta");
    meta.put("io.modelcontextprotocol/protocolVersion", VERSION);
    meta.putObject("io.modelcontextprotocol/clientCapabilities");
    meta.putObject("io.modelcontextprotocol/clientInfo")
        .put("name", "skillport-gateway")
        .put("version", clientVersion);
    if (progress != null) {
      meta.put("progressToken", "gateway");
    }
    ObjectNode message =
        JSON.createObjectNode()
            .put("jsonrpc", "2.0")
            .put("id", ids.incrementAndGet())
            .put("method", "tools/call");
    message.set("params", params);
    HttpRequest request =
        HttpRequest.newBuilder(url)
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", VERSION)
            .header("Mcp-Method", "tools/call")
            .header("Mcp-Name", tool)
            .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(message)))
            .build();
    HttpResponse<Stream<String>> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofLines());
    } catch (ConnectException | HttpConnectTimeoutException e) {
      throw new InstanceGoneException(url + " does not answer: " + describe(e), e);
    } catch (IOException e) {
      // A connection reset or closed before any answer: the instance died under the call.
      throw new InstanceGoneException(url + " closed the call: " + describe(e), e);
    }
    JsonNode answer = null;
    try (Stream<String> lines = response.body()) {
      for (String line : (Iterable<String>) lines::iterator) {
        String data = line.startsWith("data:") ? line.substring(5).strip() : line.strip();
        if (!data.startsWith("{")) {
          continue;
        }
        JsonNode node = JSON.readTree(data);
        if ("notifications/progress".equals(node.path("method").asText())) {
          if (progress != null) {
            JsonNode p = node.path("params");
            progress.progress(
                p.path("progress").asDouble(),
                p.has("total") ? p.get("total").asDouble() : null,
                p.path("message").asText(null));
          }
        } else if (node.has("result") || node.has("error")) {
          answer = node;
        }
      }
    } catch (IOException e) {
      throw new InstanceGoneException(url + " broke off the call: " + describe(e), e);
    }
    if (answer == null) {
      throw new IOException(url + " answered HTTP " + response.statusCode() + " without a result");
    }
    if (answer.has("error")) {
      throw new IOException(
          url + " refused " + tool + ": " + answer.path("error").path("message").asText());
    }
    return answer.get("result");
  }

  private static String describe(Exception e) {
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  /** Nothing answers at an instance's address: it died or stopped. */
  public static final class InstanceGoneException extends IOException {
    private static final long serialVersionUID = 1L;

    InstanceGoneException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}

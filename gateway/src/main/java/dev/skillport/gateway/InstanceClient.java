package dev.skillport.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

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
    try {
      return request(url, "tools/call", params, timeout, Relay.progressOnly(progress));
    } catch (RpcError e) {
      throw new IOException(url + " refused " + tool + ": " + e.getMessage(), e);
    }
  }

  /**
   * Sends one request ({@code method} with {@code params}) to the instance at {@code url} as the
   * caller {@code relay} names, hands what the instance streams before its answer (progress, log
   * messages) to {@code relay}, and answers the JSON-RPC result. Cancelling {@code relay} closes
   * the request's stream, which cancels the request on the instance.
   *
   * @throws InstanceGoneException when nothing answers at {@code url}
   * @throws RpcError when the instance answers a JSON-RPC error
   * @throws IOException when the instance answers something other than a result or an error
   */
  public JsonNode request(URI url, String method, ObjectNode params, Duration timeout, Relay relay)
      throws IOException, InterruptedException {
    Relay r = relay == null ? Relay.NONE : relay;
    ObjectNode meta =
        params.get("_meta") instanceof ObjectNode m ? m.deepCopy() : JSON.createObjectNode();
    meta.put("io.modelcontextprotocol/protocolVersion", VERSION);
    meta.set(
        "io.modelcontextprotocol/clientCapabilities",
        r.capabilities() != null && r.capabilities().isObject()
            ? r.capabilities().deepCopy()
            : JSON.createObjectNode());
    meta.putObject("io.modelcontextprotocol/clientInfo")
        .put("name", "skillport-gateway")
        .put("version", clientVersion);
    if (r.progress() != null) {
      meta.put("progressToken", "gateway");
    } else {
      meta.remove("progressToken");
    }
    if (r.logLevel() != null && r.log() != null) {
      meta.put("io.modelcontextprotocol/logLevel", r.logLevel());
    } else {
      meta.remove("io.modelcontextprotocol/logLevel");
    }
    ObjectNode sent = params.deepCopy();
    sent.set("_meta", meta);
    ObjectNode message =
        JSON.createObjectNode()
            .put("jsonrpc", "2.0")
            .put("id", ids.incrementAndGet())
            .put("method", method);
    message.set("params", sent);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/json");
    headers.put("Accept", "application/json, text/event-stream");
    headers.put("MCP-Protocol-Version", VERSION);
    headers.put("Mcp-Method", method);
    String name = mirroredName(method, params);
    if (name != null) {
      headers.put("Mcp-Name", headerValue(name));
    }
    if (r.authorization() != null) {
      headers.put("Authorization", r.authorization());
    }
    byte[] payload = JSON.writeValueAsBytes(message);
    // One connection per request, closed to cancel it: closing the stream is how a 2026-07-28
    // client cancels a request, and java.net.http cannot be made to close one on demand.
    Socket socket = "https".equals(url.getScheme()) ? tlsSocket() : new Socket();
    AtomicBoolean cancelled = new AtomicBoolean();
    AtomicBoolean timedOut = new AtomicBoolean();
    r.onCancel(
        () -> {
          cancelled.set(true);
          closeQuietly(socket);
        });
    // The whole exchange, a streamed answer included, is bounded by the timeout.
    CompletableFuture<Void> deadline =
        CompletableFuture.runAsync(
            () -> {
              timedOut.set(true);
              closeQuietly(socket);
            },
            CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS));
    try {
      return exchange(url, socket, headers, payload, cancelled, timedOut, timeout, r);
    } finally {
      deadline.cancel(false);
      closeQuietly(socket);
    }
  }

  private JsonNode exchange(
      URI url,
      Socket socket,
      Map<String, String> headers,
      byte[] payload,
      AtomicBoolean cancelled,
      AtomicBoolean timedOut,
      Duration timeout,
      Relay r)
      throws IOException {
    boolean tls = "https".equals(url.getScheme());
    if (!tls && !"http".equals(url.getScheme())) {
      throw new IOException(url + ": the gateway routes to http:// and https:// instances only");
    }
    int port = url.getPort() >= 0 ? url.getPort() : tls ? 443 : 80;
    try {
      socket.connect(new InetSocketAddress(url.getHost(), port), CONNECT_TIMEOUT_MS);
    } catch (IOException e) {
      if (cancelled.get() || timedOut.get()) {
        throw ended(url, timedOut, timeout);
      }
      throw new InstanceGoneException(url + " does not answer: " + describe(e), e);
    }
    InputStream in;
    int status;
    Map<String, String> answerHeaders = new HashMap<>();
    try {
      OutputStream out = new BufferedOutputStream(socket.getOutputStream());
      StringBuilder head = new StringBuilder();
      String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
      head.append("POST ").append(path).append(" HTTP/1.1\r\n");
      head.append("Host: ").append(url.getHost()).append(':').append(port).append("\r\n");
      headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
      head.append("Content-Length: ").append(payload.length).append("\r\n");
      head.append("Connection: close\r\n\r\n");
      out.write(head.toString().getBytes(StandardCharsets.UTF_8));
      out.write(payload);
      out.flush();
      in = new BufferedInputStream(socket.getInputStream());
      String statusLine = line(in);
      if (statusLine == null || !statusLine.startsWith("HTTP/1.")) {
        throw new IOException("no HTTP answer");
      }
      status = Integer.parseInt(statusLine.split(" ")[1]);
      for (String h = line(in); h != null && !h.isEmpty(); h = line(in)) {
        int colon = h.indexOf(':');
        if (colon > 0) {
          answerHeaders.put(
              h.substring(0, colon).strip().toLowerCase(Locale.ROOT),
              h.substring(colon + 1).strip());
        }
      }
    } catch (IOException | RuntimeException e) {
      if (cancelled.get() || timedOut.get()) {
        throw ended(url, timedOut, timeout);
      }
      // A connection reset or closed before any answer: the instance died under the call.
      throw new InstanceGoneException(url + " closed the call: " + describe(e), e);
    }
    if ("chunked".equalsIgnoreCase(answerHeaders.get("transfer-encoding"))) {
      in = new Chunked(in);
    } else if (answerHeaders.containsKey("content-length")) {
      in = new Limited(in, Long.parseLong(answerHeaders.get("content-length")));
    }
    JsonNode answer = null;
    try {
      BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line;
      while ((line = lines.readLine()) != null) {
        String data = line.startsWith("data:") ? line.substring(5).strip() : line.strip();
        if (!data.startsWith("{")) {
          continue;
        }
        JsonNode node = JSON.readTree(data);
        String notification = node.path("method").asText();
        if ("notifications/progress".equals(notification)) {
          if (r.progress() != null) {
            JsonNode p = node.path("params");
            r.progress()
                .progress(
                    p.path("progress").asDouble(),
                    p.has("total") ? p.get("total").asDouble() : null,
                    p.path("message").asText(null));
          }
        } else if ("notifications/message".equals(notification)) {
          if (r.log() != null) {
            r.log().log(node.path("params"));
          }
        } else if (node.has("result") || node.has("error")) {
          answer = node;
          break;
        }
      }
    } catch (IOException e) {
      if (cancelled.get() || timedOut.get()) {
        throw ended(url, timedOut, timeout);
      }
      throw new InstanceGoneException(url + " broke off the call: " + describe(e), e);
    }
    if (answer == null) {
      if (cancelled.get() || timedOut.get()) {
        throw ended(url, timedOut, timeout);
      }
      if (status == 401 || status == 403) {
        throw new RpcError(-32600, url + " refused the caller (HTTP " + status + ")", null);
      }
      throw new IOException(url + " answered HTTP " + status + " without a result");
    }
    if (answer.has("error")) {
      JsonNode error = answer.get("error");
      throw new RpcError(
          error.path("code").asInt(-32603), error.path("message").asText(""), error.get("data"));
    }
    return answer.get("result");
  }

  private static final int CONNECT_TIMEOUT_MS = 2000;

  /** An unconnected TLS socket that checks the instance's certificate and host name. */
  private static Socket tlsSocket() throws IOException {
    SSLSocket socket = (SSLSocket) SSLSocketFactory.getDefault().createSocket();
    SSLParameters parameters = socket.getSSLParameters();
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    socket.setSSLParameters(parameters);
    return socket;
  }

  /** One header line (ISO-8859-1, without its CRLF); null at the end of the stream. */
  private static String line(InputStream in) throws IOException {
    StringBuilder b = new StringBuilder();
    int c;
    while ((c = in.read()) != -1) {
      if (c == '\n') {
        int end = b.length();
        return end > 0 && b.charAt(end - 1) == '\r' ? b.substring(0, end - 1) : b.toString();
      }
      b.append((char) c);
      if (b.length() > 65_536) {
        throw new IOException("a header line of over 64 KiB");
      }
    }
    return b.length() == 0 ? null : b.toString();
  }

  /** A body of {@code Content-Length} bytes. */
  private static final class Limited extends InputStream {
    private final InputStream in;
    private long left;

    Limited(InputStream in, long length) {
      this.in = in;
      this.left = length;
    }

    @Override
    public int read() throws IOException {
      if (left <= 0) {
        return -1;
      }
      int c = in.read();
      if (c >= 0) {
        left--;
      }
      return c;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (left <= 0) {
        return -1;
      }
      int n = in.read(b, off, (int) Math.min(len, left));
      if (n > 0) {
        left -= n;
      }
      return n;
    }
  }

  /** A body in HTTP/1.1 chunked transfer coding. */
  private static final class Chunked extends InputStream {
    private final InputStream in;
    private long left;
    private boolean done;

    Chunked(InputStream in) {
      this.in = in;
    }

    private boolean next() throws IOException {
      if (done) {
        return false;
      }
      if (left == 0) {
        String size = line(in);
        if (size != null && size.isEmpty()) {
          size = line(in); // the CRLF after the previous chunk's data
        }
        if (size == null) {
          throw new IOException("the chunked answer ended early");
        }
        int semi = size.indexOf(';');
        left = Long.parseLong((semi < 0 ? size : size.substring(0, semi)).strip(), 16);
        if (left == 0) {
          done = true;
          return false;
        }
      }
      return true;
    }

    @Override
    public int read() throws IOException {
      if (!next()) {
        return -1;
      }
      int c = in.read();
      if (c < 0) {
        throw new IOException("the chunked answer ended early");
      }
      left--;
      return c;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (!next()) {
        return -1;
      }
      int n = in.read(b, off, (int) Math.min(len, left));
      if (n < 0) {
        throw new IOException("the chunked answer ended early");
      }
      left -= n;
      return n;
    }
  }

  private static IOException ended(URI url, AtomicBoolean timedOut, Duration timeout) {
    return timedOut.get()
        ? new InstanceTimeoutException(url + " did not answer within " + timeout, null)
        : new CancelledException(url + ": the caller cancelled the request");
  }

  /** The field a request's {@code Mcp-Name} header mirrors, if its method has one. */
  private static String mirroredName(String method, JsonNode params) {
    String field =
        switch (method) {
          case "tools/call", "prompts/get" -> "name";
          case "resources/read" -> "uri";
          case "tasks/get", "tasks/update", "tasks/cancel" -> "taskId";
          default -> null;
        };
    return field == null ? null : params.path(field).asText(null);
  }

  /** A header value as sent: plain printable ASCII as it is, anything else Base64-wrapped. */
  static String headerValue(String value) {
    boolean plain = !value.isEmpty() && value.strip().equals(value);
    for (int i = 0; plain && i < value.length(); i++) {
      char c = value.charAt(i);
      plain = c >= 0x20 && c < 0x7f;
    }
    return plain
        ? value
        : "=?base64?"
            + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8))
            + "?=";
  }

  private static void closeQuietly(java.io.Closeable in) {
    try {
      in.close();
    } catch (IOException e) {
      // closing is all that was asked
    }
  }

  private static String describe(Throwable e) {
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  /** Log entries of a routed request, as the instance sent them ({@code params}). */
  @FunctionalInterface
  public interface LogSink {
    void log(JsonNode params);
  }

  /**
   * What travels with a routed request: the caller's {@code Authorization} header, its client
   * capabilities and log level, where progress and log entries go, and how its cancellation is
   * heard.
   */
  public record Relay(
      String authorization,
      JsonNode capabilities,
      String logLevel,
      ProgressSink progress,
      LogSink log,
      Consumer<Runnable> cancellation) {
    /** A request of the gateway's own, as no caller. */
    public static final Relay NONE = new Relay(null, null, null, null, null, null);

    static Relay progressOnly(ProgressSink progress) {
      return new Relay(null, null, null, progress, null, null);
    }

    /** The same relay as {@code authorization}'s caller (when this one names none). */
    public Relay orAs(String fallback) {
      return authorization != null || fallback == null
          ? this
          : new Relay(fallback, capabilities, logLevel, progress, log, cancellation);
    }

    void onCancel(Runnable hook) {
      if (cancellation != null) {
        cancellation.accept(hook);
      }
    }
  }

  /** The instance answered a JSON-RPC error. */
  public static final class RpcError extends IOException {
    private static final long serialVersionUID = 1L;
    private final int code;
    private final transient JsonNode data;

    RpcError(int code, String message, JsonNode data) {
      super(message);
      this.code = code;
      this.data = data;
    }

    public int code() {
      return code;
    }

    public JsonNode data() {
      return data;
    }
  }

  /** The instance did not answer within the request's timeout (it may still be running). */
  public static final class InstanceTimeoutException extends IOException {
    private static final long serialVersionUID = 1L;

    InstanceTimeoutException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** The caller cancelled the request, and the gateway closed its stream to the instance. */
  public static final class CancelledException extends IOException {
    private static final long serialVersionUID = 1L;

    CancelledException(String message) {
      super(message);
    }
  }

  /** Nothing answers at an instance's address: it died or stopped. */
  public static final class InstanceGoneException extends IOException {
    private static final long serialVersionUID = 1L;

    InstanceGoneException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}

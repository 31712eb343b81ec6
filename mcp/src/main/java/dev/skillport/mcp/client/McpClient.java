package dev.skillport.mcp.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.mcp.client.McpClientException.Kind;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An MCP client over a stream pair, one JSON-RPC message per line: a local server's stdout is read
 * on a thread of its own, requests are written to its stdin.
 *
 * <p>{@link #initialize} selects the era as the 2026-07-28 stdio binding describes: a {@code
 * server/discover} probe, answered by a modern server; any other answer, or none within the probe
 * timeout, makes the client fall back to the {@code initialize} handshake of 2025-11-25 (a server
 * that negotiates 2025-06-18, 2025-03-26 or 2024-11-05 is accepted too). In the modern era every
 * request carries the protocol version, the client's (empty) capabilities and its identity in
 * {@code _meta}.
 *
 * <p>The client declares no capabilities: a server's requests for sampling, elicitation or roots
 * are answered with method-not-found, {@code ping} with an empty result. A server cannot hurt its
 * client: a line longer than {@link Options#maxMessageBytes()} or more than {@link
 * Options#maxMalformedLines()} consecutive lines that are not JSON end the connection, and every
 * request waits at most its timeout, after which the server is told with {@code
 * notifications/cancelled}. A line that cannot be read whole (broken, or nesting deeper than the
 * JSON reader takes) but starts as an answer does, with its {@code id} before its body, fails that
 * request at once with the reason instead of at its deadline.
 */
public final class McpClient implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(McpClient.class);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Times out requests of every client; the task only completes a future and writes a line. */
  private static final ScheduledExecutorService TIMER =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "mcp-client-timeouts");
            t.setDaemon(true);
            return t;
          });

  /** The modern revision this client speaks. */
  public static final String MODERN_VERSION = "2026-07-28";

  /** The revision asked for in the {@code initialize} handshake. */
  public static final String LEGACY_VERSION = "2025-11-25";

  /** Revisions a server may answer the handshake with. */
  public static final List<String> LEGACY_VERSIONS =
      List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");

  private static final String META_VERSION = "io.modelcontextprotocol/protocolVersion";
  private static final String META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
  private static final String META_CLIENT = "io.modelcontextprotocol/clientInfo";
  private static final String META_SERVER = "io.modelcontextprotocol/serverInfo";
  private static final String META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";

  /** The two protocol eras. */
  public enum Era {
    /** Sessions, opened by {@code initialize} (2025-11-25 and earlier). */
    LEGACY,
    /** Stateless requests carrying their metadata (2026-07-28). */
    MODERN
  }

  /**
   * How the client behaves.
   *
   * @param clientName the name sent as client identity
   * @param clientVersion its version
   * @param probeTimeout how long a {@code server/discover} probe may take before the server counts
   *     as legacy; zero skips the probe
   * @param maxMessageBytes the longest line read; a longer one ends the connection
   * @param maxMalformedLines consecutive lines that are not JSON tolerated before the connection
   *     ends
   */
  public record Options(
      String clientName,
      String clientVersion,
      Duration probeTimeout,
      int maxMessageBytes,
      int maxMalformedLines) {
    public Options {
      Objects.requireNonNull(clientName, "clientName");
      Objects.requireNonNull(clientVersion, "clientVersion");
      Objects.requireNonNull(probeTimeout, "probeTimeout");
      if (maxMessageBytes < 1024 || maxMalformedLines < 1) {
        throw new IllegalArgumentException("limits too small");
      }
    }

    /** 16 MiB messages, 100 malformed lines, a 2 s probe. */
    public static Options defaults(String clientName, String clientVersion) {
      return new Options(clientName, clientVersion, Duration.ofSeconds(2), 16 << 20, 100);
    }

    public Options withProbeTimeout(Duration timeout) {
      return new Options(clientName, clientVersion, timeout, maxMessageBytes, maxMalformedLines);
    }

    public Options withMaxMessageBytes(int bytes) {
      return new Options(clientName, clientVersion, probeTimeout, bytes, maxMalformedLines);
    }
  }

  /**
   * What the server said about itself.
   *
   * @param capabilities the server's capabilities object
   * @param serverName its self-reported name (untrusted text)
   * @param instructions its instructions, or null (untrusted text)
   */
  public record Handshake(
      Era era,
      String protocolVersion,
      JsonNode capabilities,
      String serverName,
      String serverVersion,
      String instructions) {
    /** Whether the server offers a feature ({@code tools}, {@code resources}, {@code prompts}). */
    public boolean offers(String feature) {
      return capabilities.path(feature).isObject();
    }

    /** Whether the server announces list changes of a feature. */
    public boolean announcesListChanges(String feature) {
      return capabilities.path(feature).path("listChanged").asBoolean(false);
    }
  }

  /** Receives what the server sends outside the answer to a request. */
  public interface Listener {
    /**
     * A notification not tied to a request this client routes itself: list changes, resource
     * updates, log messages. Called on the reading thread; must return quickly.
     */
    void notification(String method, JsonNode params);

    /** A line that is not a JSON-RPC message ({@code excerpt} is its start). */
    default void malformed(String excerpt) {}

    /** The connection ended; called once. */
    default void closed(McpClientException why) {}
  }

  /** Receives the progress of one request. */
  @FunctionalInterface
  public interface ProgressSink {
    void progress(double progress, Double total, String message);
  }

  /** One request in flight. */
  public final class Call {
    private final long id;
    private final CompletableFuture<JsonNode> result = new CompletableFuture<>();
    private final ProgressSink progress;

    private Call(long id, ProgressSink progress) {
      this.id = id;
      this.progress = progress;
    }

    /** The request's JSON-RPC id. */
    public long id() {
      return id;
    }

    /**
     * Waits for the result.
     *
     * @throws McpClientException on an error answer, a timeout, cancellation or a closed connection
     * @throws InterruptedException when the waiting thread is interrupted (the request stays)
     */
    public JsonNode await() throws McpClientException, InterruptedException {
      try {
        return result.get();
      } catch (ExecutionException e) {
        if (e.getCause() instanceof McpClientException m) {
          throw m;
        }
        throw new McpClientException(Kind.PROTOCOL, String.valueOf(e.getCause()));
      }
    }

    /** Whether the request ended (answered, failed or cancelled). */
    public boolean isDone() {
      return result.isDone();
    }

    /** Cancels the request and tells the server with {@code notifications/cancelled}. */
    public void cancel(String reason) {
      if (pending.remove(id) != null) {
        sendCancelled(id, reason);
        result.completeExceptionally(new McpClientException(Kind.CANCELLED, reason));
      }
    }
  }

  private final InputStream in;
  private final OutputStream out;
  private final Options options;
  private final Listener listener;
  private final ObjectMapper mapper =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private final Map<Long, Call> pending = new ConcurrentHashMap<>();
  private final Map<String, Call> byProgressToken = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Object writeLock = new Object();
  private volatile Era era = Era.LEGACY;
  private volatile McpClientException closedBecause;
  private volatile String logLevel;

  private McpClient(InputStream in, OutputStream out, Options options, Listener listener) {
    this.in = in;
    this.out = out;
    this.options = options;
    this.listener = listener;
  }

  /**
   * A client reading {@code fromServer} and writing {@code toServer}; the reading thread starts at
   * once and ends with the stream.
   */
  public static McpClient open(
      InputStream fromServer, OutputStream toServer, Options options, Listener listener) {
    McpClient client =
        new McpClient(
            Objects.requireNonNull(fromServer, "fromServer"),
            Objects.requireNonNull(toServer, "toServer"),
            Objects.requireNonNull(options, "options"),
            Objects.requireNonNull(listener, "listener"));
    Thread reader = new Thread(client::readLoop, "mcp-client-" + options.clientName());
    reader.setDaemon(true);
    reader.start();
    return client;
  }

  /** The era selected by {@link #initialize}. */
  public Era era() {
    return era;
  }

  /** Whether the connection is still open. */
  public boolean isOpen() {
    return !closed.get();
  }

  /**
   * In the modern era, asks the server for log messages of this level and above on every request
   * from now on ({@code null}: none). In the legacy era, use {@code logging/setLevel}.
   */
  public void logLevel(String level) {
    this.logLevel = level;
  }

  /**
   * Selects the era and opens the conversation: a {@code server/discover} probe (unless the probe
   * timeout is zero or {@code era} says otherwise), else the {@code initialize} handshake followed
   * by {@code notifications/initialized}.
   *
   * @param known the era this server configuration answered with before, or null to probe
   * @param timeout the time the whole handshake may take
   * @throws McpClientException when the server does not answer in time, answers with a revision
   *     this client does not speak, or the connection ends
   */
  public Handshake initialize(Era known, Duration timeout)
      throws McpClientException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean probe = known == Era.MODERN || (known == null && !options.probeTimeout().isZero());
    if (probe) {
      Duration probeTimeout =
          known == Era.MODERN ? timeout : min(options.probeTimeout(), remaining(deadline));
      era = Era.MODERN;
      Call discover = request("server/discover", NODES.objectNode(), probeTimeout, null);
      try {
        JsonNode result = discover.await();
        if (!result.path("supportedVersions").toString().contains('"' + MODERN_VERSION + '"')) {
          throw new McpClientException(
              Kind.PROTOCOL,
              "the server speaks "
                  + result.path("supportedVersions")
                  + "; this client speaks "
                  + MODERN_VERSION
                  + " and "
                  + String.join(", ", LEGACY_VERSIONS));
        }
        JsonNode info = result.path("_meta").path(META_SERVER);
        return new Handshake(
            Era.MODERN,
            MODERN_VERSION,
            result.path("capabilities").isObject()
                ? result.get("capabilities")
                : NODES.objectNode(),
            info.path("name").asText(""),
            info.path("version").asText(""),
            result.path("instructions").isTextual() ? result.get("instructions").asText() : null);
      } catch (McpClientException e) {
        if (e.kind() == Kind.CLOSED || e.kind() == Kind.PROTOCOL) {
          throw e;
        }
        if (e.kind() == Kind.ERROR_RESPONSE && e.code() == -32022) {
          throw new McpClientException(
              Kind.PROTOCOL,
              "the server is of the modern era but does not speak "
                  + MODERN_VERSION
                  + ": "
                  + e.getMessage(),
              e.error());
        }
        // Any other answer, or none in time: a server of the initialize era.
        era = Era.LEGACY;
      }
    }
    era = Era.LEGACY;
    ObjectNode params = NODES.objectNode().put("protocolVersion", LEGACY_VERSION);
    params.putObject("capabilities");
    params
        .putObject("clientInfo")
        .put("name", options.clientName())
        .put("version", options.clientVersion());
    JsonNode result;
    try {
      result = request("initialize", params, remaining(deadline), null).await();
    } catch (McpClientException e) {
      if (e.kind() == Kind.TIMEOUT) {
        throw new McpClientException(
            Kind.TIMEOUT,
            "the server did not answer initialize within " + timeout.toMillis() + " ms");
      }
      throw e;
    }
    String version = result.path("protocolVersion").asText("");
    if (!LEGACY_VERSIONS.contains(version)) {
      throw new McpClientException(
          Kind.PROTOCOL,
          "the server answered initialize with protocol version '"
              + abbreviate(version, 40)
              + "'; this client speaks "
              + String.join(", ", LEGACY_VERSIONS));
    }
    notify("notifications/initialized", NODES.objectNode());
    JsonNode info = result.path("serverInfo");
    return new Handshake(
        Era.LEGACY,
        version,
        result.path("capabilities").isObject() ? result.get("capabilities") : NODES.objectNode(),
        info.path("name").asText(""),
        info.path("version").asText(""),
        result.path("instructions").isTextual() ? result.get("instructions").asText() : null);
  }

  private static Duration remaining(long deadline) {
    return Duration.ofNanos(Math.max(1_000_000, deadline - System.nanoTime()));
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  /**
   * Sends a request. In the modern era {@code params} gets the request metadata; with a {@code
   * progress} sink it also gets a progress token whose notifications reach the sink.
   *
   * @param params the request's params (changed: metadata is added)
   * @param timeout how long the answer may take; then the call fails with {@link Kind#TIMEOUT} and
   *     the server is told with {@code notifications/cancelled}
   */
  public Call request(String method, ObjectNode params, Duration timeout, ProgressSink progress) {
    long id = ids.incrementAndGet();
    Call call = new Call(id, progress);
    McpClientException down = closedBecause;
    if (down != null) {
      call.result.completeExceptionally(down);
      return call;
    }
    pending.put(id, call);
    down = closedBecause;
    if (down != null && pending.remove(id) != null) {
      // Closed while the call was being registered: nothing would ever answer it.
      call.result.completeExceptionally(down);
      return call;
    }
    ObjectNode meta = null;
    if (era == Era.MODERN) {
      meta = params.has("_meta") ? (ObjectNode) params.get("_meta") : params.putObject("_meta");
      meta.put(META_VERSION, MODERN_VERSION);
      meta.putObject(META_CAPABILITIES);
      meta.putObject(META_CLIENT)
          .put("name", options.clientName())
          .put("version", options.clientVersion());
      if (logLevel != null) {
        meta.put(META_LOG_LEVEL, logLevel);
      }
    }
    if (progress != null) {
      if (meta == null) {
        meta = params.has("_meta") ? (ObjectNode) params.get("_meta") : params.putObject("_meta");
      }
      String token = "p" + id;
      meta.put("progressToken", token);
      byProgressToken.put(token, call);
      call.result.whenComplete((r, e) -> byProgressToken.remove(token));
    }
    ObjectNode message = NODES.objectNode().put("jsonrpc", "2.0").put("id", id);
    message.put("method", method).set("params", params);
    ScheduledFuture<?> timer =
        TIMER.schedule(
            () -> {
              if (pending.remove(id) != null) {
                sendCancelled(id, "timed out after " + timeout.toMillis() + " ms");
                call.result.completeExceptionally(
                    new McpClientException(
                        Kind.TIMEOUT,
                        method + " was not answered within " + timeout.toMillis() + " ms"));
              }
            },
            timeout.toMillis(),
            TimeUnit.MILLISECONDS);
    call.result.whenComplete((r, e) -> timer.cancel(false));
    send(message);
    return call;
  }

  /** Sends a notification. */
  public void notify(String method, ObjectNode params) {
    ObjectNode message = NODES.objectNode().put("jsonrpc", "2.0").put("method", method);
    message.set("params", params);
    send(message);
  }

  private void sendCancelled(long id, String reason) {
    ObjectNode params = NODES.objectNode().put("requestId", id).put("reason", reason);
    notify("notifications/cancelled", params);
  }

  private void send(ObjectNode message) {
    if (closed.get()) {
      return;
    }
    byte[] bytes;
    try {
      bytes = mapper.writeValueAsBytes(message);
    } catch (IOException e) {
      throw new IllegalStateException("a JSON tree could not be serialized", e);
    }
    synchronized (writeLock) {
      try {
        out.write(bytes);
        out.write('\n');
        out.flush();
      } catch (IOException e) {
        shutDown(new McpClientException(Kind.CLOSED, "the server's input is closed"));
      }
    }
  }

  private void readLoop() {
    McpClientException why = new McpClientException(Kind.CLOSED, "the server closed its output");
    int malformed = 0;
    InputStream input = new BufferedInputStream(in, 64 * 1024);
    try {
      ByteArrayOutputStream line = new ByteArrayOutputStream(8 * 1024);
      while (!closed.get()) {
        int status = readLine(input, line);
        if (status < 0 && line.size() == 0) {
          break;
        }
        if (status == 1) {
          why =
              new McpClientException(
                  Kind.PROTOCOL,
                  "the server sent a message longer than "
                      + options.maxMessageBytes()
                      + " bytes; the connection was ended");
          break;
        }
        byte[] bytes = line.toByteArray();
        if (isBlank(bytes)) {
          if (status < 0) {
            break;
          }
          continue;
        }
        JsonNode node;
        try {
          node = mapper.readTree(bytes);
        } catch (IOException e) {
          node = null;
          failUnreadableAnswer(bytes, e);
        }
        if (node == null || !node.isObject()) {
          malformed++;
          listener.malformed(excerpt(bytes));
          if (malformed > options.maxMalformedLines()) {
            why =
                new McpClientException(
                    Kind.PROTOCOL,
                    "the server wrote "
                        + malformed
                        + " lines in a row that are not JSON-RPC messages; the connection was"
                        + " ended");
            break;
          }
        } else {
          malformed = 0;
          dispatch(node);
        }
        if (status < 0) {
          break;
        }
      }
    } catch (IOException e) {
      why = new McpClientException(Kind.CLOSED, "reading from the server failed: " + e);
    } catch (RuntimeException e) {
      LOG.warn("MCP client reader failed", e);
      why = new McpClientException(Kind.PROTOCOL, "reading from the server failed: " + e);
    }
    // The reason is recorded before the server's output is closed: a server process dies on the
    // broken pipe, and its exit would otherwise close the client first, for no stated reason.
    shutDown(why);
    try {
      input.close();
    } catch (IOException e) {
      LOG.debug("closing the server's output", e);
    }
  }

  /**
   * Reads one line into {@code line} (without its line break).
   *
   * @return 0 for a line, -1 at the end of input, 1 for a line longer than the limit
   */
  private int readLine(InputStream input, ByteArrayOutputStream line) throws IOException {
    line.reset();
    int b;
    while ((b = input.read()) != -1) {
      if (b == '\n') {
        return 0;
      }
      if (line.size() >= options.maxMessageBytes()) {
        return 1;
      }
      line.write(b);
    }
    return -1;
  }

  private static boolean isBlank(byte[] bytes) {
    for (byte b : bytes) {
      if (!Character.isWhitespace(b)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Fails the pending request a line that could not be read answers, when its {@code id} can be
   * read from its start ({@code {"jsonrpc":"2.0","id":7,"result":...}}).
   */
  private void failUnreadableAnswer(byte[] bytes, IOException why) {
    Long id = leadingId(bytes);
    Call call = id == null ? null : pending.remove(id);
    if (call == null) {
      return;
    }
    String reason =
        why instanceof JsonProcessingException j ? j.getOriginalMessage() : why.getMessage();
    call.result.completeExceptionally(
        new McpClientException(
            Kind.PROTOCOL,
            "the server's answer to request "
                + call.id
                + " could not be read: "
                + abbreviate(String.valueOf(reason).replaceAll("\\p{Cntrl}", " "), 300)));
  }

  /**
   * The {@code id} of a line that starts as an answer: an object whose scalar members before any
   * object or array include a numeric {@code id} and no {@code method}; else null.
   */
  private Long leadingId(byte[] bytes) {
    try (JsonParser p = mapper.getFactory().createParser(bytes)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        if (value == null || value.isStructStart() || field.equals("method")) {
          return null;
        }
        if (field.equals("id")) {
          return value == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : null;
        }
      }
    } catch (IOException e) {
      // the line breaks before its id
    }
    return null;
  }

  private static String excerpt(byte[] bytes) {
    String text = new String(bytes, 0, Math.min(bytes.length, 200), StandardCharsets.UTF_8);
    return abbreviate(text.replaceAll("\\p{Cntrl}", " ").strip(), 120);
  }

  private static String abbreviate(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max - 1) + "…";
  }

  private void dispatch(JsonNode node) {
    JsonNode method = node.get("method");
    JsonNode id = node.get("id");
    if (method == null || !method.isTextual()) {
      if (id != null && id.canConvertToLong() && (node.has("result") || node.has("error"))) {
        Call call = pending.remove(id.asLong());
        if (call == null) {
          return; // late answer to a request that timed out or was cancelled
        }
        if (node.has("error")) {
          JsonNode error = node.get("error");
          call.result.completeExceptionally(
              new McpClientException(
                  Kind.ERROR_RESPONSE,
                  abbreviate(error.path("message").asText("error " + error.path("code")), 2000),
                  error));
        } else {
          call.result.complete(node.get("result"));
        }
      } else {
        listener.malformed(abbreviate(node.toString(), 120));
      }
      return;
    }
    String m = method.asText();
    JsonNode params = node.path("params");
    if (id != null && !id.isNull()) {
      answer(id, m);
      return;
    }
    if (m.equals("notifications/progress")) {
      Call call = byProgressToken.get(params.path("progressToken").asText(""));
      if (call != null && call.progress != null && params.path("progress").isNumber()) {
        JsonNode total = params.get("total");
        call.progress.progress(
            params.get("progress").asDouble(),
            total != null && total.isNumber() ? total.asDouble() : null,
            params.path("message").isTextual() ? params.get("message").asText() : null);
      }
      return;
    }
    listener.notification(m, params);
  }

  /**
   * Answers a request from the server: {@code ping}, or method-not-found for what is not offered.
   */
  private void answer(JsonNode id, String method) {
    ObjectNode response = NODES.objectNode().put("jsonrpc", "2.0");
    response.set("id", id);
    if (method.equals("ping")) {
      response.putObject("result");
    } else {
      response
          .putObject("error")
          .put("code", -32601)
          .put("message", "this client does not offer " + abbreviate(method, 80));
    }
    send(response);
  }

  private void shutDown(McpClientException why) {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    closedBecause = why;
    for (Call call : List.copyOf(pending.values())) {
      pending.remove(call.id);
      call.result.completeExceptionally(why);
    }
    try {
      out.close();
    } catch (IOException e) {
      LOG.debug("closing the server's input", e);
    }
    listener.closed(why);
  }

  /**
   * Ends the connection: pending requests fail with {@link Kind#CLOSED}; the server's input is
   * closed.
   */
  @Override
  public void close() {
    shutDown(new McpClientException(Kind.CLOSED, "the client closed the connection"));
  }
}

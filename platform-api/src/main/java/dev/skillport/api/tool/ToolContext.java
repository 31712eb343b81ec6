package dev.skillport.api.tool;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a running tool may ask of the platform: report progress, log, notice cancellation, and ask
 * the client for sampling or elicitation. Implementations are thread-safe; every method may be
 * called from any thread while the call runs. A cancelled call's handler thread is also
 * interrupted, so blocking handlers stop without polling {@link #isCancelled()}.
 */
public interface ToolContext {

  /**
   * Reports progress. Sent to the client only when it asked for progress (its request carried a
   * progress token); otherwise a no-op. Values must grow from one report to the next.
   *
   * @param total the total, or {@code null} when unknown
   * @param message a short status, or {@code null}
   */
  void progress(double progress, Double total, String message);

  /** Logs a message to the client at {@code level} (debug, info, warning, error…). */
  void log(String level, String message);

  /** Whether the client cancelled the call; long-running handlers check it. */
  boolean isCancelled();

  /**
   * Whether the client declared capability {@code name} at initialize (for example {@code
   * "sampling"}, {@code "elicitation"}).
   */
  default boolean clientSupports(String name) {
    return false;
  }

  /**
   * Sends a request to the client and waits for its result; the building block of {@link
   * #sample(JsonNode)} and {@link #elicit(JsonNode)}.
   *
   * @param method the MCP method, for example {@code sampling/createMessage}
   * @param params the request's params object
   * @return the client's {@code result}
   * @throws ClientRequestException when the client answered with an error or not in time
   * @throws InterruptedException when the call was cancelled while waiting
   */
  default JsonNode request(String method, JsonNode params)
      throws ClientRequestException, InterruptedException {
    throw new ClientRequestException(
        ClientRequestException.Reason.UNSUPPORTED, "no client to send " + method + " to");
  }

  /**
   * Asks the client's model for a completion ({@code sampling/createMessage}).
   *
   * @param params {@code {messages, maxTokens, systemPrompt?, …}} as in the MCP specification
   * @return the client's {@code CreateMessageResult} ({@code {role, content, model, …}})
   * @throws ClientRequestException with reason UNSUPPORTED when the client did not declare
   *     sampling, otherwise as {@link #request(String, JsonNode)}
   */
  default JsonNode sample(JsonNode params) throws ClientRequestException, InterruptedException {
    return requestWith("sampling", "sampling/createMessage", params);
  }

  /**
   * Asks the user for input through the client ({@code elicitation/create}).
   *
   * @param params {@code {message, requestedSchema}} as in the MCP specification
   * @return the client's {@code ElicitResult} ({@code {action, content?}})
   * @throws ClientRequestException with reason UNSUPPORTED when the client did not declare
   *     elicitation, otherwise as {@link #request(String, JsonNode)}
   */
  default JsonNode elicit(JsonNode params) throws ClientRequestException, InterruptedException {
    return requestWith("elicitation", "elicitation/create", params);
  }

  /**
   * Ends the call's response stream now, where the transport allows the client to resume it
   * (Streamable HTTP, 2025-11-25): the client reconnects and receives later messages and the result
   * there. Elsewhere a no-op.
   */
  default void closeStream() {}

  private JsonNode requestWith(String capability, String method, JsonNode params)
      throws ClientRequestException, InterruptedException {
    if (!clientSupports(capability)) {
      throw new ClientRequestException(
          ClientRequestException.Reason.UNSUPPORTED,
          method + " needs a client that declared the '" + capability + "' capability");
    }
    return request(method, params);
  }

  /** A context that reports nowhere, is never cancelled and has no client to ask. */
  ToolContext NONE =
      new ToolContext() {
        @Override
        public void progress(double progress, Double total, String message) {}

        @Override
        public void log(String level, String message) {}

        @Override
        public boolean isCancelled() {
          return false;
        }
      };
}

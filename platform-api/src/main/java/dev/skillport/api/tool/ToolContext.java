package dev.skillport.api.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.api.stability.API;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a running tool may ask of the platform: report progress, log, notice cancellation, and ask
 * the client for sampling or elicitation. Implementations are thread-safe; every method may be
 * called from any thread while the call runs. A cancelled call's handler thread is also
 * interrupted, so blocking handlers stop without polling {@link #isCancelled()}.
 *
 * <p>Asking the client works the same for every client, but not the same way. A client of the 2025
 * protocol era gets a request while the call waits for the answer. A 2026-07-28 (stateless) client
 * gets an {@code input_required} result and calls again with the answers; the call then runs again
 * from the start, and each question it asks again (the same questions, in the same order) is
 * answered at once. So a handler that asks should ask before it changes anything, and let a {@link
 * ClientRequestException} of reason {@code INPUT_REQUIRED} propagate.
 */
@API(status = API.Status.STABLE)
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
   * Sends several requests to the client and waits for all their results, keyed as given. A
   * stateless client is asked them all in one round. The default sends them one after another.
   *
   * @param requests key → request; keys are the caller's choice (letters, digits, {@code _-.})
   * @return key → the client's result
   * @throws ClientRequestException with reason UNSUPPORTED when the client did not declare a
   *     capability one of the requests needs, otherwise as {@link #request(String, JsonNode)}
   */
  default Map<String, JsonNode> requestAll(Map<String, ClientRequest> requests)
      throws ClientRequestException, InterruptedException {
    for (ClientRequest request : requests.values()) {
      if (!clientSupports(request.capability())) {
        throw new ClientRequestException(
            ClientRequestException.Reason.UNSUPPORTED,
            request.method()
                + " needs a client that declared the '"
                + request.capability()
                + "' capability");
      }
    }
    Map<String, JsonNode> out = new LinkedHashMap<>();
    for (Map.Entry<String, ClientRequest> e : requests.entrySet()) {
      out.put(e.getKey(), request(e.getValue().method(), e.getValue().params()));
    }
    return out;
  }

  /**
   * Hands the rest of the call to a job and answers the call at once with the job's handle: a task
   * for a 2026-07-28 client that declared the Tasks extension, a job id for others. Typical use:
   * ask the user (elicitation) first, then do the long work in the background. The handler returns
   * what this returns. Where the platform runs no jobs (a test kit), the work runs now.
   *
   * @param rest the work that remains; it runs with the job's context
   * @return the result the handler must return
   */
  default ToolResult continueAsJob(ToolWork rest) throws Exception {
    return rest.run(this);
  }

  /**
   * Ends the call's response stream now, where the transport allows the client to resume it
   * (Streamable HTTP, 2025-11-25): the client reconnects and receives later messages and the result
   * there. Elsewhere a no-op.
   */
  default void closeStream() {}

  /**
   * The caller the call acts for: what it starts is recorded as that caller's, and what it reads of
   * jobs, runs and the audit trail is limited to that caller's ({@link Principal#owns(String)}).
   * The local caller where the platform knows no other.
   */
  default Principal principal() {
    return Principal.LOCAL;
  }

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

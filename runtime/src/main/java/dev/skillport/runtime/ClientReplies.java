package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ClientRequestException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/** Waiting for the client's answer to a server request (roots, sampling, elicitation). */
public final class ClientReplies {
  private ClientReplies() {}

  /**
   * Waits for {@code reply}, which the session fails once its client request timeout passes; an
   * error answer or no answer in time is a {@link ClientRequestException}. The pending request is
   * dropped either way (also when the wait is interrupted).
   */
  public static JsonNode await(CompletableFuture<JsonNode> reply, String method)
      throws ClientRequestException, InterruptedException {
    try {
      return reply.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof TimeoutException) {
        throw new ClientRequestException(
            ClientRequestException.Reason.TIMED_OUT, cause.getMessage(), cause);
      }
      throw new ClientRequestException(
          ClientRequestException.Reason.FAILED, method + " failed: " + cause.getMessage(), cause);
    } finally {
      reply.cancel(false);
    }
  }
}

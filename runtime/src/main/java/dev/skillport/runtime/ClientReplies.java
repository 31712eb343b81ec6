package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ClientRequestException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waiting for the client's answer to a server request (sampling, elicitation). */
public final class ClientReplies {
  private ClientReplies() {}

  /**
   * Waits up to {@code timeout} for {@code reply}; an error answer or no answer in time is a {@link
   * ClientRequestException}. The pending request is dropped either way.
   */
  public static JsonNode await(CompletableFuture<JsonNode> reply, String method, Duration timeout)
      throws ClientRequestException, InterruptedException {
    try {
      return reply.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new ClientRequestException(
          ClientRequestException.Reason.FAILED,
          method + " failed: " + e.getCause().getMessage(),
          e.getCause());
    } catch (TimeoutException e) {
      throw new ClientRequestException(
          ClientRequestException.Reason.TIMED_OUT,
          method + " got no answer within " + timeout.toMinutes() + " min",
          e);
    } finally {
      reply.cancel(false);
    }
  }
}

package dev.skillport.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ClientRequestException;

/** The session that started a run: where its updates go and whom an approval asks. */
public interface RunClient {
  /** A client that receives nothing and supports nothing. */
  RunClient NONE =
      new RunClient() {
        @Override
        public void notify(String method, JsonNode params) {}

        @Override
        public boolean supports(String capability) {
          return false;
        }

        @Override
        public JsonNode request(String method, JsonNode params) throws ClientRequestException {
          throw new ClientRequestException(
              ClientRequestException.Reason.UNSUPPORTED, "no client to send " + method + " to");
        }
      };

  void notify(String method, JsonNode params);

  /** Whether the client declared capability {@code capability} ({@code elicitation}, …). */
  boolean supports(String capability);

  /** Sends a request to the client and waits for its result. */
  JsonNode request(String method, JsonNode params)
      throws ClientRequestException, InterruptedException;
}

package dev.skillport.api.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.stability.API;
import java.util.Objects;

/**
 * One request a tool sends to the client: {@code elicitation/create}, {@code
 * sampling/createMessage} or {@code roots/list}, with its params as in the MCP specification.
 */
@API(status = API.Status.EXPERIMENTAL)
public record ClientRequest(String method, JsonNode params) {
  public ClientRequest {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(params, "params");
  }

  /** The client capability the request needs ({@code elicitation}, {@code sampling}, …). */
  public String capability() {
    return capabilityOf(method);
  }

  /** The client capability {@code method} needs; the method's first segment for others. */
  public static String capabilityOf(String method) {
    return switch (method) {
      case "elicitation/create" -> "elicitation";
      case "sampling/createMessage" -> "sampling";
      case "roots/list" -> "roots";
      default -> method.contains("/") ? method.substring(0, method.indexOf('/')) : method;
    };
  }
}

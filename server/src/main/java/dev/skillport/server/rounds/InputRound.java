package dev.skillport.server.rounds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.McpException;
import dev.skillport.runtime.CallDigest;
import dev.skillport.runtime.StateSigner;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One attempt of a stateless request in a multi round-trip request (MRTR: {@code tools/call},
 * {@code prompts/get}): the answers the client gave so far, and what the call asks next. The
 * answers of earlier rounds travel in the signed {@code requestState}, bound to the tool, a digest
 * of its arguments and the caller, so a retry on any server instance with the same key continues
 * the call, and altered, forged, expired or replayed-elsewhere state is refused.
 */
public final class InputRound {
  /** Signing purpose of MRTR state (a group handle does not verify as one). */
  static final String PURPOSE = "skillport/mrtr";

  /** How long a client may take to answer (people answer elicitations). */
  static final Duration TTL = Duration.ofHours(1);

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final Map<String, JsonNode> answers;
  private final Map<String, ObjectNode> pending = new LinkedHashMap<>();
  private final Set<String> missing = new LinkedHashSet<>();
  private final String tool;
  // The digest binds signed state to the call's arguments; it is worked out only when state is
  // verified or signed, not on the many calls that carry none and ask nothing.
  private final JsonNode args;
  private final String principal;

  private InputRound(Map<String, JsonNode> answers, String tool, JsonNode args, String principal) {
    this.answers = answers;
    this.tool = tool;
    this.args = args;
    this.principal = principal;
  }

  /**
   * Reads a call's {@code requestState} and {@code inputResponses}: the answers known for this
   * attempt. Responses to keys the last round did not ask are ignored.
   *
   * @throws McpException {@code INVALID_PARAMS} when the state fails verification or belongs to
   *     another call or caller, or the responses are not an object of objects
   */
  public static InputRound read(
      JsonNode params, StateSigner signer, String tool, JsonNode args, String principal)
      throws McpException {
    Map<String, JsonNode> answers = new LinkedHashMap<>();
    JsonNode state = params.get("requestState");
    JsonNode responses = params.get("inputResponses");
    if (responses != null && !responses.isNull() && !responses.isObject()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "inputResponses must be an object");
    }
    if (state == null || state.isNull()) {
      return new InputRound(answers, tool, args, principal);
    }
    if (!state.isTextual()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "requestState must be a string");
    }
    ObjectNode p = signer.verify(PURPOSE, state.asText()).orElse(null);
    if (p == null) {
      java.util.Optional<String> foreign = signer.foreignKeyId(state.asText());
      if (foreign.isPresent()) {
        throw new McpException(
            ErrorKind.INVALID_PARAMS,
            "requestState was signed under another state key (id "
                + foreign.get()
                + "; this instance's is "
                + signer.keyId()
                + "): every instance behind one load balancer needs the same --state-key-file");
      }
    }
    String owner =
        p != null && p.path("principal").isTextual() ? p.get("principal").asText() : null;
    if (p == null || !Principal.of(principal).owns(owner)) {
      // Another caller's round reads exactly as a state that never was.
      throw new McpException(
          ErrorKind.INVALID_PARAMS,
          "requestState failed verification (altered, forged or expired): call the tool again"
              + " without it");
    }
    if (!tool.equals(p.path("tool").asText(null))
        || !digest(tool, args).equals(p.path("args").asText(null))) {
      throw new McpException(
          ErrorKind.INVALID_PARAMS,
          "requestState belongs to another call (tool or arguments differ)");
    }
    p.path("answers").properties().forEach(e -> answers.put(e.getKey(), e.getValue()));
    if (responses != null && responses.isObject()) {
      for (JsonNode key : p.path("asked")) {
        JsonNode answer = responses.get(key.asText());
        if (answer == null || answer.isNull()) {
          continue;
        }
        if (!answer.isObject()) {
          throw new McpException(
              ErrorKind.INVALID_PARAMS,
              "inputResponses." + key.asText() + " must be the client's result object");
        }
        answers.put(key.asText(), answer);
      }
    }
    return new InputRound(answers, tool, args, principal);
  }

  /** The answer to {@code key}, if the client gave one. */
  public Optional<JsonNode> answer(String key) {
    return Optional.ofNullable(answers.get(key));
  }

  /** Whether the attempt asked something it cannot go on without. */
  public boolean asking() {
    return !pending.isEmpty();
  }

  /** Notes a request this attempt cannot go on without. */
  public void ask(String key, String method, JsonNode params) {
    ObjectNode request = NODES.objectNode().put("method", method);
    request.set("params", params == null ? NODES.objectNode() : params);
    pending.put(key, request);
  }

  /** Notes a capability the call needed and the client did not declare. */
  public void missing(String capability) {
    missing.add(capability);
  }

  /**
   * What the attempt answers: an {@code input_required} result when it asked something; a
   * missing-capability error when it needed a capability the client lacks and failed for it;
   * otherwise the call's own result.
   *
   * @param failed whether the call's own result is a tool failure
   */
  public ObjectNode finish(ObjectNode result, boolean failed, StateSigner signer)
      throws McpException {
    if (!pending.isEmpty()) {
      ObjectNode state = NODES.objectNode();
      state.put("tool", tool).put("args", digest(tool, args));
      if (principal != null) {
        state.put("principal", principal);
      }
      ObjectNode known = state.putObject("answers");
      answers.forEach(known::set);
      pending.keySet().forEach(state.putArray("asked")::add);
      ObjectNode out = NODES.objectNode();
      out.put("resultType", "input_required");
      ObjectNode requests = out.putObject("inputRequests");
      pending.forEach(requests::set);
      out.put("requestState", signer.sign(PURPOSE, state, TTL));
      return out;
    }
    if (!missing.isEmpty() && failed) {
      ObjectNode data = NODES.objectNode();
      ObjectNode required = data.putObject("requiredCapabilities");
      missing.forEach(required::putObject);
      throw new McpException(
          ErrorKind.MISSING_CLIENT_CAPABILITY,
          "Missing required client capability: " + String.join(", ", missing),
          data);
    }
    return result;
  }

  /** A digest of the tool name and its arguments, independent of key order. */
  static String digest(String tool, JsonNode args) {
    return CallDigest.of(tool, args);
  }
}

package dev.skillport.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.gateway.GatewayTools.Routed;
import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.McpException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The requests the gateway hands to one instance as they are, with the names in them made the
 * gateway's: every instance's resources (as {@code gateway://INSTANCE/URI}) and prompts (as {@code
 * INSTANCE/NAME}), listed together and read from their instance, and the Tasks extension's {@code
 * tasks/get}, {@code tasks/update} and {@code tasks/cancel} of a task id the gateway handed out
 * ({@code INSTANCE/TASK}). The caller's token goes with each request, so an instance answers only
 * what that caller may see: another caller's task reads as unknown through the gateway too.
 */
final class GatewayRelay {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The Tasks extension's identifier. */
  static final String TASKS = "io.modelcontextprotocol/tasks";

  /** The scheme of a resource URI the gateway hands out. */
  static final String SCHEME = "gateway://";

  /** How long a listing waits for each instance; a slower one is left out of that listing. */
  static final long LIST_WAIT_MS = 5_000;

  /** Pages of one instance's listing read at most. */
  static final int MAX_PAGES = 50;

  private final Gateway gateway;
  private final GatewayPolicy policy;

  GatewayRelay(Gateway gateway) {
    this.gateway = gateway;
    this.policy = gateway.settings().policy();
  }

  JsonNode resources(InstanceClient.Relay relay) throws McpException {
    return listAll("resources/list", "resources", relay, this::nameResource);
  }

  JsonNode templates(InstanceClient.Relay relay) throws McpException {
    return listAll("resources/templates/list", "resourceTemplates", relay, this::nameTemplate);
  }

  JsonNode prompts(InstanceClient.Relay relay) throws McpException {
    return listAll("prompts/list", "prompts", relay, this::namePrompt);
  }

  JsonNode read(JsonNode params, InstanceClient.Relay relay) throws McpException {
    String uri = params.path("uri").asText("");
    InstanceEntry instance = null;
    String original = null;
    if (uri.startsWith(SCHEME)) {
      Routed r = Routed.parse(uri.substring(SCHEME.length()));
      if (r != null) {
        instance = gateway.registered().get(r.instance());
        original = r.id();
      }
    }
    if (instance == null || !admitsUri(instance, original)) {
      throw new McpException(
          ErrorKind.RESOURCE_NOT_FOUND,
          "Resource not found: " + uri + " (the gateway's resources are gateway://INSTANCE/URI)",
          JSON.createObjectNode().put("uri", uri));
    }
    ObjectNode sent = params.deepCopy();
    sent.put("uri", original);
    JsonNode result = send(instance, "resources/read", sent, relay);
    if (result instanceof ObjectNode out) {
      for (JsonNode c : out.path("contents")) {
        if (c instanceof ObjectNode content && content.path("uri").isTextual()) {
          content.put("uri", SCHEME + Routed.of(instance.id(), content.get("uri").asText()));
        }
      }
    }
    return result;
  }

  JsonNode prompt(JsonNode params, InstanceClient.Relay relay) throws McpException {
    String name = params.path("name").asText("");
    Routed r = Routed.parse(name);
    InstanceEntry instance = r == null ? null : gateway.registered().get(r.instance());
    if (instance == null || !policy.admitsInstance(instance)) {
      throw new McpException(
          ErrorKind.INVALID_PARAMS,
          "Unknown prompt: " + name + " (the gateway's prompts are INSTANCE/NAME)");
    }
    ObjectNode sent = params.deepCopy();
    sent.put("name", r.id());
    if (sent.path("requestState").isTextual()) {
      Routed state = Routed.parse(sent.get("requestState").asText());
      if (state == null || !state.instance().equals(instance.id())) {
        throw new McpException(
            ErrorKind.INVALID_PARAMS, "requestState belongs to another instance's round");
      }
      sent.put("requestState", state.id());
    }
    return GatewayTools.named(instance, send(instance, "prompts/get", sent, relay));
  }

  /** {@code method} of a task the gateway handed out, on the instance that runs it. */
  JsonNode task(String method, JsonNode params, InstanceClient.Relay relay) throws McpException {
    String id = params.path("taskId").asText("");
    Routed r = Routed.parse(id);
    InstanceEntry instance = r == null ? null : gateway.registered().get(r.instance());
    if (instance == null) {
      String why =
          r != null && gateway.wasEvicted(r.instance())
              ? ": its instance " + r.instance() + " is gone"
              : "";
      throw new McpException(ErrorKind.INVALID_PARAMS, "Unknown task: " + id + why);
    }
    ObjectNode sent = params.deepCopy();
    sent.put("taskId", r.id());
    return GatewayTools.named(instance, send(instance, method, sent, relay));
  }

  private interface Namer {
    /** The item as the gateway lists it, or null to leave it out. */
    ObjectNode name(InstanceEntry instance, ObjectNode item);
  }

  private ObjectNode nameResource(InstanceEntry instance, ObjectNode item) {
    return nameUri(instance, item, "uri");
  }

  private ObjectNode nameTemplate(InstanceEntry instance, ObjectNode item) {
    return nameUri(instance, item, "uriTemplate");
  }

  /** The item with its URI in {@code field} made the gateway's; null when it is not admitted. */
  private ObjectNode nameUri(InstanceEntry instance, ObjectNode item, String field) {
    String uri = item.path(field).asText("");
    if (!admitsUri(instance, uri)) {
      return null;
    }
    item.put(field, SCHEME + Routed.of(instance.id(), uri));
    return item;
  }

  private ObjectNode namePrompt(InstanceEntry instance, ObjectNode item) {
    item.put("name", Routed.of(instance.id(), item.path("name").asText("")));
    return item;
  }

  /** A {@code skill://SKILL/...} resource only when its skill is admitted. */
  private boolean admitsUri(InstanceEntry instance, String uri) {
    if (!policy.admitsInstance(instance)) {
      return false;
    }
    if (uri.startsWith("skill://")) {
      String rest = uri.substring("skill://".length());
      int slash = rest.indexOf('/');
      return policy.admitsSkill(instance, slash < 0 ? rest : rest.substring(0, slash));
    }
    return true;
  }

  /**
   * Every admitted instance's whole listing (all its pages), asked of all at once: an instance that
   * does not answer within {@link #LIST_WAIT_MS} is left out rather than holding the rest.
   */
  private JsonNode listAll(String method, String field, InstanceClient.Relay relay, Namer namer)
      throws McpException {
    List<InstanceEntry> instances =
        gateway.registered().values().stream()
            .filter(policy::admitsInstance)
            .sorted(Comparator.comparing(InstanceEntry::id))
            .toList();
    List<CompletableFuture<List<ObjectNode>>> asked = new ArrayList<>();
    for (InstanceEntry instance : instances) {
      asked.add(
          CompletableFuture.supplyAsync(
              () -> {
                List<ObjectNode> items = new ArrayList<>();
                String cursor = null;
                for (int page = 0; page < MAX_PAGES; page++) {
                  ObjectNode params = JSON.createObjectNode();
                  if (cursor != null) {
                    params.put("cursor", cursor);
                  }
                  JsonNode result;
                  try {
                    result = gateway.send(instance, method, params, relay);
                  } catch (IOException e) {
                    break;
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                  }
                  for (JsonNode item : result.path(field)) {
                    if (item instanceof ObjectNode o) {
                      ObjectNode named = namer.name(instance, o.deepCopy());
                      if (named != null) {
                        items.add(named);
                      }
                    }
                  }
                  cursor = result.path("nextCursor").asText(null);
                  if (cursor == null) {
                    break;
                  }
                }
                return items;
              }));
    }
    ObjectNode out = JSON.createObjectNode();
    ArrayNode all = out.putArray(field);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LIST_WAIT_MS);
    for (CompletableFuture<List<ObjectNode>> f : asked) {
      try {
        f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS).forEach(all::add);
      } catch (TimeoutException | ExecutionException e) {
        // left out of this listing
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new McpException(ErrorKind.INTERNAL_ERROR, "the gateway is stopping");
      }
    }
    return out;
  }

  /** A request routed to {@code instance}; its JSON-RPC error handed back as the instance said. */
  private JsonNode send(
      InstanceEntry instance, String method, ObjectNode params, InstanceClient.Relay relay)
      throws McpException {
    try {
      return gateway.send(instance, method, params, relay);
    } catch (InstanceClient.RpcError e) {
      throw new McpException(kind(e.code()), e.getMessage(), e.data());
    } catch (IOException e) {
      throw new McpException(
          ErrorKind.INTERNAL_ERROR,
          GatewayTools.failure(instance, e).structured().path("message").asText(),
          GatewayTools.failure(instance, e).structured());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new McpException(ErrorKind.INTERNAL_ERROR, "the gateway is stopping");
    }
  }

  private static final Map<Integer, ErrorKind> KINDS =
      Map.of(
          -32600, ErrorKind.INVALID_REQUEST,
          -32601, ErrorKind.METHOD_NOT_FOUND,
          -32602, ErrorKind.INVALID_PARAMS,
          -32002, ErrorKind.RESOURCE_NOT_FOUND,
          -32020, ErrorKind.HEADER_MISMATCH,
          -32021, ErrorKind.MISSING_CLIENT_CAPABILITY,
          -32022, ErrorKind.UNSUPPORTED_PROTOCOL_VERSION);

  static ErrorKind kind(int code) {
    return KINDS.getOrDefault(code, ErrorKind.INTERNAL_ERROR);
  }
}

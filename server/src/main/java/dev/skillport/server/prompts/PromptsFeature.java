package dev.skillport.server.prompts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.bridge.BridgeContentException;
import dev.skillport.bridge.BridgeRuntime;
import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.McpException;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.RequestContext;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.registry.SessionView;
import dev.skillport.runtime.StateSigner;
import dev.skillport.server.resources.Paging;
import dev.skillport.server.resources.ResourcesFeature;
import dev.skillport.server.resources.SessionViews;
import dev.skillport.server.rounds.InputRound;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@code prompts/list} and {@code prompts/get} over the prompts of the session's loaded skills. The
 * session hears {@code notifications/prompts/list_changed} when its loaded skills change (sent by
 * the application's session state).
 *
 * <p>A stateless (2026-07-28) request lists, and may get, the prompts of every skill the server
 * runs, whatever the tool listing policy. When it leaves out required arguments and its client
 * declared elicitation, the server asks the user for them (a multi round-trip request) instead of
 * refusing the request.
 */
public final class PromptsFeature {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String ARGUMENTS_KEY = "prompt_arguments";

  private final CatalogHolder catalog;
  private final PromptCatalog prompts;
  private final SessionViews views;
  private final ResourcesFeature resources;
  private final Supplier<StateSigner> signer;
  private final int pageSize;
  // Serves bridge skills' prompts to the sessions that loaded them.
  private final BridgeRuntime bridges;

  /** A surface whose stateless requests sign their round-trip state with {@code signer}. */
  public PromptsFeature(
      CatalogHolder catalog,
      SessionViews views,
      ResourcesFeature resources,
      Supplier<StateSigner> signer,
      int pageSize,
      BridgeRuntime bridges) {
    this.bridges = Objects.requireNonNull(bridges, "bridges");
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.prompts = PromptCatalog.following(catalog);
    this.views = Objects.requireNonNull(views, "views");
    this.resources = Objects.requireNonNull(resources, "resources");
    this.signer = Objects.requireNonNull(signer, "signer");
    if (pageSize < 1) {
      throw new IllegalArgumentException("pageSize must be positive");
    }
    this.pageSize = pageSize;
  }

  /** Adds this surface's entries to the {@code capabilities} of {@code initialize}. */
  public void capabilities(ObjectNode capabilities) {
    capabilities.putObject("prompts").put("listChanged", true);
  }

  /** Registers this surface's method handlers. */
  public void register(McpServer.Builder builder) {
    builder
        .handler("prompts/list", (ctx, params) -> list(view(ctx), Paging.cursor(params)))
        .handler("prompts/get", this::get);
  }

  SessionView view(RequestContext ctx) throws McpException {
    return views.of(ctx);
  }

  private ObjectNode list(SessionView view, String cursor) throws McpException {
    Map<String, PromptDefinition> all = SessionPrompts.of(prompts, catalog.current(), view);
    List<ObjectNode> entries = new ArrayList<>(all.size());
    for (Map.Entry<String, PromptDefinition> e : all.entrySet()) {
      PromptDefinition d = e.getValue();
      ObjectNode p = NODES.objectNode().put("name", e.getKey());
      if (!d.description().isEmpty()) {
        p.put("description", d.description());
      }
      ArrayNode args = p.putArray("arguments");
      for (PromptDefinition.Argument a : d.arguments()) {
        ObjectNode o = args.addObject().put("name", a.name());
        if (!a.description().isEmpty()) {
          o.put("description", a.description());
        }
        o.put("required", a.required());
      }
      entries.add(p);
    }
    for (JsonNode bridged : bridgedPrompts(view)) {
      ObjectNode p = NODES.objectNode().put("name", bridged.get("name").asText());
      p.put("description", bridged.path("description").asText(""));
      p.set("arguments", bridged.path("arguments").deepCopy());
      entries.add(p);
    }
    Paging.Page<ObjectNode> page = Paging.page(entries, cursor, pageSize);
    ObjectNode result = NODES.objectNode();
    ArrayNode prompts = result.putArray("prompts");
    page.items().forEach(prompts::add);
    if (page.nextCursor() != null) {
      result.put("nextCursor", page.nextCursor());
    }
    return result;
  }

  /** The prompts of the bridged servers of the view's loaded skills, namespaced. */
  private List<JsonNode> bridgedPrompts(SessionView view) {
    BridgeRuntime runtime = bridges;
    if (runtime == null) {
      return List.of();
    }
    List<JsonNode> out = new ArrayList<>();
    for (String skill : view.loadedSkills()) {
      out.addAll(runtime.prompts(skill));
    }
    return out;
  }

  private ObjectNode get(RequestContext ctx, JsonNode params) throws McpException {
    SessionView view = views.reachable(ctx);
    JsonNode args = params.get("arguments");
    if (args != null && !args.isNull() && !args.isObject()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "arguments must be an object");
    }
    ObjectNode bridged = bridgedGet(view, params.get("name"), args);
    if (bridged != null) {
      return bridged;
    }
    PromptDefinition prompt = find(view, params.get("name"));
    Map<String, String> values = new LinkedHashMap<>();
    if (args != null && args.isObject()) {
      for (Map.Entry<String, JsonNode> e : args.properties()) {
        JsonNode v = e.getValue();
        if (v != null && !v.isNull()) {
          values.put(e.getKey(), v.isValueNode() ? v.asText() : v.toString());
        }
      }
    }
    if (ctx.isStateless()) {
      InputRound round =
          InputRound.read(
              params,
              signer.get(),
              "prompts/get " + prompt.name(),
              args,
              ctx.caller().principal().orElse(null));
      JsonNode answer = round.answer(ARGUMENTS_KEY).orElse(null);
      if (answer != null && "accept".equals(answer.path("action").asText())) {
        for (PromptDefinition.Argument a : prompt.arguments()) {
          JsonNode v = answer.path("content").get(a.name());
          if (!values.containsKey(a.name()) && v != null && !v.isNull()) {
            values.put(a.name(), v.isValueNode() ? v.asText() : v.toString());
          }
        }
      }
      List<PromptDefinition.Argument> missing =
          prompt.arguments().stream()
              .filter(a -> a.required() && !values.containsKey(a.name()))
              .toList();
      if (!missing.isEmpty() && answer == null && ctx.clientSupports("elicitation")) {
        round.ask(ARGUMENTS_KEY, "elicitation/create", argumentsForm(prompt, missing));
        return round.finish(NODES.objectNode(), signer.get());
      }
    }
    return new PromptRenderer(prompt, values, uri -> resources.read(view, uri)).render();
  }

  /**
   * Gets a prompt of a loaded skill's bridged server from that server; null when {@code name} is no
   * such prompt.
   */
  private ObjectNode bridgedGet(SessionView view, JsonNode name, JsonNode args)
      throws McpException {
    BridgeRuntime runtime = bridges;
    if (runtime == null || name == null || !name.isTextual()) {
      return null;
    }
    for (String skill : view.loadedSkills()) {
      for (JsonNode p : runtime.prompts(skill)) {
        if (p.get("name").asText().equals(name.asText())) {
          try {
            return (ObjectNode) runtime.getPrompt(skill, name.asText(), args);
          } catch (BridgeContentException e) {
            throw new McpException(
                e.callersFault() ? ErrorKind.INVALID_PARAMS : ErrorKind.INTERNAL_ERROR,
                e.getMessage());
          }
        }
      }
    }
    return null;
  }

  /** An elicitation form asking for a prompt's missing arguments. */
  private static ObjectNode argumentsForm(
      PromptDefinition prompt, List<PromptDefinition.Argument> missing) {
    ObjectNode params = NODES.objectNode();
    params.put("mode", "form");
    params.put("message", "The prompt '" + prompt.name() + "' needs a few values.");
    ObjectNode schema = params.putObject("requestedSchema").put("type", "object");
    ObjectNode properties = schema.putObject("properties");
    ArrayNode required = schema.putArray("required");
    for (PromptDefinition.Argument a : missing) {
      ObjectNode property = properties.putObject(a.name()).put("type", "string");
      if (!a.description().isEmpty()) {
        property.put("description", a.description());
      }
      if (!a.values().isEmpty()) {
        a.values().forEach(property.putArray("enum")::add);
      }
      required.add(a.name());
    }
    return params;
  }

  /** The prompt a request names among the session's prompts; unknown names are invalid params. */
  PromptDefinition find(SessionView view, JsonNode name) throws McpException {
    if (name == null || !name.isTextual() || name.asText().isEmpty()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "name must be a non-empty string");
    }
    return SessionPrompts.find(SessionPrompts.of(prompts, catalog.current(), view), name.asText())
        .orElseThrow(
            () ->
                new McpException(
                    ErrorKind.INVALID_PARAMS,
                    "no prompt named '"
                        + name.asText()
                        + "' in this session; load the skill that provides it"));
  }
}

package dev.skillport.server.prompts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.McpException;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.RequestContext;
import dev.skillport.server.resources.ResourcesFeature;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * {@code completion/complete}: a prompt argument completes from the values its spec declares
 * ({@code values} or {@code enum}, then {@code examples}), a resource-template variable from the
 * provider that lists the template. Values match case-insensitively by prefix; at most 100 are
 * returned, with {@code total} and {@code hasMore}.
 */
public final class CompletionsFeature {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final int MAX_VALUES = 100;

  private final PromptsFeature prompts;
  private final ResourcesFeature resources;

  public CompletionsFeature(PromptsFeature prompts, ResourcesFeature resources) {
    this.prompts = Objects.requireNonNull(prompts, "prompts");
    this.resources = Objects.requireNonNull(resources, "resources");
  }

  /** Adds this surface's entries to the {@code capabilities} of {@code initialize}. */
  public void capabilities(ObjectNode capabilities) {
    capabilities.putObject("completions");
  }

  /** Registers this surface's method handlers. */
  public void register(McpServer.Builder builder) {
    builder.handler("completion/complete", this::complete);
  }

  private ObjectNode complete(RequestContext ctx, JsonNode params) throws McpException {
    JsonNode ref = params.path("ref");
    JsonNode argument = params.path("argument");
    if (!argument.path("name").isTextual()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "argument.name must be a string");
    }
    String arg = argument.get("name").asText();
    String prefix = argument.path("value").asText("");
    List<String> candidates;
    switch (ref.path("type").asText("")) {
      case "ref/prompt":
        {
          PromptDefinition prompt = prompts.find(prompts.view(ctx), ref.get("name"));
          PromptDefinition.Argument declared =
              prompt.arguments().stream()
                  .filter(a -> a.name().equals(arg))
                  .findFirst()
                  .orElseThrow(
                      () ->
                          new McpException(
                              ErrorKind.INVALID_PARAMS,
                              "prompt '" + prompt.name() + "' has no argument '" + arg + "'"));
          candidates = declared.values();
          break;
        }
      case "ref/resource":
        {
          String template = ref.path("uri").asText("");
          if (!resources.hasTemplate(template)) {
            throw new McpException(
                ErrorKind.INVALID_PARAMS, "no resource template '" + template + "'");
          }
          candidates = resources.completeTemplate(template, arg, prefix);
          break;
        }
      default:
        throw new McpException(
            ErrorKind.INVALID_PARAMS, "ref.type must be ref/prompt or ref/resource");
    }
    String lower = prefix.toLowerCase(Locale.ROOT);
    List<String> matching =
        candidates.stream().filter(v -> v.toLowerCase(Locale.ROOT).startsWith(lower)).toList();
    ObjectNode result = NODES.objectNode();
    ObjectNode completion = result.putObject("completion");
    ArrayNode values = completion.putArray("values");
    matching.stream().limit(MAX_VALUES).forEach(values::add);
    completion.put("total", matching.size());
    completion.put("hasMore", matching.size() > MAX_VALUES);
    return result;
  }
}

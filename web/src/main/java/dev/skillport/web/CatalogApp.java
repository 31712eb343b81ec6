package dev.skillport.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.api.resource.ResourceContents;
import dev.skillport.api.resource.ResourceDescriptor;
import dev.skillport.api.resource.ResourceProvider;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The page as an MCP App (the {@code io.modelcontextprotocol/ui} extension): the {@value #URI}
 * resource is one self-contained HTML document rendered from the page's own templates (the catalog,
 * every skill's view, jobs and runs; style and script inlined, nothing fetched), and the {@value
 * #TOOL} tool points to it through {@code _meta.ui.resourceUri}, so a host that renders apps shows
 * the catalog inline and opens the skill the call names. Both are offered only to clients that
 * declare the extension.
 */
public final class CatalogApp implements ResourceProvider {
  /** The MCP Apps extension's identifier. */
  public static final String EXTENSION = "io.modelcontextprotocol/ui";

  /** The view's resource. */
  public static final String URI = "ui://skillport/catalog";

  /** The MIME type of an MCP App's HTML. */
  public static final String MIME_TYPE = "text/html;profile=mcp-app";

  /** The tool that shows the view. */
  public static final String TOOL = "show_skill_catalog";

  /** Skills whose full view the document carries; the list always holds every skill. */
  static final int MAX_SKILL_VIEWS = 200;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final CatalogViews views;
  // Made at the first read of the app: a stdio session that never reads it does not pay for it.
  private Assets assets;

  /** The template engine and the inlined style and script. */
  private record Assets(Templates templates, String css, String js) {
    static Assets load() {
      return new Assets(
          new Templates(),
          new String(WebRoutes.asset("app.css"), StandardCharsets.UTF_8),
          new String(WebRoutes.asset("app-view.js"), StandardCharsets.UTF_8));
    }
  }

  private synchronized Assets assets() {
    if (assets == null) {
      assets = Assets.load();
    }
    return assets;
  }

  public CatalogApp(SiteSources sources) {
    this.views = new CatalogViews(sources);
  }

  @Override
  public List<ResourceDescriptor> resources() {
    return List.of(
        new ResourceDescriptor(
            URI,
            "Skill catalog",
            "The skills this server serves, their tools, diagnostics, jobs and runs, as an"
                + " interactive view (MCP App).",
            MIME_TYPE));
  }

  @Override
  public Optional<ResourceContents> read(String uri) {
    return URI.equals(uri)
        ? Optional.of(ResourceContents.text(URI, MIME_TYPE, html()))
        : Optional.empty();
  }

  /** The view as one HTML document, as it is now. */
  String html() {
    CatalogViews.CatalogPage page = views.catalog(null, null, null, null, null);
    Map<String, String> anchors = new LinkedHashMap<>();
    List<CatalogViews.SkillPage> skills = new ArrayList<>();
    int omitted = 0;
    for (CatalogViews.SkillRow row : page.skills()) {
      if (anchors.containsKey(row.name())) {
        continue;
      }
      anchors.put(row.name(), "skill-" + anchors.size());
      if (skills.size() < MAX_SKILL_VIEWS) {
        views.skill(row.name()).ifPresent(skills::add);
      } else {
        omitted++;
      }
    }
    Map<String, Object> model = new HashMap<>();
    Assets a = assets();
    model.put("css", a.css());
    model.put("js", a.js());
    model.put("page", page);
    model.put("skills", skills);
    model.put("anchors", anchors);
    model.put("omitted", omitted);
    // A resource read carries no caller: the view shows the local caller's work, which is all
    // work where callers do not authenticate and none of any token's where they do.
    model.put("jobs", views.jobs(Principal.LOCAL));
    return a.templates().render("app", model);
  }

  /** The tool's {@code tools/list} entry, pointing to the view. */
  public ObjectNode toolDefinition() {
    ObjectNode tool = NODES.objectNode();
    tool.put("name", TOOL);
    tool.put("title", "Skill catalog");
    tool.put(
        "description",
        "Show the skill catalog to the user as an interactive view: every skill with its state,"
            + " tools, diagnostics and why it is shadowed or pending, plus jobs and workflow runs."
            + " Give skill_name to open that skill.");
    ObjectNode schema = tool.putObject("inputSchema").put("type", "object");
    schema
        .putObject("properties")
        .putObject("skill_name")
        .put("type", "string")
        .put("description", "The skill to open (optional)");
    tool.putObject("annotations").put("readOnlyHint", true).put("openWorldHint", false);
    tool.putObject("_meta").putObject("ui").put("resourceUri", URI);
    return tool;
  }

  /**
   * Answers a call: a short text for the model, and as {@code structuredContent} the counts by
   * state, the skills (name, state, tool count; at most 200) and the skill to open.
   */
  public ObjectNode call(JsonNode arguments) {
    CatalogViews.CatalogPage page = views.catalog(null, null, null, null, null);
    String wanted =
        arguments != null && arguments.path("skill_name").isTextual()
            ? arguments.get("skill_name").asText()
            : null;
    ObjectNode structured = NODES.objectNode();
    structured.put("total", page.total());
    ObjectNode byState = structured.putObject("by_state");
    page.summary().byState().forEach(byState::put);
    ArrayNode skills = structured.putArray("skills");
    for (CatalogViews.SkillRow row : page.skills()) {
      if (skills.size() >= 200) {
        break;
      }
      skills
          .addObject()
          .put("name", row.name())
          .put("state", row.state())
          .put("tools", row.tools());
    }
    StringBuilder text =
        new StringBuilder("The catalog holds ").append(page.total()).append(" skills (");
    List<String> parts = new ArrayList<>();
    page.summary().byState().forEach((state, n) -> parts.add(n + " " + state));
    text.append(String.join(", ", parts)).append(").");
    if (wanted != null) {
      boolean found = page.skills().stream().anyMatch(r -> r.name().equals(wanted));
      if (found) {
        structured.put("skill_name", wanted);
        text.append(" Showing ").append(wanted).append('.');
      } else {
        text.append(" No skill is named ").append(wanted).append('.');
      }
    }
    ObjectNode result = NODES.objectNode();
    result.putArray("content").addObject().put("type", "text").put("text", text.toString());
    result.set("structuredContent", structured);
    result.put("isError", false);
    return result;
  }

  /** Adds the extension to a {@code capabilities} object. */
  public static void declare(ObjectNode capabilities) {
    JsonNode existing = capabilities.get("extensions");
    ObjectNode extensions =
        existing instanceof ObjectNode o ? o : capabilities.putObject("extensions");
    extensions.putObject(EXTENSION);
  }
}

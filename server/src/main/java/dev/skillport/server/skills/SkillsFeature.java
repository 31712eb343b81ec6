package dev.skillport.server.skills;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.McpException;
import dev.skillport.mcp.McpServer;
import dev.skillport.model.skill.Skill;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.runtime.secrets.Redactor;
import dev.skillport.server.resources.Paging;
import dev.skillport.server.resources.SkillFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Skills extension over every discoverable skill (loaded or not: the extension is a catalog for
 * the host, independent of a session's progressive loading). An entry carries the SKILL.md URI, the
 * frontmatter as written (secret values masked, as in the served SKILL.md), and {@code {uri,
 * digest, size}} for every file of the skill folder, computed over the same bytes {@code
 * resources/read} serves. Skills whose frontmatter lacks {@code name} or {@code description} are
 * not served, since an entry requires both.
 */
public final class SkillsFeature {
  private static final Logger LOG = LoggerFactory.getLogger(SkillsFeature.class);

  /** The extension's identifier, the key under {@code capabilities.extensions}. */
  public static final String EXTENSION = "io.modelcontextprotocol/skills";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DIRECTORY = "inode/directory";
  private static final long TTL_MS = 60_000;

  private final CatalogHolder catalog;
  private final int pageSize;

  public SkillsFeature(CatalogHolder catalog, int pageSize) {
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    if (pageSize < 1) {
      throw new IllegalArgumentException("pageSize must be positive");
    }
    this.pageSize = pageSize;
  }

  /** Adds this surface's entries to the {@code capabilities} of {@code initialize}. */
  public void capabilities(ObjectNode capabilities) {
    JsonNode existing = capabilities.get("extensions");
    ObjectNode extensions =
        existing instanceof ObjectNode o ? o : capabilities.putObject("extensions");
    extensions.putObject(EXTENSION).put("directoryRead", true);
  }

  /** Registers this surface's method handlers. */
  public void register(McpServer.Builder builder) {
    builder
        .handler("skills/list", (ctx, params) -> list(Paging.cursor(params)))
        .handler("skills/get", (ctx, params) -> get(uri(params)))
        .handler(
            "resources/directory/read",
            (ctx, params) -> directory(uri(params), Paging.cursor(params)));
  }

  private static String uri(JsonNode params) throws McpException {
    JsonNode uri = params.get("uri");
    if (uri == null || !uri.isTextual() || uri.asText().isEmpty()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "uri must be a non-empty string");
    }
    return uri.asText();
  }

  private static List<Skill> served(Catalog snapshot) {
    List<Skill> out = new ArrayList<>();
    for (Skill s : SkillFiles.discoverable(snapshot)) {
      Map<String, Object> fm = s.manifest().frontmatter();
      if (fm.get("name") instanceof String && fm.get("description") instanceof String) {
        out.add(s);
      }
    }
    return out;
  }

  private static String skillUri(Skill s) {
    return SkillFiles.uri(s.name(), s.location().directory(), s.location().skillFile());
  }

  private ObjectNode list(String cursor) throws McpException {
    Paging.Page<Skill> page = Paging.page(served(catalog.current()), cursor, pageSize);
    ObjectNode result = complete();
    ArrayNode skills = result.putArray("skills");
    for (Skill s : page.items()) {
      skills.add(entry(s));
    }
    if (page.nextCursor() != null) {
      result.put("nextCursor", page.nextCursor());
    }
    return cacheable(result);
  }

  private ObjectNode get(String uri) throws McpException {
    Skill skill =
        served(catalog.current()).stream()
            .filter(s -> skillUri(s).equals(uri))
            .findFirst()
            .orElseThrow(
                () -> new McpException(ErrorKind.INVALID_PARAMS, "No skill is served at " + uri));
    ObjectNode result = complete();
    result.set("skill", entry(skill));
    return cacheable(result);
  }

  private static ObjectNode complete() {
    return NODES.objectNode().put("resultType", "complete");
  }

  private static ObjectNode cacheable(ObjectNode result) {
    return result.put("ttlMs", TTL_MS).put("cacheScope", "public");
  }

  private static ObjectNode entry(Skill s) {
    ObjectNode e = NODES.objectNode().put("uri", skillUri(s));
    // The frontmatter as SKILL.md is served: secret values masked.
    JsonNode frontmatter = Redactor.shared().keyed(JSON.valueToTree(s.manifest().frontmatter()));
    e.set("frontmatter", frontmatter);
    ArrayNode resources = e.putArray("resources");
    Path dir = s.location().directory();
    for (SkillFiles.Entry f : SkillFiles.entries(dir)) {
      String digest;
      long size;
      try {
        digest = SkillFiles.digest(f.path(), f.attributes());
        size = SkillFiles.servedSize(f.path(), f.attributes());
      } catch (IOException ex) {
        // Changed or replaced since it was listed: left out, like any file that is not served.
        LOG.debug("{} of skill {} is not listed", f.path(), s.name(), ex);
        continue;
      }
      resources
          .addObject()
          .put("uri", SkillFiles.uri(s.name(), dir, f.path()))
          .put("digest", digest)
          .put("size", size);
    }
    return e;
  }

  private ObjectNode directory(String uri, String cursor) throws McpException {
    Optional<SkillFiles.Ref> ref = SkillFiles.parse(uri);
    Catalog snapshot = catalog.current();
    Optional<Skill> skill =
        ref.flatMap(r -> snapshot.skill(r.skill()).filter(s -> s.name().equals(r.skill())))
            .filter(s -> SkillFiles.discoverable(snapshot).contains(s));
    if (ref.isEmpty() || skill.isEmpty()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, uri + " is not a directory resource");
    }
    Path dir = skill.get().location().directory();
    Path target =
        SkillFiles.resolve(dir, ref.get().path())
            .filter(Files::isDirectory)
            .orElseThrow(
                () ->
                    new McpException(
                        ErrorKind.INVALID_PARAMS, uri + " is not a directory resource"));
    List<Path> children;
    try {
      children = SkillFiles.children(dir, target);
    } catch (IOException e) {
      throw new McpException(ErrorKind.INTERNAL_ERROR, "could not list " + uri, null, e);
    }
    Paging.Page<Path> page = Paging.page(children, cursor, pageSize);
    ObjectNode result = complete();
    ArrayNode resources = result.putArray("resources");
    for (Path child : page.items()) {
      boolean isDir = Files.isDirectory(child);
      resources
          .addObject()
          .put("uri", SkillFiles.uri(skill.get().name(), dir, child))
          .put("name", child.getFileName().toString())
          .put("mimeType", isDir ? DIRECTORY : SkillFiles.mimeType(child));
    }
    if (page.nextCursor() != null) {
      result.put("nextCursor", page.nextCursor());
    }
    return result;
  }
}

package dev.skillport.server.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.resource.ResourceContents;
import dev.skillport.api.resource.ResourceDescriptor;
import dev.skillport.api.resource.ResourceEvents;
import dev.skillport.api.resource.ResourceProvider;
import dev.skillport.api.resource.ResourceTemplate;
import dev.skillport.bridge.BridgeContentException;
import dev.skillport.bridge.BridgeRuntime;
import dev.skillport.bridge.BridgedContent;
import dev.skillport.loader.files.RefusedFileException;
import dev.skillport.mcp.ChangeFeed;
import dev.skillport.mcp.Era;
import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.McpException;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.McpSession;
import dev.skillport.mcp.RequestContext;
import dev.skillport.mcp.SessionListener;
import dev.skillport.model.skill.ResourceSpec;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.registry.SessionView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code resources/*} methods. A session sees the declared resources of the skills it loaded,
 * every provider's resources, and a {@code skill://<skill>/<path>} resource for every file of every
 * discoverable skill. Reads of files never leave the skill folder; textual types are served as
 * {@code text}, others as a base64 {@code blob}. Subscriptions are per session: a file-backed
 * resource is checked after every catalog reload (hot reload watches the skill roots), a provider's
 * resource when the provider signals it.
 */
public final class ResourcesFeature {
  private static final Logger LOG = LoggerFactory.getLogger(ResourcesFeature.class);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String SUBSCRIPTIONS = ResourcesFeature.class.getName() + ".subscriptions";
  private static final String PROVIDED = "provided";
  private static final String ABSENT = "absent";
  private static final Duration POLL = Duration.ofMillis(500);

  private final CatalogHolder catalog;
  private final SessionViews views;
  private final List<ResourceProvider> providers;
  private final List<ExtensionResources> extensionProviders = new CopyOnWriteArrayList<>();
  private final int pageSize;
  private final Set<McpSession> sessions = ConcurrentHashMap.newKeySet();
  private final AtomicReference<SkillFileListing> fileListing = new AtomicReference<>();
  private final ScheduledThreadPoolExecutor poller;
  // Serves bridge skills' resources and templates (bridge:// URIs) to the sessions that loaded
  // them.
  private final BridgeRuntime bridges;
  private ScheduledFuture<?> polling;
  // What the stateless era's listen streams watch, as last seen; the feed is set once at start.
  private final Map<String, Subscription> watched = new ConcurrentHashMap<>();
  private volatile ChangeFeed feed;

  public ResourcesFeature(
      CatalogHolder catalog,
      SessionViews views,
      List<ResourceProvider> providers,
      int pageSize,
      BridgeRuntime bridges) {
    this.bridges = Objects.requireNonNull(bridges, "bridges");
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.views = Objects.requireNonNull(views, "views");
    this.providers = List.copyOf(providers);
    if (pageSize < 1) {
      throw new IllegalArgumentException("pageSize must be positive");
    }
    this.pageSize = pageSize;
    this.poller =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "resource-subscriptions");
              t.setDaemon(true);
              return t;
            });
    // The one thread ends while nothing is subscribed, so an idle server keeps no thread for it.
    poller.setKeepAliveTime(5, TimeUnit.SECONDS);
    poller.allowCoreThreadTimeOut(true);
    catalog.onSwap((before, after) -> recheckSubscriptions(after));
    ResourceEvents events = new ProviderEvents();
    for (ResourceProvider p : this.providers) {
      p.attach(events);
    }
  }

  /** Adds this surface's entries to the {@code capabilities} of {@code initialize}. */
  public void capabilities(ObjectNode capabilities) {
    capabilities.putObject("resources").put("subscribe", true).put("listChanged", true);
  }

  /** Registers this surface's method handlers. */
  public void register(McpServer.Builder builder) {
    builder
        .sessionListener(
            new SessionListener() {
              @Override
              public void sessionOpened(McpSession session) {
                sessions.add(session);
              }

              @Override
              public void sessionClosed(McpSession session) {
                sessions.remove(session);
              }
            })
        .handler("resources/list", (ctx, params) -> list(view(ctx), Paging.cursor(params), ctx))
        .handler(
            "resources/read", (ctx, params) -> readResult(views.reachable(ctx), uri(params), ctx))
        .handler(
            "resources/templates/list",
            (ctx, params) -> templates(view(ctx), Paging.cursor(params)))
        .handler("resources/subscribe", (ctx, params) -> subscribe(ctx, uri(params), true))
        .handler("resources/unsubscribe", (ctx, params) -> subscribe(ctx, uri(params), false))
        .onlyIn(Era.LEGACY, "resources/subscribe", "resources/unsubscribe");
  }

  /**
   * Also tells the stateless era's {@code subscriptions/listen} streams: resources they watch that
   * change (files are polled while watched), and resource lists that change.
   */
  public void attach(ChangeFeed feed) {
    this.feed = Objects.requireNonNull(feed, "feed");
    feed.onWatch(
        () -> {
          // The files are seen now, so a change right after the stream opened is noticed.
          recheckWatched(catalog.current());
          pollWhileSubscribed();
        });
  }

  private SessionView view(RequestContext ctx) throws McpException {
    return views.of(ctx);
  }

  private static String uri(JsonNode params) throws McpException {
    JsonNode uri = params.get("uri");
    if (uri == null || !uri.isTextual() || uri.asText().isEmpty()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "uri must be a non-empty string");
    }
    return uri.asText();
  }

  /** Resources served only to clients that declare an extension (an MCP App's {@code ui://}). */
  private record ExtensionResources(String extension, ResourceProvider provider) {}

  /**
   * Lists and serves {@code provider}'s resources only to clients whose capabilities declare {@code
   * extension}. Called before serving.
   */
  public void addExtensionProvider(String extension, ResourceProvider provider) {
    extensionProviders.add(
        new ExtensionResources(
            Objects.requireNonNull(extension, "extension"),
            Objects.requireNonNull(provider, "provider")));
  }

  private List<ResourceProvider> extensionProviders(RequestContext ctx) {
    List<ResourceProvider> out = new ArrayList<>();
    for (ExtensionResources e : extensionProviders) {
      if (ctx.clientSupportsExtension(e.extension())) {
        out.add(e.provider());
      }
    }
    return out;
  }

  /** Every resource a session sees, in order: declared ones, providers', then skill files. */
  List<ResourceDescriptor> all(SessionView view) {
    Catalog snapshot = catalog.current();
    Map<String, ResourceDescriptor> out = new LinkedHashMap<>();
    for (Skill skill : loaded(snapshot, view)) {
      for (ResourceSpec r : skill.resources()) {
        out.putIfAbsent(
            r.uri(), new ResourceDescriptor(r.uri(), r.name(), r.description(), r.mimeType()));
      }
    }
    BridgeRuntime runtime = bridges;
    if (runtime != null) {
      for (Skill skill : loaded(snapshot, view)) {
        for (JsonNode r : runtime.resources(skill.name())) {
          String uri = r.get("uri").asText();
          out.putIfAbsent(
              uri,
              new ResourceDescriptor(
                  uri,
                  r.path("name").asText(null),
                  r.path("description").asText(""),
                  r.path("mimeType").asText(null)));
        }
      }
    }
    for (ResourceProvider p : providers) {
      for (ResourceDescriptor d : safe(p::resources)) {
        out.putIfAbsent(d.uri(), d);
      }
    }
    for (ResourceDescriptor d : skillFiles(snapshot)) {
      out.putIfAbsent(d.uri(), d);
    }
    return List.copyOf(out.values());
  }

  private ObjectNode list(SessionView view, String cursor, RequestContext ctx) throws McpException {
    List<ResourceDescriptor> all = new ArrayList<>();
    for (ResourceProvider p : extensionProviders(ctx)) {
      all.addAll(safe(p::resources));
    }
    all.addAll(all(view));
    Paging.Page<ResourceDescriptor> page = Paging.page(all, cursor, pageSize);
    ObjectNode result = NODES.objectNode();
    ArrayNode items = result.putArray("resources");
    for (ResourceDescriptor d : page.items()) {
      describe(items.addObject().put("uri", d.uri()), d.name(), d.description(), d.mimeType());
    }
    if (page.nextCursor() != null) {
      result.put("nextCursor", page.nextCursor());
    }
    return result;
  }

  private ObjectNode templates(SessionView view, String cursor) throws McpException {
    List<ResourceTemplate> all = new ArrayList<>();
    for (ResourceProvider p : providers) {
      all.addAll(safe(p::templates));
    }
    BridgeRuntime runtime = bridges;
    if (runtime != null) {
      for (Skill skill : loaded(catalog.current(), view)) {
        for (JsonNode t : runtime.templates(skill.name())) {
          all.add(
              new ResourceTemplate(
                  t.get("uriTemplate").asText(),
                  t.path("name").asText(null),
                  t.path("description").asText(""),
                  t.path("mimeType").asText(null)));
        }
      }
    }
    Paging.Page<ResourceTemplate> page = Paging.page(all, cursor, pageSize);
    ObjectNode result = NODES.objectNode();
    ArrayNode items = result.putArray("resourceTemplates");
    for (ResourceTemplate t : page.items()) {
      describe(
          items.addObject().put("uriTemplate", t.uriTemplate()),
          t.name(),
          t.description(),
          t.mimeType());
    }
    if (page.nextCursor() != null) {
      result.put("nextCursor", page.nextCursor());
    }
    return result;
  }

  /** Adds the fields a resource and a template share; empty ones are left out. */
  private static void describe(ObjectNode o, String name, String description, String mimeType) {
    o.put("name", name);
    if (!description.isEmpty()) {
      o.put("description", description);
    }
    if (mimeType != null) {
      o.put("mimeType", mimeType);
    }
  }

  /**
   * Suggestions for a variable of a provider's template; empty when no provider lists the template.
   */
  public List<String> completeTemplate(String uriTemplate, String variable, String prefix) {
    for (ResourceProvider p : providers) {
      if (safe(p::templates).stream().anyMatch(t -> t.uriTemplate().equals(uriTemplate))) {
        try {
          return List.copyOf(p.complete(uriTemplate, variable, prefix));
        } catch (RuntimeException e) {
          LOG.warn("resource provider {} failed to complete", p.getClass().getName(), e);
          return List.of();
        }
      }
    }
    return List.of();
  }

  /** Whether any provider lists this template. */
  public boolean hasTemplate(String uriTemplate) {
    return providers.stream()
        .flatMap(p -> safe(p::templates).stream())
        .anyMatch(t -> t.uriTemplate().equals(uriTemplate));
  }

  private ObjectNode readResult(SessionView view, String uri, RequestContext ctx)
      throws McpException {
    Optional<JsonNode> bridged = bridged(view, uri);
    if (bridged.isPresent()) {
      ObjectNode result = NODES.objectNode();
      result.set("contents", bridged.get());
      return result;
    }
    for (ResourceProvider p : extensionProviders(ctx)) {
      Optional<ResourceContents> c = readFrom(p, uri);
      if (c.isPresent()) {
        ObjectNode result = NODES.objectNode();
        result.putArray("contents").add(wire(c.get()));
        return result;
      }
    }
    ResourceContents c =
        read(view, uri)
            .orElseThrow(
                () ->
                    !isUri(uri)
                        ? new McpException(ErrorKind.INVALID_PARAMS, "uri is not a valid URI")
                        : SkillFiles.parse(uri).isPresent()
                            ? new McpException(
                                ErrorKind.INVALID_PARAMS, "no skill file is served at " + uri)
                            : new McpException(
                                ErrorKind.RESOURCE_NOT_FOUND, "no resource is served at " + uri));
    ObjectNode result = NODES.objectNode();
    result.putArray("contents").add(wire(c));
    return result;
  }

  /** Whether {@code text} parses as a URI (RFC 3986; no NUL, no bare space, no stray %). */
  private static boolean isUri(String text) {
    try {
      new java.net.URI(text);
      return true;
    } catch (java.net.URISyntaxException e) {
      return false;
    }
  }

  /** The wire form of one {@code contents} item. */
  public static ObjectNode wire(ResourceContents c) {
    ObjectNode o = NODES.objectNode().put("uri", c.uri());
    if (c.mimeType() != null) {
      o.put("mimeType", c.mimeType());
    }
    if (c.isText()) {
      o.put("text", c.text());
    } else {
      o.put("blob", c.blob());
    }
    return o;
  }

  /**
   * Reads a URI as a session sees it: a declared resource of a loaded skill, a skill file, or a
   * provider's resource.
   *
   * @return empty when nothing is served at {@code uri}
   * @throws McpException when something is served there but cannot be read now
   */
  public Optional<ResourceContents> read(SessionView view, String uri) throws McpException {
    Optional<JsonNode> bridged = bridged(view, uri);
    if (bridged.isPresent()) {
      JsonNode first = bridged.get().path(0);
      String mime = first.path("mimeType").isTextual() ? first.get("mimeType").asText() : null;
      return Optional.of(
          first.has("blob")
              ? new ResourceContents(uri, mime, null, first.path("blob").asText(""))
              : ResourceContents.text(uri, mime, first.path("text").asText("")));
    }
    Optional<FileResource> file = file(catalog.current(), view, uri);
    if (file.isPresent()) {
      try {
        byte[] bytes = SkillFiles.read(file.get().path());
        return Optional.of(SkillFiles.contents(uri, file.get().mimeType(), bytes));
      } catch (RefusedFileException e) {
        throw new McpException(
            ErrorKind.INVALID_PARAMS, uri + " is not served: the file " + e.predicate());
      } catch (IOException e) {
        throw new McpException(ErrorKind.INTERNAL_ERROR, "could not read " + uri, null, e);
      }
    }
    for (ResourceProvider p : providers) {
      Optional<ResourceContents> c = readFrom(p, uri);
      if (c.isPresent()) {
        return c;
      }
    }
    return Optional.empty();
  }

  /**
   * The {@code contents} of a {@code bridge://} resource of a skill the view has loaded, read from
   * its bridged server; empty for any other URI.
   */
  private Optional<JsonNode> bridged(SessionView view, String uri) throws McpException {
    BridgeRuntime runtime = bridges;
    if (runtime == null || BridgedContent.parse(uri).isEmpty()) {
      return Optional.empty();
    }
    try {
      return runtime.read(uri, view::isLoaded);
    } catch (BridgeContentException e) {
      throw new McpException(
          e.callersFault() ? ErrorKind.INVALID_PARAMS : ErrorKind.INTERNAL_ERROR, e.getMessage());
    }
  }

  private static Optional<ResourceContents> readFrom(ResourceProvider p, String uri)
      throws McpException {
    try {
      Optional<ResourceContents> c = p.read(uri);
      return c == null ? Optional.empty() : c;
    } catch (IOException | RuntimeException e) {
      LOG.warn("resource provider {} failed to read {}", p.getClass().getName(), uri, e);
      throw new McpException(ErrorKind.INTERNAL_ERROR, "could not read " + uri, null, e);
    }
  }

  /** A resource backed by a file of a skill folder. */
  private record FileResource(Path path, String mimeType) {}

  private static Optional<FileResource> file(Catalog snapshot, SessionView view, String uri) {
    for (Skill skill : loaded(snapshot, view)) {
      for (ResourceSpec r : skill.resources()) {
        if (r.uri().equals(uri)) {
          Path dir = skill.location().directory();
          if (SkillFiles.isInside(dir, r.path())) {
            String mime = r.mimeType() == null ? SkillFiles.mimeType(r.path()) : r.mimeType();
            return Optional.of(new FileResource(r.path(), mime));
          }
          return Optional.empty();
        }
      }
    }
    return SkillFiles.parse(uri)
        .flatMap(
            ref ->
                discoverable(snapshot, ref.skill())
                    .flatMap(s -> SkillFiles.resolve(s.location().directory(), ref.path())))
        .filter(p -> !Files.isDirectory(p))
        .map(p -> new FileResource(p, SkillFiles.mimeType(p)));
  }

  private static Optional<Skill> discoverable(Catalog snapshot, String name) {
    return snapshot.skill(name).filter(s -> s.name().equals(name) && SkillFiles.isServed(s));
  }

  private static List<Skill> loaded(Catalog snapshot, SessionView view) {
    List<Skill> out = new ArrayList<>();
    for (String name : view.loadedSkills()) {
      snapshot.skill(name).filter(s -> s.state() == SkillState.AVAILABLE).ifPresent(out::add);
    }
    return out;
  }

  /** The skill-file resources of a catalog snapshot, computed once per snapshot. */
  private record SkillFileListing(Catalog catalog, List<ResourceDescriptor> resources) {}

  private List<ResourceDescriptor> skillFiles(Catalog snapshot) {
    SkillFileListing cached = fileListing.get();
    if (cached != null && cached.catalog() == snapshot) {
      return cached.resources();
    }
    List<ResourceDescriptor> out = new ArrayList<>();
    for (Skill skill : SkillFiles.discoverable(snapshot)) {
      Path dir = skill.location().directory();
      for (Path f : SkillFiles.files(dir)) {
        String rel = SkillFiles.relative(dir, f);
        boolean main = f.equals(skill.location().skillFile());
        out.add(
            new ResourceDescriptor(
                SkillFiles.uri(skill.name(), rel),
                main ? skill.name() : skill.name() + "/" + rel,
                main ? skill.manifest().description() : null,
                SkillFiles.mimeType(f)));
      }
    }
    List<ResourceDescriptor> result = List.copyOf(out);
    fileListing.set(new SkillFileListing(snapshot, result));
    return result;
  }

  private ObjectNode subscribe(RequestContext ctx, String uri, boolean on) throws McpException {
    SessionView view = view(ctx);
    McpSession session =
        ctx.session()
            .orElseThrow(
                () ->
                    new McpException(
                        ErrorKind.METHOD_NOT_FOUND, "resources/subscribe needs a session"));
    Subscriptions subs =
        (Subscriptions)
            session.attributes().computeIfAbsent(SUBSCRIPTIONS, k -> new Subscriptions());
    if (on) {
      subs.byUri.put(uri, observe(catalog.current(), view, uri, null));
      pollWhileSubscribed();
    } else {
      subs.byUri.remove(uri);
    }
    return NODES.objectNode();
  }

  /** A session's subscribed URIs. */
  private static final class Subscriptions {
    final Map<String, Subscription> byUri = new ConcurrentHashMap<>();
  }

  /**
   * One subscribed URI: the subscriber's view and what the resource looked like when last seen.
   *
   * @param fingerprint the digest of a file-backed resource, {@link #ABSENT} or {@link #PROVIDED}
   * @param stamp size and modification time of the file, to skip hashing an unchanged file
   */
  private record Subscription(SessionView view, String fingerprint, String stamp) {}

  private static Subscription observe(
      Catalog snapshot, SessionView view, String uri, Subscription previous) {
    Optional<FileResource> file = file(snapshot, view, uri);
    if (file.isEmpty()) {
      return new Subscription(view, SkillFiles.parse(uri).isPresent() ? ABSENT : PROVIDED, "");
    }
    Path path = file.get().path();
    try {
      String stamp = Files.size(path) + ":" + Files.getLastModifiedTime(path).toMillis();
      if (previous != null && stamp.equals(previous.stamp())) {
        return previous;
      }
      return new Subscription(view, SkillFiles.digest(path), stamp);
    } catch (IOException e) {
      return new Subscription(view, ABSENT, "");
    }
  }

  private static Map<String, Subscription> subscriptions(McpSession session) {
    return session.attribute(SUBSCRIPTIONS, Subscriptions.class).map(s -> s.byUri).orElse(Map.of());
  }

  /**
   * Compares every file-backed subscription with its file and tells the subscriber about a change.
   *
   * @return whether any file-backed subscription remains
   */
  private boolean recheckSubscriptions(Catalog snapshot) {
    boolean any = recheckWatched(snapshot);
    for (McpSession session : sessions) {
      Map<String, Subscription> live = subscriptions(session);
      for (Map.Entry<String, Subscription> e : live.entrySet()) {
        Subscription sub = e.getValue();
        if (sub.fingerprint().equals(PROVIDED)) {
          continue;
        }
        any = true;
        Subscription now = observe(snapshot, sub.view(), e.getKey(), sub);
        if (now != sub
            && live.replace(e.getKey(), sub, now)
            && !now.fingerprint().equals(sub.fingerprint())) {
          session.notify(
              "notifications/resources/updated", NODES.objectNode().put("uri", e.getKey()));
        }
      }
    }
    return any;
  }

  /**
   * Compares the files the stateless era's listen streams watch with what they were, and publishes
   * the changed ones to the feed; forgets what no stream watches any more.
   *
   * @return whether any watched file remains
   */
  private boolean recheckWatched(Catalog snapshot) {
    ChangeFeed current = feed;
    if (current == null) {
      return false;
    }
    Set<String> uris = current.watchedResources();
    watched.keySet().retainAll(uris);
    if (uris.isEmpty()) {
      // Nothing watched: the stateless view (every loaded tool's state) is not worked out for it.
      return false;
    }
    boolean any = false;
    SessionView view = views.stateless();
    for (String uri : uris) {
      Subscription before = watched.get(uri);
      Subscription now = observe(snapshot, view, uri, before);
      if (now.fingerprint().equals(PROVIDED)) {
        continue;
      }
      any = true;
      watched.put(uri, now);
      if (before != null && !now.fingerprint().equals(before.fingerprint())) {
        current.resourceUpdated(uri);
      }
    }
    return any;
  }

  /**
   * Polls subscribed files while any are subscribed: a catalog reload happens only when what a
   * skill declares changes, not when a resource file's content does.
   */
  private synchronized void pollWhileSubscribed() {
    if (polling == null || polling.isDone()) {
      polling =
          poller.scheduleWithFixedDelay(
              this::poll, POLL.toMillis(), POLL.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private void poll() {
    try {
      if (!recheckSubscriptions(catalog.current())) {
        synchronized (this) {
          if (polling != null) {
            polling.cancel(false);
            polling = null;
          }
        }
      }
    } catch (RuntimeException e) {
      LOG.warn("checking subscribed resources failed", e);
    }
  }

  private interface Listing<T> {
    List<T> get();
  }

  private static <T> List<T> safe(Listing<T> listing) {
    try {
      List<T> out = listing.get();
      return out == null ? List.of() : out;
    } catch (RuntimeException e) {
      LOG.warn("a resource provider failed to list", e);
      return List.of();
    }
  }

  private final class ProviderEvents implements ResourceEvents {
    @Override
    public void updated(String uri) {
      ChangeFeed current = feed;
      if (current != null) {
        current.resourceUpdated(uri);
      }
      for (McpSession session : sessions) {
        if (subscriptions(session).containsKey(uri)) {
          session.notify("notifications/resources/updated", NODES.objectNode().put("uri", uri));
        }
      }
    }

    @Override
    public void listChanged() {
      ChangeFeed current = feed;
      if (current != null) {
        current.resourcesListChanged();
      }
      for (McpSession session : sessions) {
        session.notify("notifications/resources/list_changed", NODES.objectNode());
      }
    }
  }
}

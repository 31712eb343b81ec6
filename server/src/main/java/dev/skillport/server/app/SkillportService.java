package dev.skillport.server.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.api.tool.ToolWork;
import dev.skillport.bridge.BridgeRuntime;
import dev.skillport.loader.files.RegularFiles;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.plugins.HostAdapters;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.registry.InvalidCursorException;
import dev.skillport.registry.ListedTool;
import dev.skillport.registry.SessionView;
import dev.skillport.runtime.BridgedTools;
import dev.skillport.runtime.CallGuard;
import dev.skillport.runtime.CallMeta;
import dev.skillport.runtime.CallOutcome;
import dev.skillport.runtime.CallRouter;
import dev.skillport.runtime.CallStats;
import dev.skillport.runtime.CapabilityRequiredException;
import dev.skillport.runtime.CurrentBindings;
import dev.skillport.runtime.DynamicCode;
import dev.skillport.runtime.DynamicTools;
import dev.skillport.runtime.HandlerRegistry;
import dev.skillport.runtime.ScriptToolRunner;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.StateSigner;
import dev.skillport.runtime.ToolCalls;
import dev.skillport.runtime.ToolRunner;
import dev.skillport.runtime.UnknownToolException;
import dev.skillport.runtime.core.CoreTools;
import dev.skillport.runtime.core.StatelessTools;
import dev.skillport.runtime.jobs.JobRecord;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.MemoryJobStore;
import dev.skillport.runtime.secrets.Redactor;
import dev.skillport.server.listing.ToolListing;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The application behind the MCP wire, independent of transports: sessions, {@code tools/list} and
 * {@code tools/call} (core tools, Java handlers, scripts).
 *
 * <p>Stateless (2026-07-28) requests share one {@link SessionState} per catalog generation ({@link
 * #statelessState()}): every skill the server may run is reachable, the {@link ListingPolicy}
 * decides what is listed, and a call goes through the same resolution, validation, guards, jobs,
 * audit and next-tools as a session's.
 */
public final class SkillportService {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Job workers of a service given no scheduler. */
  public static final int DEFAULT_JOB_WORKERS = 4;

  private static final int RECENT_CALLS = 256;

  /** Tools a stateless catalog may have for {@link ListingPolicy#AUTO} to list them all. */
  public static final int DEFAULT_AUTO_THRESHOLD = 64;

  /**
   * Entries per list page unless configured. Clients fetch every page, so each page costs them a
   * round trip and the server a request's fixed work; the measurements behind the number are in
   * {@code benchmarks/README.md}.
   */
  public static final int DEFAULT_PAGE_SIZE = 1000;

  private final CatalogHolder catalog;
  private final CurrentBindings bindings;
  private final ScriptToolRunner scripts;
  private final JobScheduler jobs;
  private final ToolCalls toolCalls;
  private final List<String> preload;
  // Null when no session tools were given.
  private final SessionTools sessionTools;
  private final Listings listings;
  private final OpenSessions sessions;
  // Null when bridge skills do not run.
  private final BridgeRuntime bridges;
  private final HostAdapters hosts;
  private final List<Runnable> catalogListeners = new CopyOnWriteArrayList<>();
  private final CallRouter router;
  private final DynamicTools dynamicTools;
  private final StateSigner signer;
  private final ListingPolicy listingPolicy;
  private final int autoListingThreshold;
  private final Redactor redactor;
  // The current generation's stateless state; replaced when a request sees a newer catalog.
  private volatile Stateless stateless;

  /** A service with in-memory jobs, no guard, no bridges and no session tools. */
  public SkillportService(
      CatalogHolder catalog,
      HandlerRegistry handlers,
      ScriptToolRunner scripts,
      List<String> preload,
      int pageSize) {
    this(builder(catalog, handlers).scripts(scripts).preload(preload).pageSize(pageSize));
  }

  /** A service whose skills are also checked against, and run through, host adapters. */
  public SkillportService(
      CatalogHolder catalog,
      HandlerRegistry handlers,
      ScriptToolRunner scripts,
      List<String> preload,
      int pageSize,
      HostAdapters hosts) {
    this(
        builder(catalog, handlers)
            .scripts(scripts)
            .preload(preload)
            .pageSize(pageSize)
            .hosts(hosts));
  }

  private SkillportService(Builder b) {
    this.hosts = b.hosts;
    this.catalog = b.catalog;
    this.bindings = new CurrentBindings(b.handlers);
    this.scripts = Objects.requireNonNull(b.scripts, "scripts");
    this.jobs =
        b.jobs != null ? b.jobs : new JobScheduler(new MemoryJobStore(), DEFAULT_JOB_WORKERS);
    this.bridges = b.bridges;
    // The local, not the field: a lambda reading a field would carry the service out of its
    // constructor.
    BridgeRuntime bridgeRuntime = b.bridges;
    BridgedTools bridged =
        bridgeRuntime != null
            ? (skill, tool, args, ctx) -> bridgeRuntime.call(skill, tool, args, ctx).toResult()
            : (skill, tool, args, ctx) ->
                ToolResult.failure(
                    ToolFailureCode.BRIDGE_UNAVAILABLE, "this server runs no MCP bridges", null);
    this.toolCalls =
        new ToolCalls(
            new ToolRunner(scripts, hosts, bridged),
            b.guard,
            jobs,
            // Kept in memory whether or not the guard writes an audit file.
            new CallStats(RECENT_CALLS),
            TaskView.EXTENSION);
    this.listingPolicy = b.listingPolicy;
    this.redactor = b.redactor != null ? b.redactor : new Redactor();
    this.autoListingThreshold = b.autoListingThreshold;
    this.signer = b.signer != null ? b.signer : StateSigner.random();
    this.preload = b.preload;
    this.sessionTools = b.sessionTools == null ? null : b.sessionTools.create(catalog, jobs);
    this.listings = new Listings(sessionTools, b.pageSize);
    this.sessions = new OpenSessions(catalog, bridges);
    this.dynamicTools =
        new DynamicTools(scripts.policy().dynamicCode() ? new DynamicCode(scripts) : null);
    CoreTools coreTools =
        new CoreTools(
            catalog,
            bindings,
            listings,
            sessions,
            jobs,
            hosts,
            RegularFiles::readAll,
            redactor,
            CallResultJson::render,
            dynamicTools);
    StatelessTools statelessTools = new StatelessTools(catalog, signer, sessions, listings, hosts);
    this.router =
        new CallRouter(
            catalog,
            listings,
            bindings,
            toolCalls,
            new PlatformCalls(coreTools, statelessTools, sessionTools),
            statelessTools::activates,
            hosts::refusal,
            dynamicTools);
    // On a store a fleet shares, queued calls wait there and any instance serving the same skill
    // runs them (decision 0054).
    jobs.runStoredCalls(router.storedCalls());
    // Locals, so the listener does not carry this service out of its constructor.
    OpenSessions open = sessions;
    List<Runnable> listeners = catalogListeners;
    catalog.onSwap(
        (before, after) -> {
          open.catalogChanged();
          listeners.forEach(Runnable::run);
        });
  }

  /** A builder of a service over {@code catalog} whose Java tools run through {@code handlers}. */
  public static Builder builder(CatalogHolder catalog, HandlerRegistry handlers) {
    return new Builder(catalog, handlers);
  }

  /**
   * Everything a service is made with; the service is complete when built. Only the catalog, the
   * handlers and the script runner are required.
   */
  public static final class Builder {
    private final CatalogHolder catalog;
    private final HandlerRegistry handlers;
    private ScriptToolRunner scripts;
    private JobScheduler jobs;
    private CallGuard guard = CallGuard.NONE;
    private List<String> preload = List.of();
    private int pageSize = DEFAULT_PAGE_SIZE;
    private HostAdapters hosts = HostAdapters.none();
    private BridgeRuntime bridges;
    private ListingPolicy listingPolicy = ListingPolicy.AUTO;
    private int autoListingThreshold = DEFAULT_AUTO_THRESHOLD;
    private StateSigner signer;
    private SessionTools.Factory sessionTools;
    private Redactor redactor;

    private Builder(CatalogHolder catalog, HandlerRegistry handlers) {
      this.catalog = Objects.requireNonNull(catalog, "catalog");
      this.handlers = Objects.requireNonNull(handlers, "handlers");
    }

    /** How script tools run (required). */
    public Builder scripts(ScriptToolRunner value) {
      this.scripts = Objects.requireNonNull(value, "scripts");
      return this;
    }

    /** Where async calls become jobs; without one, four workers over an in-memory store. */
    public Builder jobs(JobScheduler value) {
      this.jobs = Objects.requireNonNull(value, "jobs");
      return this;
    }

    /** The guardrails every call passes; none by default. */
    public Builder guard(CallGuard value) {
      this.guard = Objects.requireNonNull(value, "guard");
      return this;
    }

    /** The skills every new session starts with. */
    public Builder preload(List<String> value) {
      this.preload = List.copyOf(value);
      return this;
    }

    /** Entries per {@code tools/list} page. */
    public Builder pageSize(int value) {
      this.pageSize = value;
      return this;
    }

    /** The host adapters skills are checked against and run through. */
    public Builder hosts(HostAdapters value) {
      this.hosts = Objects.requireNonNull(value, "hosts");
      return this;
    }

    /** The runtime of bridge skills (their servers, trust and tools); without one, none runs. */
    public Builder bridges(BridgeRuntime value) {
      this.bridges = Objects.requireNonNull(value, "bridges");
      return this;
    }

    /**
     * What stateless clients list, and the key that signs the state handed to them; by default
     * {@link ListingPolicy#AUTO} at {@value #DEFAULT_AUTO_THRESHOLD} tools and a random key.
     *
     * @param policy the listing policy
     * @param autoThreshold the most tools {@link ListingPolicy#AUTO} lists in full
     * @param stateSigner signs group handles and multi round-trip state
     */
    public Builder stateless(ListingPolicy policy, int autoThreshold, StateSigner stateSigner) {
      this.listingPolicy = Objects.requireNonNull(policy, "policy");
      this.autoListingThreshold = autoThreshold;
      this.signer = Objects.requireNonNull(stateSigner, "stateSigner");
      return this;
    }

    /**
     * Tools sessions list after the core tools while {@link SessionTools#listedIn} holds, made by
     * {@code factory} from the service's catalog and job scheduler. The service hands each of their
     * calls the way to call other tools.
     */
    public Builder sessionTools(SessionTools.Factory factory) {
      this.sessionTools = Objects.requireNonNull(factory, "factory");
      return this;
    }

    /**
     * The redactor that masks secrets in what the service answers (tool listings, skill info); by
     * default one that knows only the documented secret names.
     */
    public Builder redactor(Redactor value) {
      this.redactor = Objects.requireNonNull(value, "redactor");
      return this;
    }

    public SkillportService build() {
      return new SkillportService(this);
    }
  }

  /** The redactor that masks secrets in everything this service and its server write out. */
  public Redactor redactor() {
    return redactor;
  }

  /** The key that signs state handed to stateless clients. */
  public StateSigner signer() {
    return signer;
  }

  /** Runs {@code listener} after every catalog reload (skills on disk changed). */
  public void onCatalogChanged(Runnable listener) {
    catalogListeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /**
   * The stateless era's shared state for the current catalog: every available skill the host
   * adapters admit is reachable; the listing policy decides which are listed.
   */
  public SessionState statelessState() {
    Catalog snapshot = catalog();
    Stateless current = stateless;
    if (current == null || current.generation() != snapshot.generation()) {
      synchronized (this) {
        current = stateless;
        if (current == null || current.generation() != snapshot.generation()) {
          current = Stateless.build(snapshot, preload, listingPolicy, autoListingThreshold, hosts);
          stateless = current;
        }
      }
    }
    return current.state();
  }

  /** The listing policy the current catalog is served with ({@code auto} resolved). */
  public ListingPolicy effectiveListingPolicy() {
    statelessState();
    return stateless.effective();
  }

  /** The recent calls and per-tool metrics of this service since it started. */
  public CallStats calls() {
    return toolCalls.stats();
  }

  /** Tells {@code observer} of every job state change from now on. */
  public void addJobObserver(Consumer<JobRecord> observer) {
    jobs.addObserver(Objects.requireNonNull(observer, "observer"));
  }

  /** Script tools running now. */
  public int runningScripts() {
    return scripts.runningScripts();
  }

  /** The scheduler that runs this service's jobs. */
  public JobScheduler jobs() {
    return jobs;
  }

  public Catalog catalog() {
    return catalog.current();
  }

  /** The catalog's diagnostics, with those of binding its tools to handlers. */
  public List<Diagnostic> skillDiagnostics() {
    Catalog snapshot = catalog();
    List<Diagnostic> all = new ArrayList<>(snapshot.diagnostics());
    all.addAll(bindings.of(snapshot).diagnostics());
    return List.copyOf(all);
  }

  /** The tools sessions list after the core tools while they apply, or null when none. */
  public SessionTools sessionTools() {
    return sessionTools;
  }

  /** The runtime of bridge skills, or null when none was set. */
  public BridgeRuntime bridges() {
    return bridges;
  }

  /**
   * Tells every session that has {@code skill} loaded that its prompts and resources changed (its
   * bridged server's lists did).
   */
  public void announceContent(String skill) {
    sessions.contentChanged(skill);
  }

  /** The started host adapters (none for a plain server). */
  public HostAdapters hosts() {
    return hosts;
  }

  /** Opens a session that starts with the preload set; {@code notifier} receives method names. */
  public SessionState openSession(Consumer<String> notifier) {
    SessionState state = new SessionState(SessionView.preloaded(catalog(), preload), notifier);
    sessions.add(state);
    return state;
  }

  public void closeSession(SessionState session) {
    sessions.remove(session);
    listings.forget(session.view());
    dynamicTools.sessionClosed(session);
  }

  public int openSessions() {
    return sessions.count();
  }

  /** The {@code tools/list} result for a session: {@code {tools, nextCursor?}}. */
  public ObjectNode listTools(SessionState session, String cursor) throws InvalidCursorException {
    ToolListing.Page page = listedPage(session, cursor).page();
    ObjectNode result = NODES.objectNode();
    ArrayNode tools = result.putArray("tools");
    for (ListedTool t : page.tools()) {
      tools.add(t.wire());
    }
    if (page.nextCursor() != null) {
      result.put("nextCursor", page.nextCursor());
    }
    return result;
  }

  /**
   * Like {@link #listTools}, as the wire carries it: the tools written from JSON text rendered once
   * per catalog generation ({@link ToolListing#result}), after {@code leading} entries.
   */
  public ObjectNode listToolsForWire(SessionState session, String cursor, List<ObjectNode> leading)
      throws InvalidCursorException {
    ListedPage listed = listedPage(session, cursor);
    return listed.listing().result(listed.page(), leading, redactor);
  }

  private record ListedPage(ToolListing listing, ToolListing.Page page) {}

  private ListedPage listedPage(SessionState session, String cursor) throws InvalidCursorException {
    if (cursor == null) {
      // Bridged servers start on first need: a listing that would show their tools.
      sessions.prepareListed(session.isStateless() ? session.listedView() : session.view());
    }
    Catalog snapshot = catalog();
    if (session.isStateless()) {
      ToolListing listing = listings.statelessListing(snapshot, session);
      return new ListedPage(listing, listing.page(snapshot, session.listedView(), cursor));
    }
    ToolListing listing = listings.of(snapshot, session.view());
    return new ListedPage(listing, listing.page(snapshot, session.view(), cursor));
  }

  /**
   * Calls a tool and returns the {@code CallToolResult}. Tool failures are results with {@code
   * isError: true}; only an unknown name is an exception (a protocol error).
   */
  public ObjectNode callTool(SessionState session, String name, JsonNode arguments, ToolContext ctx)
      throws UnknownToolException, CapabilityRequiredException {
    return callTool(session, name, arguments, ctx, CallMeta.NONE);
  }

  /**
   * Like {@link #callTool(SessionState, String, JsonNode, ToolContext)}; a call that {@code meta}
   * marks async, or to a tool declaring {@code execution: async}, becomes a job and returns {@code
   * "Job <id> queued"} at once.
   */
  public ObjectNode callTool(
      SessionState session, String name, JsonNode arguments, ToolContext ctx, CallMeta meta)
      throws UnknownToolException, CapabilityRequiredException {
    return render(call(session, name, arguments, ctx, meta), meta);
  }

  /**
   * Like {@link #callTool(SessionState, String, JsonNode, ToolContext, CallMeta)}, answering what
   * the call came to rather than its {@code CallToolResult}: for callers inside the server
   * (workflow steps) that wait for a job themselves. The call is audited the same way.
   */
  public CallOutcome call(
      SessionState session, String name, JsonNode arguments, ToolContext ctx, CallMeta meta)
      throws UnknownToolException, CapabilityRequiredException {
    return router.call(session, name, arguments, ctx, meta);
  }

  /** The {@code CallToolResult} a client is sent for {@code outcome}. */
  public static ObjectNode render(CallOutcome outcome, CallMeta meta) {
    return outcome.accept(
        new CallOutcome.Visitor<ObjectNode>() {
          @Override
          public ObjectNode completed(CallOutcome.Completed completed) {
            return CallResultJson.render(completed.result(), completed.next());
          }

          @Override
          public ObjectNode queued(CallOutcome.Queued queued) {
            return handle(queued.job(), meta);
          }

          @Override
          public ObjectNode refused(CallOutcome.Refused refused) {
            return CallResultJson.render(refused.result(), refused.next());
          }

          @Override
          public ObjectNode delegated(CallOutcome.Delegated delegated) {
            ObjectNode out = delegated.outcome().accept(this);
            ObjectNode called = NODES.objectNode().put("name", delegated.name());
            if (delegated.tool() != null) {
              called.put("skill", delegated.skill());
              called.put("tool", delegated.tool().name());
              called.set(
                  "annotations", ToolListing.annotationsWire(delegated.tool().annotations()));
            }
            ObjectNode resultMeta =
                out.get("_meta") instanceof ObjectNode m ? m : out.putObject("_meta");
            resultMeta.set("dcc.called_tool", called);
            return out;
          }
        });
  }

  /**
   * The input schema of the tool a name calls for {@code session}, if it names a skill's tool (used
   * to check the HTTP headers that mirror its arguments).
   */
  public java.util.Optional<JsonNode> inputSchemaOf(SessionState session, String name) {
    return router.declared(session, name).map(ToolSpec::inputSchema);
  }

  /**
   * Starts the rest of a call as a job ({@link ToolContext#continueAsJob}); the caller answers with
   * {@link #jobHandle}. The job is audited like a queued call.
   */
  public JobRecord continueAsJob(String toolName, ToolWork rest, CallMeta meta) {
    return toolCalls.continueAsJob(toolName, rest, meta);
  }

  /** What a call answers once it became {@code job}; see {@link #handle}. */
  public static ObjectNode jobHandle(JobRecord job, CallMeta meta) {
    return handle(job, meta);
  }

  /**
   * What a call answers when it became a job: a task for a client that declared the Tasks
   * extension, else the job id to poll with {@code jobs_get_status}.
   */
  private static ObjectNode handle(JobRecord job, CallMeta meta) {
    if (meta.tasks()) {
      return TaskView.created(job);
    }
    ObjectNode out = NODES.objectNode();
    out.putArray("content")
        .addObject()
        .put("type", "text")
        .put("text", "Job " + job.id() + " queued");
    out.putObject("structuredContent").put("job_id", job.id()).put("status", job.status().wire());
    out.put("isError", false);
    return out;
  }

  /** The stateless era's state for one catalog generation, and the policy it was built under. */
  private record Stateless(long generation, ListingPolicy effective, SessionState state) {
    static Stateless build(
        Catalog catalog,
        List<String> preload,
        ListingPolicy policy,
        int autoThreshold,
        HostAdapters hosts) {
      List<String> available = new ArrayList<>();
      for (Skill skill : catalog.skills()) {
        if (skill.state() == dev.skillport.model.skill.SkillState.AVAILABLE
            && catalog.skill(skill.name()).orElse(null) == skill) {
          available.add(skill.name());
        }
      }
      java.util.Collections.sort(available);
      SessionView reachable = new SessionView();
      reachable.load(catalog, available, true, hosts::refusal);
      SessionView preloaded = new SessionView();
      if (!preload.isEmpty()) {
        preloaded.load(catalog, preload, true, hosts::refusal);
      }
      SessionView everything = new SessionView();
      List<String> listedAll = new ArrayList<>(preloaded.loadedSkills());
      for (String name : reachable.loadedSkills()) {
        Skill skill = catalog.skill(name).orElseThrow();
        if (skill.manifest().extensions().discovery().allowImplicitInvocation()
            && !listedAll.contains(name)) {
          listedAll.add(name);
        }
      }
      everything.load(catalog, listedAll, true, hosts::refusal);
      ListingPolicy effective = policy;
      if (policy == ListingPolicy.AUTO) {
        effective =
            listedTools(catalog, everything) <= autoThreshold
                ? ListingPolicy.ALL
                : ListingPolicy.CATALOG;
      }
      SessionView listed = effective == ListingPolicy.ALL ? everything : preloaded;
      return new Stateless(
          catalog.generation(), effective, SessionState.stateless(reachable, listed));
    }

    private static int listedTools(Catalog catalog, SessionView view) {
      int count = 0;
      for (String name : view.loadedSkills()) {
        Skill skill = catalog.skill(name).orElseThrow();
        java.util.Set<String> active = view.activeGroups(name);
        for (ToolSpec tool : skill.tools()) {
          if (tool.group() == null || active.contains(tool.group())) {
            count++;
          }
        }
      }
      return count;
    }
  }
}

package dev.skillport.registry;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.skillport.model.skill.GroupSpec;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolBinding;
import dev.skillport.model.skill.ToolSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The names a view lists its entries under, and what a called name stands for: core tools, the
 * view's loaded tools, one stub per inactive group of a loaded skill and one per discoverable skill
 * not loaded. A tool is listed under its own name while that is unique among the loaded tools, else
 * as {@code <skill>__<tool>}; a name that cannot fit MCP's name pattern is left out and reported.
 *
 * <p>The names of a view are worked out once per catalog generation and view version and kept while
 * the view lives. Rendering the entries (their wire objects) is the MCP surface's concern, so a
 * name resolves without any being rendered.
 */
public final class ToolNames {
  /** What a group stub's name starts with. */
  public static final String GROUP_STUB_PREFIX = "__group__";

  /** What a skill stub's name starts with. */
  public static final String SKILL_STUB_PREFIX = "__skill__";

  /** Between a skill's name and its tool's in a qualified name. */
  public static final String QUALIFIER = "__";

  private final List<CoreTool> core;
  // A loaded tool named like a core tool is listed by its qualified name.
  private final Set<String> coreNames;
  private final boolean stubs;
  private final Cache<SessionView, Named> cache =
      Caffeine.newBuilder().weakKeys().maximumSize(100_000).build();
  private volatile Last last;
  private volatile SkillStubs skillStubs = new SkillStubs(Long.MIN_VALUE, List.of(), List.of());

  /**
   * @param core listed first, in this order
   * @param stubs whether group and skill stubs are listed (a session's listing) or not (a stateless
   *     one)
   */
  public ToolNames(List<CoreTool> core, boolean stubs) {
    this.core = List.copyOf(core);
    this.coreNames = this.core.stream().map(CoreTool::name).collect(Collectors.toUnmodifiableSet());
    this.stubs = stubs;
  }

  /** The entries {@code view} lists, in listing order. */
  public Named named(Catalog catalog, SessionView view) {
    long version = view.version();
    // The view asked last is answered without the cache: a stdio server has one view, and an
    // HTTP session's calls come in runs.
    Last last = this.last;
    if (last != null && last.view == view && last.named.current(catalog, version)) {
      return last.named;
    }
    Named named = cache.getIfPresent(view);
    if (named == null || !named.current(catalog, version)) {
      named = build(catalog, view, version);
      cache.put(view, named);
    }
    this.last = new Last(view, named);
    return named;
  }

  /** Forgets what is kept for {@code view} (it is also forgotten once the view is unreachable). */
  public void forget(SessionView view) {
    Last last = this.last;
    if (last != null && last.view == view) {
      this.last = null;
    }
    cache.invalidate(view);
  }

  /** The view {@link #named} answered last and what it answered. */
  private record Last(SessionView view, Named named) {}

  /**
   * Resolves a called name: the exact listed name, then {@code <skill>__<tool>} (hyphen or
   * underscore skill form), then a bare name among the view's loaded tools.
   */
  public ToolResolution resolve(Catalog catalog, SessionView view, String name) {
    Objects.requireNonNull(name, "name");
    Name listed = named(catalog, view).byName(name);
    if (listed != null) {
      return switch (listed.kind()) {
        case CORE -> new ToolResolution.Core(listed.core());
        case TOOL ->
            new ToolResolution.Tool(catalog.skill(listed.skill()).orElseThrow(), listed.spec());
        case GROUP_STUB ->
            new ToolResolution.GroupNotActive(
                catalog.skill(listed.skill()).orElseThrow(), listed.group(), null);
        case SKILL_STUB ->
            new ToolResolution.SkillNotLoaded(catalog.skill(listed.skill()).orElseThrow());
      };
    }
    ToolResolution qualified = qualified(catalog, view, name);
    if (qualified != null) {
      return qualified;
    }
    ToolResolution found = null;
    for (String skillName : view.loadedSkills()) {
      Skill skill = catalog.skill(skillName).orElse(null);
      if (skill == null || skill.state() != SkillState.AVAILABLE) {
        continue;
      }
      ToolSpec tool = skill.tool(name).orElse(null);
      if (tool != null) {
        if (found != null) {
          return new ToolResolution.NotFound(name);
        }
        found = active(view, skill, tool);
      }
    }
    return found != null ? found : new ToolResolution.NotFound(name);
  }

  /**
   * Resolves a qualified name ({@code <skill>__<tool>}) against {@code view} without naming its
   * entries, for views too large to list (every skill of a catalog); core tools and bare names are
   * not resolved here.
   */
  public static ToolResolution resolveQualified(Catalog catalog, SessionView view, String name) {
    Objects.requireNonNull(name, "name");
    ToolResolution qualified = qualified(catalog, view, name);
    return qualified != null ? qualified : new ToolResolution.NotFound(name);
  }

  /** {@code name} as {@code <skill>__<tool>} of a skill that has the tool, else null. */
  private static ToolResolution qualified(Catalog catalog, SessionView view, String name) {
    int sep = name.indexOf(QUALIFIER);
    if (sep <= 0 || sep + QUALIFIER.length() >= name.length()) {
      return null;
    }
    Skill skill = catalog.skill(name.substring(0, sep)).orElse(null);
    ToolSpec tool =
        skill == null ? null : skill.tool(name.substring(sep + QUALIFIER.length())).orElse(null);
    if (tool == null) {
      return null;
    }
    if (!view.isLoaded(skill.name()) || skill.state() != SkillState.AVAILABLE) {
      return new ToolResolution.SkillNotLoaded(skill);
    }
    return active(view, skill, tool);
  }

  /**
   * Whether {@code name} fits MCP's tool name pattern, {@code ^[A-Za-z0-9_-]{1,64}$}; checked by
   * hand, since every skill stub of a catalog is checked once per generation.
   */
  static boolean listable(String name) {
    int length = name.length();
    if (length < 1 || length > 64) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      char c = name.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '_'
              || c == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private static ToolResolution active(SessionView view, Skill skill, ToolSpec tool) {
    if (tool.group() != null && !view.activeGroups(skill.name()).contains(tool.group())) {
      return new ToolResolution.GroupNotActive(skill, tool.group(), tool);
    }
    return new ToolResolution.Tool(skill, tool);
  }

  private Named build(Catalog catalog, SessionView view, long version) {
    List<Name> out = new ArrayList<>();
    for (CoreTool tool : core) {
      out.add(new Name(tool.name(), ListedTool.Kind.CORE, null, null, null, tool));
    }
    List<String> unlistable = new ArrayList<>();

    List<Skill> loaded = new ArrayList<>();
    for (String name : view.loadedSkills()) {
      catalog.skill(name).filter(s -> s.state() == SkillState.AVAILABLE).ifPresent(loaded::add);
    }
    Map<String, Integer> bareCounts = new HashMap<>();
    loaded.forEach(s -> s.tools().forEach(t -> bareCounts.merge(t.name(), 1, Integer::sum)));

    List<Name> groupStubs = new ArrayList<>();
    Map<String, Integer> groupCounts = new HashMap<>();
    for (Skill skill : loaded) {
      Set<String> active = view.activeGroups(skill.name());
      skill.groups().stream()
          .filter(g -> !active.contains(g.name()))
          .forEach(g -> groupCounts.merge(g.name(), 1, Integer::sum));
    }
    for (Skill skill : loaded) {
      Set<String> active = view.activeGroups(skill.name());
      for (ToolSpec tool : skill.tools()) {
        if (tool.group() != null && !active.contains(tool.group())) {
          continue;
        }
        boolean bare =
            bareCounts.get(tool.name()) == 1
                && !coreNames.contains(tool.name())
                && !tool.name().startsWith(QUALIFIER)
                // A bridged server's tool always carries its skill's name: a third party's name
                // must neither shadow nor be shadowed, and must not change as other skills load.
                && !(tool.binding() instanceof ToolBinding.Bridge);
        String listedName = bare ? tool.name() : skill.name() + QUALIFIER + tool.name();
        if (!listable(listedName)) {
          unlistable.add(skill.name() + "/" + tool.name());
          continue;
        }
        out.add(new Name(listedName, ListedTool.Kind.TOOL, skill.name(), tool.group(), tool, null));
      }
      for (GroupSpec group : skill.groups()) {
        if (!stubs || active.contains(group.name())) {
          continue;
        }
        String stubName =
            GROUP_STUB_PREFIX
                + (groupCounts.get(group.name()) == 1
                    ? group.name()
                    : skill.name() + QUALIFIER + group.name());
        if (!listable(stubName)) {
          unlistable.add(skill.name() + "/group " + group.name());
          continue;
        }
        groupStubs.add(
            new Name(stubName, ListedTool.Kind.GROUP_STUB, skill.name(), group.name(), null, null));
      }
    }
    out.addAll(groupStubs);

    if (stubs) {
      SkillStubs all = skillStubsOf(catalog);
      for (Name stub : all.entries()) {
        if (!view.isLoaded(stub.skill())) {
          out.add(stub);
        }
      }
      for (String name : all.unlistable()) {
        if (!view.isLoaded(name)) {
          unlistable.add(name);
        }
      }
    }
    return new Named(catalog.generation(), version, out, unlistable);
  }

  /**
   * The stub of every skill a view may list while it has not loaded it, in catalog order: the same
   * instances every view of {@code catalog}'s generation lists (none for a stateless naming).
   */
  public List<Name> skillStubs(Catalog catalog) {
    return stubs ? skillStubsOf(catalog).entries() : List.of();
  }

  /** The skill stubs of {@code catalog}'s generation, worked out once. */
  private SkillStubs skillStubsOf(Catalog catalog) {
    SkillStubs current = skillStubs;
    if (current.generation() == catalog.generation()) {
      return current;
    }
    synchronized (this) {
      current = skillStubs;
      if (current.generation() != catalog.generation()) {
        current = buildSkillStubs(catalog);
        skillStubs = current;
      }
      return current;
    }
  }

  private static SkillStubs buildSkillStubs(Catalog catalog) {
    List<Name> entries = new ArrayList<>();
    List<String> unlistable = new ArrayList<>();
    for (Skill skill : catalog.skills()) {
      if (skill.state() != SkillState.AVAILABLE
          || !skill.manifest().extensions().discovery().allowImplicitInvocation()) {
        continue;
      }
      String stubName = SKILL_STUB_PREFIX + skill.name();
      if (!listable(stubName)) {
        unlistable.add(skill.name());
        continue;
      }
      entries.add(new Name(stubName, ListedTool.Kind.SKILL_STUB, skill.name(), null, null, null));
    }
    return new SkillStubs(catalog.generation(), List.copyOf(entries), List.copyOf(unlistable));
  }

  private record SkillStubs(long generation, List<Name> entries, List<String> unlistable) {}

  /**
   * One listed name and what it stands for.
   *
   * @param name the listed name
   * @param kind what the entry stands for
   * @param skill the skill it belongs to, or {@code null} for core tools
   * @param group the group (for group stubs and grouped tools), or {@code null}
   * @param spec the tool's declaration for loaded tools, else {@code null}
   * @param core the core tool for core entries, else {@code null}
   */
  public record Name(
      String name, ListedTool.Kind kind, String skill, String group, ToolSpec spec, CoreTool core) {
    public Name {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(kind, "kind");
    }
  }

  /**
   * The names one view lists, for one catalog generation and view version: the entries in listing
   * order, and what could not be given a name that fits MCP's pattern and was left out.
   */
  public static final class Named {
    private final long generation;
    private final long version;
    private final List<Name> entries;
    private final Map<String, Name> byName;
    private final List<String> unlistable;

    /** Whether this is still the view's listing: same catalog generation, same view version. */
    boolean current(Catalog catalog, long viewVersion) {
      return generation == catalog.generation() && version == viewVersion;
    }

    Named(long generation, long version, List<Name> entries, List<String> unlistable) {
      this.generation = generation;
      this.version = version;
      this.entries = List.copyOf(entries);
      Map<String, Name> index = new HashMap<>();
      for (Name entry : this.entries) {
        index.putIfAbsent(entry.name(), entry);
      }
      this.byName = index;
      this.unlistable = List.copyOf(unlistable);
    }

    public long generation() {
      return generation;
    }

    public long version() {
      return version;
    }

    /** The entries, in listing order. */
    public List<Name> entries() {
      return entries;
    }

    /** The entry listed as {@code name}, or null. */
    public Name byName(String name) {
      return byName.get(name);
    }

    /** Listed names that could not be made to fit the MCP name pattern, and were left out. */
    public List<String> unlistable() {
      return unlistable;
    }
  }
}

package dev.skillport.model.skill;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The typed view of {@code metadata.dcc-mcp}: the dcc-mcp-core extensions of a skill, in three
 * parts: what finds the skill ({@link Discovery}), where its sibling files are ({@link Siblings}),
 * and every key Skillport does not interpret ({@code extras}). Build one with {@link #builder()}.
 *
 * @param dcc the host product the skill targets
 * @param version the skill's version
 * @param depends names of skills this one needs (from metadata and {@code metadata/depends.md})
 * @param discovery what search, stubs and host filtering read
 * @param siblings the sibling file pointers, as written; the loader resolves them
 * @param extras every other key ({@code stage}, {@code branding}, unknown keys…), verbatim
 */
public record DccExtensions(
    String dcc,
    String version,
    List<String> depends,
    Discovery discovery,
    Siblings siblings,
    Map<String, Object> extras) {

  public static final String DEFAULT_DCC = "python";
  public static final String DEFAULT_VERSION = "1.0.0";

  /** The extensions of a skill that declares none. */
  public static final DccExtensions NONE = builder().build();

  public DccExtensions {
    dcc = dcc == null || dcc.isBlank() ? DEFAULT_DCC : dcc;
    version = version == null || version.isBlank() ? DEFAULT_VERSION : version;
    depends = Immutables.list(depends);
    discovery = Objects.requireNonNull(discovery, "discovery");
    siblings = Objects.requireNonNull(siblings, "siblings");
    extras = Immutables.map(extras);
  }

  /**
   * What finds a skill and where it may appear.
   *
   * @param tags search tags
   * @param searchHint search keywords, or {@code null} to fall back to the description
   * @param searchAliases other names search matches
   * @param products host products the skill may appear in; empty means all
   * @param allowImplicitInvocation {@code false} hides the skill from stubs and search
   * @param layer the skill's layer
   */
  public record Discovery(
      List<String> tags,
      String searchHint,
      List<String> searchAliases,
      List<String> products,
      boolean allowImplicitInvocation,
      Layer layer) {
    public Discovery {
      tags = Immutables.list(tags);
      searchAliases = Immutables.list(searchAliases);
      products = Immutables.list(products);
      layer = layer == null ? Layer.DOMAIN : layer;
    }

    /** Whether the skill may appear in a host running {@code product}. */
    public boolean matchesProduct(String product) {
      Objects.requireNonNull(product, "product");
      return products.isEmpty() || products.stream().anyMatch(p -> p.equalsIgnoreCase(product));
    }
  }

  /**
   * The pointers to a skill's sibling files, kept as written (relative paths or globs).
   *
   * @param tools pointer to the tools file, or {@code null}
   * @param groups pointer to the groups file, or {@code null}
   * @param prompts path or glob of prompt files, or {@code null}
   * @param resources directory, glob or YAML file of resources, or {@code null}
   * @param workflows globs of workflow files
   * @param examples globs of example Markdown files
   * @param recipes globs of recipe Markdown files
   * @param externalDeps the external requirements, inline or in a file, or {@code null}
   * @param runtimes the runtimes, inline or in a file, or {@code null}
   * @param mcp pointer to the MCP bridge file, or {@code null}
   */
  public record Siblings(
      String tools,
      String groups,
      String prompts,
      String resources,
      List<String> workflows,
      List<String> examples,
      List<String> recipes,
      InlineOrFile externalDeps,
      InlineOrFile runtimes,
      String mcp) {
    public Siblings {
      workflows = Immutables.list(workflows);
      examples = Immutables.list(examples);
      recipes = Immutables.list(recipes);
    }
  }

  /** Whether the skill may appear in a host running {@code product}. */
  public boolean matchesProduct(String product) {
    return discovery.matchesProduct(product);
  }

  /** A builder with every part at its default. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link DccExtensions}; every setter is optional. */
  public static final class Builder {
    private String dcc;
    private String version;
    private List<String> depends = List.of();
    private List<String> tags = List.of();
    private String searchHint;
    private List<String> searchAliases = List.of();
    private List<String> products = List.of();
    private boolean allowImplicitInvocation = true;
    private Layer layer = Layer.DOMAIN;
    private String tools;
    private String groups;
    private String prompts;
    private String resources;
    private List<String> workflows = List.of();
    private List<String> examples = List.of();
    private List<String> recipes = List.of();
    private InlineOrFile externalDeps;
    private InlineOrFile runtimes;
    private String mcp;
    private Map<String, Object> extras = Map.of();

    private Builder() {}

    public Builder dcc(String value) {
      this.dcc = value;
      return this;
    }

    public Builder version(String value) {
      this.version = value;
      return this;
    }

    public Builder depends(List<String> value) {
      this.depends = value;
      return this;
    }

    public Builder tags(List<String> value) {
      this.tags = value;
      return this;
    }

    public Builder searchHint(String value) {
      this.searchHint = value;
      return this;
    }

    public Builder searchAliases(List<String> value) {
      this.searchAliases = value;
      return this;
    }

    public Builder products(List<String> value) {
      this.products = value;
      return this;
    }

    public Builder allowImplicitInvocation(boolean value) {
      this.allowImplicitInvocation = value;
      return this;
    }

    public Builder layer(Layer value) {
      this.layer = value;
      return this;
    }

    public Builder tools(String value) {
      this.tools = value;
      return this;
    }

    public Builder groups(String value) {
      this.groups = value;
      return this;
    }

    public Builder prompts(String value) {
      this.prompts = value;
      return this;
    }

    public Builder resources(String value) {
      this.resources = value;
      return this;
    }

    public Builder workflows(List<String> value) {
      this.workflows = value;
      return this;
    }

    public Builder examples(List<String> value) {
      this.examples = value;
      return this;
    }

    public Builder recipes(List<String> value) {
      this.recipes = value;
      return this;
    }

    public Builder externalDeps(InlineOrFile value) {
      this.externalDeps = value;
      return this;
    }

    public Builder runtimes(InlineOrFile value) {
      this.runtimes = value;
      return this;
    }

    public Builder mcp(String value) {
      this.mcp = value;
      return this;
    }

    public Builder extras(Map<String, Object> value) {
      this.extras = value;
      return this;
    }

    public DccExtensions build() {
      return new DccExtensions(
          dcc,
          version,
          depends,
          new Discovery(tags, searchHint, searchAliases, products, allowImplicitInvocation, layer),
          new Siblings(
              tools,
              groups,
              prompts,
              resources,
              workflows,
              examples,
              recipes,
              externalDeps,
              runtimes,
              mcp),
          extras);
    }
  }
}

package dev.skillport.api.skill;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The typed view of {@code metadata.dcc-mcp}: the dcc-mcp-core extensions of a skill. Sibling file
 * pointers are kept as written (relative paths or globs); the loader resolves them.
 *
 * @param dcc the host product the skill targets
 * @param searchHint search keywords, or {@code null} to fall back to the description
 * @param depends names of skills this one needs (from metadata and {@code metadata/depends.md})
 * @param products host products the skill may appear in; empty means all
 * @param allowImplicitInvocation {@code false} hides the skill from stubs and search
 * @param tools pointer to the tools file, or {@code null}
 * @param groups pointer to the groups file, or {@code null}
 * @param prompts path or glob of prompt files, or {@code null}
 * @param resources directory, glob or YAML file of resources, or {@code null}
 * @param workflows globs of workflow files
 * @param externalDeps inline value or sibling path as written, or {@code null}
 * @param runtimes inline value or sibling path as written, or {@code null}
 * @param mcp pointer to the MCP bridge file, or {@code null}
 * @param extras every other key ({@code stage}, {@code branding}, unknown keys…), verbatim
 */
public record DccExtensions(
    String dcc,
    String version,
    List<String> tags,
    String searchHint,
    List<String> searchAliases,
    List<String> depends,
    List<String> products,
    boolean allowImplicitInvocation,
    Layer layer,
    String tools,
    String groups,
    String prompts,
    String resources,
    List<String> workflows,
    List<String> examples,
    List<String> recipes,
    Object externalDeps,
    Object runtimes,
    String mcp,
    Map<String, Object> extras) {

  public static final String DEFAULT_DCC = "python";
  public static final String DEFAULT_VERSION = "1.0.0";

  /** The extensions of a skill that declares none. */
  public static final DccExtensions NONE =
      new DccExtensions(
          DEFAULT_DCC,
          DEFAULT_VERSION,
          List.of(),
          null,
          List.of(),
          List.of(),
          List.of(),
          true,
          Layer.DOMAIN,
          null,
          null,
          null,
          null,
          List.of(),
          List.of(),
          List.of(),
          null,
          null,
          null,
          Map.of());

  public DccExtensions {
    dcc = dcc == null || dcc.isBlank() ? DEFAULT_DCC : dcc;
    version = version == null || version.isBlank() ? DEFAULT_VERSION : version;
    tags = Immutables.list(tags);
    searchAliases = Immutables.list(searchAliases);
    depends = Immutables.list(depends);
    products = Immutables.list(products);
    layer = layer == null ? Layer.DOMAIN : layer;
    workflows = Immutables.list(workflows);
    examples = Immutables.list(examples);
    recipes = Immutables.list(recipes);
    externalDeps = Immutables.value(externalDeps);
    runtimes = Immutables.value(runtimes);
    extras = Immutables.map(extras);
  }

  /** Whether the skill may appear in a host running {@code product}. */
  public boolean matchesProduct(String product) {
    Objects.requireNonNull(product, "product");
    return products.isEmpty() || products.stream().anyMatch(p -> p.equalsIgnoreCase(product));
  }
}

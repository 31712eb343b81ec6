package dev.skillport.plugins;

import dev.skillport.api.host.HostAdapter;
import dev.skillport.api.host.HostExecutor;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.ThreadAffinity;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.runtime.HostExecutors;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The started host adapters, and what they allow: whether a skill may load in this server, and
 * which adapter runs its main-thread tools. See {@code docs/decisions} for the rules.
 *
 * <p>A skill loads when
 *
 * <ol>
 *   <li>its {@code products} are empty, or one of them is {@value #STANDALONE_PRODUCT} (the server
 *       itself runs Python scripts) or is served by an adapter; and
 *   <li>when any of its tools has {@code thread-affinity: main} or declares {@code
 *       required_capabilities}, one ready adapter serving the skill's {@code dcc} offers all of it:
 *       a main-thread executor for main-affinity tools and every required capability.
 * </ol>
 */
public final class HostAdapters implements HostExecutors {
  /** The product the server serves without any adapter: Python scripts run as subprocesses. */
  public static final String STANDALONE_PRODUCT = "python";

  private static final HostAdapters NONE = new HostAdapters(List.of());

  private final List<HostAdapter> adapters;

  /**
   * @param adapters started adapters, in plugin load order (the first that fits serves)
   */
  public HostAdapters(List<HostAdapter> adapters) {
    this.adapters = List.copyOf(adapters);
  }

  /** No adapters: a plain server. */
  public static HostAdapters none() {
    return NONE;
  }

  public List<HostAdapter> adapters() {
    return adapters;
  }

  /** Why {@code skill} may not load in this server, or empty when it may. */
  @Override
  public Optional<String> refusal(Skill skill) {
    List<String> products = skill.manifest().extensions().discovery().products();
    if (!products.isEmpty() && products.stream().noneMatch(this::productPresent)) {
      return Optional.of(
          "skill '"
              + skill.name()
              + "' is only for products "
              + products
              + " and no host adapter for them is installed (present: "
              + presentProducts()
              + ")");
    }
    Requirements needs = Requirements.of(skill);
    if (needs.isEmpty()) {
      return Optional.empty();
    }
    String dcc = skill.manifest().extensions().dcc();
    List<HostAdapter> serving = serving(dcc);
    if (serving.isEmpty()) {
      return Optional.of(
          "skill '"
              + skill.name()
              + "' needs a host adapter for '"
              + dcc
              + "' ("
              + needs.describe()
              + "), and none is installed; add the '"
              + dcc
              + "' adapter plugin to a plugins folder");
    }
    for (HostAdapter adapter : serving) {
      if (fits(adapter, needs) && adapter.isReady()) {
        return Optional.empty();
      }
    }
    StringBuilder why = new StringBuilder();
    for (HostAdapter adapter : serving) {
      if (why.length() > 0) {
        why.append("; ");
      }
      why.append("adapter '").append(adapter.id()).append("' ");
      if (!fits(adapter, needs)) {
        why.append("lacks ").append(needs.missingFrom(adapter));
      } else {
        why.append("is not ready");
        String detail = detail(adapter);
        if (!detail.isBlank()) {
          why.append(" (").append(detail).append(')');
        }
      }
    }
    return Optional.of(
        "skill '"
            + skill.name()
            + "' needs a host adapter for '"
            + dcc
            + "' with "
            + needs.describe()
            + ": "
            + why);
  }

  /** The adapter's own account of its state; plugin code that throws says nothing. */
  private static String detail(HostAdapter adapter) {
    try {
      String detail = adapter.statusDetail();
      return detail == null ? "" : detail;
    } catch (RuntimeException | LinkageError e) {
      return "";
    }
  }

  /**
   * The executor that runs {@code skill}'s main-thread tools, or empty when no adapter offers one.
   */
  @Override
  public Optional<HostExecutor> mainThreadExecutor(Skill skill) {
    Requirements needs = Requirements.of(skill);
    for (HostAdapter adapter : serving(skill.manifest().extensions().dcc())) {
      if (fits(adapter, needs)) {
        Optional<HostExecutor> executor = adapter.mainThreadExecutor();
        if (executor.isPresent()) {
          return executor;
        }
      }
    }
    return Optional.empty();
  }

  private boolean productPresent(String product) {
    return product.equalsIgnoreCase(STANDALONE_PRODUCT) || !serving(product).isEmpty();
  }

  private Set<String> presentProducts() {
    Set<String> present = new TreeSet<>();
    present.add(STANDALONE_PRODUCT);
    adapters.forEach(a -> a.products().forEach(p -> present.add(p.toLowerCase(Locale.ROOT))));
    return present;
  }

  private List<HostAdapter> serving(String product) {
    return adapters.stream()
        .filter(a -> a.products().stream().anyMatch(p -> p.equalsIgnoreCase(product)))
        .toList();
  }

  private static boolean fits(HostAdapter adapter, Requirements needs) {
    return needs.missingFrom(adapter).isEmpty();
  }

  /** What a skill's tools ask of an adapter. */
  private record Requirements(List<String> mainTools, Set<String> capabilities) {
    private static final Requirements NONE = new Requirements(List.of(), Set.of());

    // One pass without streams: a view's load asks this of every skill it holds, and most tools
    // need nothing.
    static Requirements of(Skill skill) {
      List<String> main = null;
      Set<String> caps = null;
      for (ToolSpec tool : skill.tools()) {
        if (tool.affinity() == ThreadAffinity.MAIN) {
          if (main == null) {
            main = new ArrayList<>();
          }
          main.add(tool.name());
        }
        if (!tool.requiredCapabilities().isEmpty()) {
          if (caps == null) {
            caps = new TreeSet<>();
          }
          caps.addAll(tool.requiredCapabilities());
        }
      }
      if (main == null && caps == null) {
        return NONE;
      }
      return new Requirements(main == null ? List.of() : main, caps == null ? Set.of() : caps);
    }

    boolean isEmpty() {
      return mainTools.isEmpty() && capabilities.isEmpty();
    }

    String describe() {
      List<String> parts = new ArrayList<>();
      if (!mainTools.isEmpty()) {
        parts.add("a main-thread executor for thread-affinity: main tools " + mainTools);
      }
      if (!capabilities.isEmpty()) {
        parts.add("capabilities " + capabilities);
      }
      return String.join(" and ", parts);
    }

    String missingFrom(HostAdapter adapter) {
      List<String> missing = new ArrayList<>();
      if (!mainTools.isEmpty() && adapter.mainThreadExecutor().isEmpty()) {
        missing.add("a main-thread executor");
      }
      Set<String> caps = new TreeSet<>(capabilities);
      caps.removeAll(adapter.capabilities());
      if (!caps.isEmpty()) {
        missing.add("capabilities " + caps);
      }
      return String.join(" and ", missing);
    }
  }
}

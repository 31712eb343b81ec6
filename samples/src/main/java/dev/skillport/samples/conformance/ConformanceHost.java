package dev.skillport.samples.conformance;

import dev.skillport.api.host.HostAdapter;
import dev.skillport.api.resource.ResourceProvider;
import java.util.List;
import java.util.Set;
import org.pf4j.Extension;

/**
 * The conformance suite seen as a host: it runs no code of its own and serves no skill's {@code
 * dcc}; it offers the fixture's templated resource ({@link ConformanceResources}) to every session
 * of a server that loads the plugin.
 */
@Extension
public final class ConformanceHost implements HostAdapter {
  @Override
  public String id() {
    return "mcp-conformance";
  }

  @Override
  public Set<String> products() {
    return Set.of();
  }

  @Override
  public List<ResourceProvider> resourceProviders() {
    return List.of(new ConformanceResources());
  }
}

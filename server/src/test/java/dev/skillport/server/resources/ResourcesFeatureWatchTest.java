package dev.skillport.server.resources;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.bridge.BridgeRuntime;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.RequestContext;
import dev.skillport.mcp.ServerInfo;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.registry.SessionView;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What a catalog swap costs the resources surface while no {@code subscriptions/listen} stream
 * watches a resource. (A watched resource's update is checked end to end in {@code
 * StatelessEraTest}.)
 */
class ResourcesFeatureWatchTest {
  @Test
  void aCatalogSwap_withNothingWatched_worksOutNoStatelessView() {
    AtomicInteger statelessViews = new AtomicInteger();
    SessionViews views =
        new SessionViews() {
          @Override
          public SessionView of(RequestContext ctx) {
            return new SessionView();
          }

          @Override
          public SessionView reachable(RequestContext ctx) {
            return new SessionView();
          }

          @Override
          public SessionView stateless() {
            statelessViews.incrementAndGet();
            return new SessionView();
          }
        };
    CatalogHolder holder = new CatalogHolder(Catalog.empty());
    ResourcesFeature feature =
        new ResourcesFeature(holder, views, List.of(), 10, BridgeRuntime.none("1.0"));
    McpServer mcp = McpServer.builder(new ServerInfo("watch-test", "1.0", null)).build();
    try {
      feature.attach(mcp.changes());

      holder.swap(Catalog.of(2, List.of(), List.of()));
      holder.swap(Catalog.of(3, List.of(), List.of()));

      // Working out the stateless view loads every skill's tools into it: a catalog of many tools
      // paid that at every reload, for streams that were not there.
      assertThat(statelessViews).hasValue(0);
    } finally {
      mcp.close();
    }
  }
}

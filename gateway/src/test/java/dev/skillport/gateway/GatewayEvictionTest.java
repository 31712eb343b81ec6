package dev.skillport.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GatewayEvictionTest {
  @TempDir Path dir;

  @Test
  void anInstanceThatMissesThreeProbes_isEvicted_andRemembered() throws Exception {
    FolderRegistry registry = FolderRegistry.open(dir.resolve("registry"));
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    registry.put(
        new InstanceEntry(
            "dead",
            URI.create("http://127.0.0.1:" + port + "/mcp"),
            null,
            null,
            List.of(),
            "d",
            List.of(),
            "",
            1,
            null));
    try (Gateway gateway =
        new Gateway(
            registry, new InstanceClient("test"), Duration.ofSeconds(1), Clock.systemUTC())) {
      gateway.probeOnce();
      gateway.probeOnce();
      assertThat(gateway.misses("dead")).isEqualTo(2);
      assertThat(registry.list()).hasSize(1);
      assertThat(gateway.emptySince()).isNull();

      gateway.probeOnce();

      assertThat(registry.list()).isEmpty();
      assertThat(gateway.wasEvicted("dead")).isTrue();
      assertThat(gateway.index().catalogs()).isEmpty();
      gateway.probeOnce();
      assertThat(gateway.emptySince()).isNotNull();
    }
  }

  @Test
  void aRoutedCallToAnUnknownOrEvictedInstance_saysWhich() throws Exception {
    FolderRegistry registry = FolderRegistry.open(dir.resolve("registry"));
    try (Gateway gateway =
        new Gateway(
            registry, new InstanceClient("test"), Duration.ofSeconds(1), Clock.systemUTC())) {
      GatewayTools tools = new GatewayTools(gateway);
      com.fasterxml.jackson.databind.ObjectMapper json =
          new com.fasterxml.jackson.databind.ObjectMapper();

      GatewayTools.Answer unknown =
          tools.call("call", json.createObjectNode().put("name", "nobody/s__t"), null, null);
      assertThat(unknown.isError()).isTrue();
      assertThat(unknown.structured().path("code").asText()).isEqualTo("INSTANCE_NOT_FOUND");

      gateway.evict("gone-one", "test");
      GatewayTools.Answer gone =
          tools.call("call", json.createObjectNode().put("name", "gone-one/s__t"), null, null);
      assertThat(gone.structured().path("code").asText()).isEqualTo("INSTANCE_GONE");

      GatewayTools.Answer missing =
          tools.call("call", json.createObjectNode().put("name", "s__t"), null, null);
      assertThat(missing.structured().path("code").asText()).isEqualTo("NOT_FOUND");
      assertThat(tools.call("no_such_tool", json.createObjectNode(), null, null)).isNull();
    }
  }
}

package dev.skillport.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.model.status.AdapterStatus;
import dev.skillport.server.serve.ServeConfig;
import dev.skillport.server.serve.SkillportServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's readiness ({@code /readyz}) and status follow its host adapters. */
class AdapterReadinessTest {
  @TempDir Path tmp;

  @Test
  void isReady_falseWhileAnAdapterIsNot_andStatusCarriesTheAdaptersDetail() throws Exception {
    Path plugins = tmp.resolve("plugins");
    PluginHostTest.configuredPlugin(tmp).writeTo(plugins.resolve("cfg.jar"));
    Path readyFile = tmp.resolve("host-is-up");
    Files.createDirectories(tmp.resolve("skills"));
    ServeConfig config =
        ServeConfig.of(List.of(SkillRoot.of(tmp.resolve("skills"), Scope.REPO))).withWatch(false);

    try (SkillportServer server =
        SkillportServer.launch(
            config,
            "0.1.0",
            List.of(plugins),
            AdapterSettings.parse(List.of("cfg.ready-file=" + readyFile)))) {
      server.catalogLoaded().join();

      assertThat(server.isReady()).as("catalog served, adapter not ready").isFalse();
      AdapterStatus status = server.introspection().status().adapters().get(0);
      assertThat(status.ready()).isFalse();
      assertThat(status.detail()).isEqualTo("settings {ready-file=" + readyFile + "}");

      Files.createFile(readyFile);
      assertThat(server.isReady()).isTrue();

      Files.delete(readyFile);
      assertThat(server.isReady()).isFalse();
    }
  }
}

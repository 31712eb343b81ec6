package dev.skillport.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PluginsLoadingTest {
  @TempDir Path tmp;

  @Test
  void join_givesThePluginsLoadedOnTheirOwnThread_closeStopsThemOnce() throws Exception {
    Path plugins = tmp.resolve("plugins");
    PluginHostTest.echoPlugin(tmp).writeTo(plugins.resolve("echo.jar"));

    PluginsLoading loading =
        PluginsLoading.start(List.of(plugins), "0.1.0-SNAPSHOT", AdapterSettings.none());
    PluginHost host = loading.join();

    assertThat(host.pluginIds()).containsExactly("echo-plugin");
    assertThat(host.adapters().adapters()).hasSize(1);
    Path unpacked = host.skillRoots().get(0).path();
    assertThat(unpacked).exists();
    // The server closes the plugins it took; the start's own close then finds them closed.
    host.close();
    loading.close();
    assertThat(unpacked).doesNotExist();
  }

  @Test
  void close_withoutJoin_closesWhatLoaded() throws Exception {
    Path plugins = tmp.resolve("plugins");
    PluginHostTest.echoPlugin(tmp).writeTo(plugins.resolve("echo.jar"));

    PluginsLoading loading =
        PluginsLoading.start(List.of(plugins), "0.1.0-SNAPSHOT", AdapterSettings.none());
    // A start that failed before the server took the plugins closes them through the loading.
    loading.close();

    Path unpacked = loading.join().skillRoots().get(0).path();
    assertThat(unpacked).doesNotExist();
  }

  @Test
  void join_throwsWhatLoadingThrew_closeStaysQuiet() {
    PluginsLoading loading = PluginsLoading.start(null, "0.1.0-SNAPSHOT", AdapterSettings.none());

    assertThatThrownBy(loading::join).isInstanceOf(NullPointerException.class);
    loading.close();
  }
}

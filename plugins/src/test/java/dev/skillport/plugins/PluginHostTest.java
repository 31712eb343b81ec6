package dev.skillport.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.skillport.api.host.HostAdapter;
import dev.skillport.api.host.HostCall;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolInvocation;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.Scope;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PluginHostTest {
  @TempDir Path tmp;

  static final String PLUGIN =
      """
      package test.host;
      public class EchoPlugin extends org.pf4j.Plugin {}
      """;

  static final String ADAPTER =
      """
      package test.host;
      import dev.skillport.api.host.*;
      import dev.skillport.api.tool.ToolResult;
      import java.util.*;
      public class EchoAdapter implements HostAdapter {
        public String id() { return "echo"; }
        public Set<String> products() { return Set.of("echo"); }
        public Set<String> capabilities() { return Set.of("scene"); }
        public Optional<HostExecutor> mainThreadExecutor() {
          return Optional.of(call -> ToolResult.text("ran " + call.tool() + " in echo"));
        }
        public List<String> skillRoots() { return List.of("skills"); }
      }
      """;

  static final String HANDLERS =
      """
      package test.host;
      import dev.skillport.api.host.ToolHandlerExtension;
      import dev.skillport.api.tool.*;
      import java.util.Map;
      public class EchoHandlers implements ToolHandlerExtension {
        public Map<String, ToolHandler> handlers() {
          return Map.of("echo.hello", inv -> ToolResult.text("hello " + inv.tool()));
        }
      }
      """;

  static final String SKILL =
      """
      ---
      name: echo-skill
      description: Echo inside the echo host
      metadata:
        dcc-mcp:
          dcc: echo
      ---
      Echo.
      """;

  /** A working plugin: an adapter with an executor, a handler provider and a shipped skill. */
  static PluginJars echoPlugin(Path work) {
    return PluginJars.in(work)
        .plugin("echo-plugin", "1.0.0", "test.host.EchoPlugin")
        .source("test.host.EchoPlugin", PLUGIN)
        .source("test.host.EchoAdapter", ADAPTER)
        .source("test.host.EchoHandlers", HANDLERS)
        .extension("test.host.EchoAdapter")
        .extension("test.host.EchoHandlers")
        .file("skills/echo-skill/SKILL.md", SKILL);
  }

  private PluginHost load(Path folder) throws IOException {
    return PluginHost.load(List.of(folder), "0.1.0-SNAPSHOT");
  }

  @Test
  void load_workingPlugin_startsAdapterAndContributesHandlersAndSkills() throws Exception {
    Path plugins = tmp.resolve("plugins");
    echoPlugin(tmp).writeTo(plugins.resolve("echo.jar"));
    try (PluginHost host = load(plugins)) {
      assertThat(host.diagnostics()).isEmpty();
      assertThat(host.pluginIds()).containsExactly("echo-plugin");
      HostAdapter adapter = host.adapters().adapters().get(0);
      assertThat(adapter.id()).isEqualTo("echo");
      // The adapter sees the server's HostCall class: the API is shared, not bundled.
      HostCall call =
          new HostCall(
              "s",
              "t",
              tmp.resolve("t.py"),
              tmp,
              JsonNodeFactory.instance.objectNode(),
              Duration.ofSeconds(1),
              null);
      ToolResult result = adapter.mainThreadExecutor().orElseThrow().execute(call);
      assertThat(result.content().toString()).contains("ran t in echo");
      ToolHandler handler = host.handlers().get("echo.hello");
      assertThat(
              handler
                  .call(
                      new ToolInvocation("s", "greet", JsonNodeFactory.instance.objectNode(), null))
                  .content()
                  .toString())
          .contains("hello greet");
      assertThat(host.skillRoots()).hasSize(1);
      assertThat(host.skillRoots().get(0).scope()).isEqualTo(Scope.SYSTEM);
      assertThat(host.skillRoots().get(0).path().resolve("echo-skill/SKILL.md")).exists();
    }
  }

  /**
   * An adapter configured by the server: ready while the file named by its {@code ready-file}
   * setting exists, and its status detail lists the settings it was given (it refuses settings that
   * come after its start).
   */
  static PluginJars configuredPlugin(Path work) {
    String adapter =
        """
        package test.cfg;
        import dev.skillport.api.host.HostAdapter;
        import java.nio.file.*;
        import java.util.*;
        public class CfgAdapter implements HostAdapter {
          private Map<String, String> settings = Map.of();
          private boolean started;
          public String id() { return "cfg"; }
          public Set<String> products() { return Set.of("cfg"); }
          public void configure(Map<String, String> given) {
            if (started) { throw new IllegalStateException("configured after start"); }
            settings = new TreeMap<>(given);
          }
          public void start() { started = true; }
          public boolean isReady() {
            String file = settings.get("ready-file");
            return file != null && Files.exists(Path.of(file));
          }
          public String statusDetail() { return "settings " + settings; }
        }
        """;
    return PluginJars.in(work)
        .plugin("cfg-plugin", "1.0.0", "test.cfg.CfgPlugin")
        .source(
            "test.cfg.CfgPlugin",
            "package test.cfg;\npublic class CfgPlugin extends org.pf4j.Plugin {}\n")
        .source("test.cfg.CfgAdapter", adapter)
        .extension("test.cfg.CfgAdapter");
  }

  @Test
  void load_withAdapterSettings_eachAdapterGetsItsOwnGroupBeforeItStarts() throws Exception {
    Path plugins = tmp.resolve("plugins");
    configuredPlugin(tmp).writeTo(plugins.resolve("cfg.jar"));
    AdapterSettings settings =
        AdapterSettings.parse(List.of("cfg.executable=/opt/x", "cfg.mode=fast", "other.k=v"));

    try (PluginHost host = PluginHost.load(List.of(plugins), "0.1.0", settings)) {
      assertThat(host.diagnostics()).isEmpty();
      HostAdapter adapter = host.adapters().adapters().get(0);
      assertThat(adapter.statusDetail()).isEqualTo("settings {executable=/opt/x, mode=fast}");
    }
  }

  private static PluginJars resourcePlugin(Path work, String id, String body) {
    String adapter =
        """
        package test.res;
        import dev.skillport.api.host.HostAdapter;
        import dev.skillport.api.resource.*;
        import java.util.*;
        public class ResAdapter implements HostAdapter {
          public String id() { return "res"; }
          public Set<String> products() { return Set.of("res"); }
          public List<ResourceProvider> resourceProviders() { BODY }
        }
        """
            .replace("BODY", body);
    return PluginJars.in(work)
        .plugin(id, "1.0.0", "test.res.ResPlugin")
        .source(
            "test.res.ResPlugin",
            "package test.res;\npublic class ResPlugin extends org.pf4j.Plugin {}\n")
        .source("test.res.ResAdapter", adapter)
        .extension("test.res.ResAdapter");
  }

  @Test
  void load_adapterWithResources_providersOfferedToTheServer() throws Exception {
    Path plugins = tmp.resolve("plugins");
    resourcePlugin(
            tmp,
            "res-plugin",
            "return List.of(uri -> uri.equals(\"scene://current\")"
                + " ? Optional.of(ResourceContents.text(uri, \"text/plain\", \"cube\"))"
                + " : Optional.empty());")
        .writeTo(plugins.resolve("res.jar"));
    try (PluginHost host = load(plugins)) {
      assertThat(host.diagnostics()).isEmpty();
      assertThat(host.resourceProviders()).hasSize(1);
      assertThat(host.resourceProviders().get(0).read("scene://current").orElseThrow().text())
          .isEqualTo("cube");
    }
  }

  @Test
  void load_adapterResourcesThrow_reportedAndAdapterKept() throws Exception {
    Path plugins = tmp.resolve("plugins");
    resourcePlugin(tmp, "bad-res", "throw new IllegalStateException(\"no scene\");")
        .writeTo(plugins.resolve("bad-res.jar"));
    try (PluginHost host = load(plugins)) {
      assertThat(host.resourceProviders()).isEmpty();
      assertThat(host.adapters().adapters()).hasSize(1);
      assertThat(codes(host.diagnostics())).containsExactly(DiagnosticCode.PLUGIN_START_FAILED);
      assertThat(host.diagnostics().get(0).message()).contains("no scene");
    }
  }

  @Test
  void close_afterLoad_removesUnpackedSkills() throws Exception {
    Path plugins = tmp.resolve("plugins");
    echoPlugin(tmp).writeTo(plugins.resolve("echo.jar"));
    Path root;
    try (PluginHost host = load(plugins)) {
      root = host.skillRoots().get(0).path();
      assertThat(root).exists();
    }
    assertThat(root).doesNotExist();
  }

  @Test
  void load_manifestWithoutPluginId_reportsPluginInvalid() throws Exception {
    Path plugins = tmp.resolve("plugins");
    echoPlugin(tmp).plugin(null, "1.0.0", "test.host.EchoPlugin").writeTo(plugins.resolve("a.jar"));
    try (PluginHost host = load(plugins)) {
      assertThat(codes(host.diagnostics())).containsExactly(DiagnosticCode.PLUGIN_INVALID);
      assertThat(host.adapters().adapters()).isEmpty();
    }
  }

  @Test
  void load_pluginClassMissing_reportsPluginInvalidNamingTheClass() throws Exception {
    Path plugins = tmp.resolve("plugins");
    echoPlugin(tmp)
        .plugin("ghost", "1.0.0", "test.host.Missing")
        .writeTo(plugins.resolve("ghost.jar"));
    try (PluginHost host = load(plugins)) {
      assertThat(codes(host.diagnostics())).containsExactly(DiagnosticCode.PLUGIN_INVALID);
      assertThat(host.diagnostics().get(0).message()).contains("test.host.Missing");
      assertThat(host.pluginIds()).isEmpty();
    }
  }

  @Test
  void load_adapterStartThrows_reportsStartFailedAndKeepsOtherPlugins() throws Exception {
    Path plugins = tmp.resolve("plugins");
    echoPlugin(tmp).writeTo(plugins.resolve("b-echo.jar"));
    PluginJars.in(tmp)
        .plugin("failing", "1.0.0", null)
        .source(
            "test.fail.FailingAdapter",
            """
            package test.fail;
            import java.util.Set;
            public class FailingAdapter implements dev.skillport.api.host.HostAdapter {
              public String id() { return "failing"; }
              public Set<String> products() { return Set.of("fail"); }
              public void start() { throw new IllegalStateException("host is not running"); }
            }
            """)
        .extension("test.fail.FailingAdapter")
        .writeTo(plugins.resolve("a-failing.jar"));
    try (PluginHost host = load(plugins)) {
      assertThat(codes(host.diagnostics())).containsExactly(DiagnosticCode.PLUGIN_START_FAILED);
      assertThat(host.diagnostics().get(0).message()).contains("host is not running");
      assertThat(host.adapters().adapters()).extracting(HostAdapter::id).containsExactly("echo");
    }
  }

  @Test
  void load_pluginStartThrows_reportsStartFailed() throws Exception {
    Path plugins = tmp.resolve("plugins");
    PluginJars.in(tmp)
        .plugin("boom", "1.0.0", "test.boom.BoomPlugin")
        .source(
            "test.boom.BoomPlugin",
            """
            package test.boom;
            public class BoomPlugin extends org.pf4j.Plugin {
              @Override public void start() { throw new IllegalStateException("boom at start"); }
            }
            """)
        .writeTo(plugins.resolve("boom.jar"));
    try (PluginHost host = load(plugins)) {
      assertThat(codes(host.diagnostics())).containsExactly(DiagnosticCode.PLUGIN_START_FAILED);
      assertThat(host.diagnostics().get(0).message()).contains("boom at start");
    }
  }

  @Test
  void load_jarBundlingTheApi_reportsBundlesApiAndDoesNotLoadIt() throws Exception {
    Path plugins = tmp.resolve("plugins");
    byte[] apiClass;
    try (InputStream in =
        ToolHandler.class.getResourceAsStream("/dev/skillport/api/tool/ToolHandler.class")) {
      apiClass = in.readAllBytes();
    }
    echoPlugin(tmp)
        .file("dev/skillport/api/tool/ToolHandler.class", apiClass)
        .writeTo(plugins.resolve("fat.jar"));
    try (PluginHost host = load(plugins)) {
      assertThat(codes(host.diagnostics())).containsExactly(DiagnosticCode.PLUGIN_BUNDLES_API);
      assertThat(host.diagnostics().get(0).message()).contains("dev/skillport/api/tool");
      assertThat(host.pluginIds()).isEmpty();
    }
  }

  @Test
  void load_missingFolder_isEmptyWithoutDiagnostics() throws Exception {
    try (PluginHost host = load(tmp.resolve("absent"))) {
      assertThat(host.pluginIds()).isEmpty();
      assertThat(host.diagnostics()).isEmpty();
    }
  }

  @Test
  void folders_cliEnvAndHome_inThatOrderWithoutDuplicates() {
    Path a = tmp.resolve("a");
    Path b = tmp.resolve("b");
    List<Path> folders =
        PluginFolders.resolve(
            List.of(a),
            Map.of(PluginFolders.ENV, b + java.io.File.pathSeparator + a),
            tmp.resolve("home"));
    assertThat(folders)
        .containsExactly(a, b, tmp.resolve("home").resolve(".skillport").resolve("plugins"));
  }

  @Test
  void sharedPackages_apiJacksonSlf4j_comeFromTheServer() {
    assertThat(HostFirstClassLoader.isShared("dev.skillport.api.host.HostAdapter")).isTrue();
    assertThat(HostFirstClassLoader.isShared("com.fasterxml.jackson.databind.JsonNode")).isTrue();
    assertThat(HostFirstClassLoader.isShared("org.slf4j.Logger")).isTrue();
    assertThat(HostFirstClassLoader.isShared("test.host.EchoAdapter")).isFalse();
  }

  private static List<DiagnosticCode> codes(List<Diagnostic> diagnostics) {
    return diagnostics.stream().map(Diagnostic::code).toList();
  }

  static void writeFile(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}

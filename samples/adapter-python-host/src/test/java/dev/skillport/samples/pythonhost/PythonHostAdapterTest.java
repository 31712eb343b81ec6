package dev.skillport.samples.pythonhost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.host.HostCall;
import dev.skillport.api.host.HostExecutor;
import dev.skillport.api.resource.ResourceContents;
import dev.skillport.api.resource.ResourceDescriptor;
import dev.skillport.api.resource.ResourceEvents;
import dev.skillport.api.resource.ResourceProvider;
import dev.skillport.api.tool.ToolResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PythonHostAdapterTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path SCENE = Path.of("src/main/resources/skills/python-scene");
  private static PythonHostAdapter adapter;
  private static HostExecutor executor;
  @TempDir Path tmp;

  @BeforeAll
  static void start() throws Exception {
    adapter = new PythonHostAdapter();
    adapter.start();
    executor = adapter.mainThreadExecutor().orElseThrow();
  }

  @AfterAll
  static void stop() {
    adapter.stop();
  }

  private static ToolResult call(Path dir, String script, String args, Duration timeout)
      throws Exception {
    return executor.execute(
        new HostCall(
            "python-scene",
            script,
            dir.resolve("scripts").resolve(script + ".py"),
            dir,
            JSON.readTree(args),
            timeout,
            null));
  }

  @Test
  void execute_twoCalls_shareStateInOneInterpreterOnItsMainThread() throws Exception {
    ToolResult added = call(SCENE, "add_object", "{\"name\":\"box\"}", Duration.ofSeconds(10));
    assertThat(added.isError()).as(added.toString()).isFalse();
    ToolResult info = call(SCENE, "scene_info", "{}", Duration.ofSeconds(10));
    JsonNode scene = info.structured();
    assertThat(scene.get("objects").toString()).contains("\"box\"");
    assertThat(scene.get("main_thread").asBoolean()).isTrue();
    assertThat(scene.get("pid").asLong()).isEqualTo(adapter.interpreterPid());
  }

  @Test
  void sceneResource_afterAddObject_listsTheObjectAndTheHostProcess() throws Exception {
    call(SCENE, "add_object", "{\"name\":\"lamp\",\"kind\":\"light\"}", Duration.ofSeconds(10));
    ResourceProvider provider = adapter.resourceProviders().get(0);

    ResourceContents contents = provider.read("scene://current").orElseThrow();

    assertThat(provider.resources())
        .extracting(ResourceDescriptor::uri)
        .containsExactly("scene://current");
    assertThat(contents.mimeType()).isEqualTo("application/json");
    JsonNode scene = JSON.readTree(contents.text());
    assertThat(scene.path("pid").asLong()).isEqualTo(adapter.interpreterPid());
    assertThat(scene.path("python_version").asText()).matches("3\\.\\d+\\..*");
    assertThat(scene.path("modules_loaded").asInt()).isPositive();
    assertThat(scene.path("objects").findValuesAsText("name")).contains("lamp");
    assertThat(provider.read("scene://other")).isEmpty();
  }

  @Test
  void sceneResource_subscribed_updatedAfterEveryMainThreadCall() throws Exception {
    List<String> updated = new CopyOnWriteArrayList<>();
    adapter
        .resourceProviders()
        .get(0)
        .attach(
            new ResourceEvents() {
              @Override
              public void updated(String uri) {
                updated.add(uri);
              }

              @Override
              public void listChanged() {}
            });

    call(SCENE, "add_object", "{\"name\":\"chair\"}", Duration.ofSeconds(10));
    call(SCENE, "scene_info", "{}", Duration.ofSeconds(10));

    assertThat(updated).containsExactly("scene://current", "scene://current");
  }

  @Test
  void execute_scriptRaises_isAnErrorResultAndTheHostKeepsRunning() throws Exception {
    write(tmp.resolve("scripts/broken.py"), "def main(**params):\n    raise ValueError('no')\n");
    ToolResult result = call(tmp, "broken", "{}", Duration.ofSeconds(10));
    assertThat(result.isError()).isTrue();
    assertThat(result.content().toString()).contains("ValueError: no");
    assertThat(adapter.isReady()).isTrue();
  }

  @Test
  void execute_scriptPrints_printGoesToStderrNotTheProtocol() throws Exception {
    write(
        tmp.resolve("scripts/chatty.py"),
        "def main(**params):\n    print('noise')\n    return 'quiet ' + params['x']\n");
    ToolResult result = call(tmp, "chatty", "{\"x\":\"ok\"}", Duration.ofSeconds(10));
    assertThat(result.isError()).isFalse();
    assertThat(result.content().toString()).contains("quiet ok");
  }

  @Test
  void execute_timeout_restartsTheHostAndTheNextCallWorks() throws Exception {
    write(tmp.resolve("scripts/slow.py"), "import time\ndef main(**params):\n    time.sleep(30)\n");
    write(tmp.resolve("scripts/fast.py"), "def main(**params):\n    return {'fine': True}\n");
    long before = adapter.interpreterPid();
    ToolResult slow = call(tmp, "slow", "{}", Duration.ofMillis(300));
    assertThat(slow.isError()).isTrue();
    assertThat(slow.content().toString()).contains("timed out");
    // Still ready: the next call starts a fresh interpreter.
    assertThat(adapter.isReady()).isTrue();
    ToolResult fast = call(tmp, "fast", "{}", Duration.ofSeconds(10));
    assertThat(fast.structured().get("fine").asBoolean()).isTrue();
    assertThat(adapter.interpreterPid()).isNotEqualTo(before);
  }

  @Test
  void execute_scriptWithoutMain_runsAsAProgramWithUpstreamsArguments() throws Exception {
    write(
        tmp.resolve("scripts/program.py"),
        """
        import json, sys
        params = json.load(sys.stdin)
        print("working...")
        print(json.dumps({"success": True, "message": "seen", "context": {
            "params": params, "argv": sys.argv[1:], "main": __name__ == "__main__"}}))
        """);
    ToolResult ok =
        call(tmp, "program", "{\"frame_count\":3,\"name\":\"x\"}", Duration.ofSeconds(10));
    assertThat(ok.isError()).as(ok.toString()).isFalse();
    assertThat(ok.structured().path("context").toString())
        .isEqualTo(
            "{\"params\":{\"frame_count\":3,\"name\":\"x\"},"
                + "\"argv\":[\"--frame-count\",\"3\",\"--name\",\"x\"],\"main\":true}");

    write(
        tmp.resolve("scripts/refuses.py"),
        "import json, sys\n"
            + "print(json.dumps({'success': False, 'message': 'no camera'}))\n"
            + "sys.exit(1)\n");
    ToolResult refused = call(tmp, "refuses", "{}", Duration.ofSeconds(10));
    assertThat(refused.isError()).isTrue();
    assertThat(refused.content().toString()).contains("no camera");

    write(tmp.resolve("scripts/crashes.py"), "import sys\nprint('partial')\nsys.exit(3)\n");
    ToolResult crashed = call(tmp, "crashes", "{}", Duration.ofSeconds(10));
    assertThat(crashed.isError()).isTrue();
    assertThat(crashed.structured().path("code").asText()).isEqualTo("SCRIPT_FAILED");
    assertThat(adapter.isReady()).isTrue();
  }

  @Test
  void stop_afterwards_adapterIsNoLongerReady() throws Exception {
    PythonHostAdapter own = new PythonHostAdapter();
    own.start();
    assertThat(own.isReady()).isTrue();
    own.stop();
    assertThat(own.isReady()).isFalse();
    assertThatThrownBy(() -> own.resourceProviders().get(0).read("scene://current"))
        .isInstanceOf(IOException.class);
  }

  @Test
  void build_annotationProcessor_writesTheExtensionIndex() throws Exception {
    Path classes =
        Path.of(
            PythonHostAdapter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    try (InputStream in = Files.newInputStream(classes.resolve("META-INF/extensions.idx"))) {
      String index = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(index)
          .contains(PythonHostAdapter.class.getName())
          .contains(PythonHostHandlers.class.getName());
    }
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}

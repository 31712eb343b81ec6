package dev.skillport.adapters.blender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.skillport.api.host.HostExecutor;
import dev.skillport.api.resource.ResourceEvents;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real Blender that crashes, is killed, or will not stop a script: reported and restarted. */
class BlenderRestartTest {
  @TempDir Path tmp;
  private BlenderAdapter adapter;
  private HostExecutor executor;
  private TestSkill skill;
  private final List<String> updates = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws Exception {
    BlenderInstall install = RealBlender.installOrSkip();
    adapter =
        new BlenderAdapter(Map.of(), new Backoff(Duration.ofMillis(200), Duration.ofSeconds(5)));
    adapter.configure(Map.of(BlenderAdapter.EXECUTABLE, install.executable().toString()));
    adapter.start();
    adapter
        .resourceProviders()
        .get(0)
        .attach(
            new ResourceEvents() {
              @Override
              public void updated(String uri) {
                updates.add(uri);
              }

              @Override
              public void listChanged() {}
            });
    executor = adapter.mainThreadExecutor().orElseThrow();
    skill =
        TestSkill.in(tmp, "crashy")
            .script("pid", "import os\ndef main(**params):\n    return {'pid': os.getpid()}\n")
            .script(
                "crash",
                "import os, signal\ndef main(**params):\n    os.kill(os.getpid(), signal.SIGKILL)\n")
            .script(
                "stuck",
                "import os\ndef main(**params):\n    os.system('sleep 30')\n    return {}\n");
  }

  @AfterEach
  void stop() {
    if (adapter != null) {
      adapter.stop();
    }
  }

  private static String text(ToolResult r) {
    return r.content().stream()
        .filter(Content.Text.class::isInstance)
        .map(c -> ((Content.Text) c).text())
        .reduce("", String::concat);
  }

  private long pidByCall() throws Exception {
    ToolResult r = executor.execute(skill.call("pid", "{}"));
    assertThat(r.isError()).as(text(r)).isFalse();
    return r.structured().path("pid").asLong();
  }

  @Test
  void blenderCrashingDuringACall_failsTheCallAndComesBackAsANewProcess() throws Exception {
    long before = pidByCall();

    ToolResult crashed = executor.execute(skill.call("crash", "{}"));

    assertThat(crashed.structured().path("code").asText()).isEqualTo("HOST_CRASHED");
    assertThat(text(crashed)).contains("killed by signal 9", "being restarted");
    await().atMost(Duration.ofSeconds(60)).until(adapter::isReady);
    long after = pidByCall();
    assertThat(after).isNotEqualTo(before).isEqualTo(adapter.blenderPid());
    assertThat(adapter.statusDetail()).contains("restarted 1 times", "killed by signal 9");
    assertThat(updates).contains("scene://current");
  }

  @Test
  void blenderKilledFromOutside_isNotReadyThenReadyAgainWithoutAnyCall() throws Exception {
    long before = adapter.blenderPid();

    ProcessHandle.of(before).orElseThrow().destroyForcibly();

    await().atMost(Duration.ofSeconds(10)).until(() -> !adapter.isReady());
    assertThat(adapter.statusDetail()).contains("restarting after:", "killed by signal 9");
    await().atMost(Duration.ofSeconds(60)).until(adapter::isReady);
    assertThat(adapter.blenderPid()).isNotEqualTo(before);
    assertThat(pidByCall()).isEqualTo(adapter.blenderPid());
  }

  @Test
  void callsQueuedWhileBlenderRestarts_runOnTheNewBlender() throws Exception {
    long before = adapter.blenderPid();
    ProcessHandle.of(before).orElseThrow().destroyForcibly();
    await().atMost(Duration.ofSeconds(10)).until(() -> !adapter.isReady());

    long after = pidByCall();

    assertThat(after).isNotEqualTo(before);
  }

  @Test
  void scriptThatCannotBeInterrupted_pastItsTimeout_restartsBlenderAtOnce() throws Exception {
    long before = adapter.blenderPid();
    long started = System.nanoTime();

    ToolResult r =
        executor.execute(skill.call("stuck", "{}", Duration.ofSeconds(1), ToolContext.NONE));

    assertThat(r.structured().path("code").asText()).isEqualTo("HOST_CALL_TIMEOUT");
    assertThat(text(r)).contains("did not stop within 3 s", "Blender was restarted");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    long after = pidByCall();
    assertThat(after).isNotEqualTo(before);
  }
}

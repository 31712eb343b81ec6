package dev.skillport.adapters.blender;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.host.HostExecutor;
import dev.skillport.api.resource.ResourceContents;
import dev.skillport.api.resource.ResourceEvents;
import dev.skillport.api.resource.ResourceProvider;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter against a real headless Blender: calls on Blender's main thread with {@code bpy}, one
 * at a time, timed out and cancelled inside Blender without losing it, and script failures of every
 * kind reported while Blender keeps running. Crashes and restarts are in {@link
 * BlenderRestartTest}.
 */
class BlenderAdapterTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path tmp;
  private static BlenderAdapter adapter;
  private static HostExecutor executor;
  private static TestSkill skill;
  private static final List<String> updates = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    BlenderInstall install = RealBlender.installOrSkip();
    adapter = new BlenderAdapter(Map.of(), Backoff.DEFAULT);
    adapter.configure(Map.of(BlenderAdapter.EXECUTABLE, install.executable().toString()));
    adapter.start();
    executor = adapter.mainThreadExecutor().orElseThrow();
    for (ResourceProvider p : adapter.resourceProviders()) {
      p.attach(
          new ResourceEvents() {
            @Override
            public void updated(String uri) {
              updates.add(uri);
            }

            @Override
            public void listChanged() {}
          });
    }
    skill =
        TestSkill.in(tmp, "probe")
            .script(
                "count",
                """
                import os, threading, bpy
                def main(**params):
                    scene = bpy.context.scene
                    scene["calls"] = scene.get("calls", 0) + 1
                    return {"calls": scene["calls"], "pid": os.getpid(),
                            "main_thread": threading.current_thread() is threading.main_thread(),
                            "cwd": os.getcwd()}
                """)
            .script(
                "window",
                """
                import time
                def main(label, **params):
                    start = time.monotonic()
                    time.sleep(0.2)
                    return {"label": label, "start": start, "end": time.monotonic()}
                """)
            .script("spin", "def main(**params):\n    while True:\n        pass\n")
            .script(
                "nap", "import time\ndef main(seconds=30, **params):\n    time.sleep(seconds)\n")
            .script("fails", "def main(**params):\n    raise ValueError('bad input')\n")
            .script(
                "envelope",
                "def main(**params):\n"
                    + "    return {'success': False, 'message': 'nothing to do', 'context': {}}\n")
            .script("exits", "import sys\ndef main(**params):\n    sys.exit(2)\n")
            .script("nan", "def main(**params):\n    return {'value': float('nan')}\n")
            .script("nomain", "x = 1\n")
            .script(
                "steps",
                """
                import skillport_host
                def main(**params):
                    for i in range(1, 4):
                        skillport_host.progress(i, 3, "step %d" % i)
                    skillport_host.progress(2, 3, "going back is dropped")
                    return {"done": True}
                """);
  }

  @AfterAll
  static void stop() {
    if (adapter != null) {
      adapter.stop();
    }
  }

  private static ToolResult call(String tool, String args) throws Exception {
    return executor.execute(skill.call(tool, args));
  }

  private static ToolResult call(String tool, String args, Duration timeout, ToolContext ctx)
      throws Exception {
    return executor.execute(skill.call(tool, args, timeout, ctx));
  }

  private static String text(ToolResult r) {
    return r.content().stream()
        .filter(Content.Text.class::isInstance)
        .map(c -> ((Content.Text) c).text())
        .reduce("", String::concat);
  }

  @Test
  void execute_runsOnBlendersMainThreadInOneProcessThatKeepsItsScene() throws Exception {
    JsonNode first = call("count", "{}").structured();
    JsonNode second = call("count", "{}").structured();

    assertThat(first.path("main_thread").asBoolean()).isTrue();
    assertThat(second.path("calls").asInt()).isEqualTo(first.path("calls").asInt() + 1);
    assertThat(second.path("pid").asLong())
        .isEqualTo(first.path("pid").asLong())
        .isEqualTo(adapter.blenderPid());
    assertThat(Path.of(second.path("cwd").asText())).isEqualTo(skill.dir());
    assertThat(adapter.isReady()).isTrue();
    assertThat(adapter.statusDetail()).contains("Blender ", "pid " + adapter.blenderPid());
  }

  @Test
  void execute_concurrentCalls_runOneAtATime() throws Exception {
    ExecutorService callers = Executors.newFixedThreadPool(4);
    try {
      List<Future<ToolResult>> futures = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        String args = "{\"label\": \"c" + i + "\"}";
        futures.add(callers.submit(() -> call("window", args)));
      }
      List<double[]> windows = new ArrayList<>();
      for (Future<ToolResult> f : futures) {
        JsonNode r = f.get().structured();
        windows.add(new double[] {r.path("start").asDouble(), r.path("end").asDouble()});
      }
      windows.sort((a, b) -> Double.compare(a[0], b[0]));
      for (int i = 1; i < windows.size(); i++) {
        assertThat(windows.get(i)[0])
            .as("call %d starts after the one before ends", i)
            .isGreaterThanOrEqualTo(windows.get(i - 1)[1]);
      }
    } finally {
      callers.shutdownNow();
    }
  }

  @Test
  void execute_pureEmptyLoopPastItsTimeout_isStoppedInsideBlenderWhichKeepsRunning()
      throws Exception {
    long pid = adapter.blenderPid();
    long started = System.nanoTime();

    ToolResult r = call("spin", "{}", Duration.ofSeconds(1), ToolContext.NONE);

    assertThat(r.isError()).isTrue();
    assertThat(r.structured().path("code").asText()).isEqualTo("HOST_CALL_TIMEOUT");
    assertThat(text(r)).contains("timed out after 1 s", "Blender stopped the script");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(4));
    assertThat(adapter.blenderPid()).isEqualTo(pid);
    assertThat(call("count", "{}").isError()).isFalse();
  }

  @Test
  void execute_sleepingScriptCancelledByTheClient_stopsAndBlenderKeepsRunning() throws Exception {
    long pid = adapter.blenderPid();
    AtomicBoolean cancelled = new AtomicBoolean();
    new Thread(
            () -> {
              sleep(300);
              cancelled.set(true);
            })
        .start();

    ToolResult r = call("nap", "{}", Duration.ofSeconds(30), cancelling(cancelled));

    assertThat(r.structured().path("code").asText()).isEqualTo("HOST_CALL_CANCELLED");
    assertThat(adapter.blenderPid()).isEqualTo(pid);
    assertThat(call("count", "{}").isError()).isFalse();
  }

  @Test
  void execute_queuedCallCancelledBeforeItStarts_neverRuns() throws Exception {
    ExecutorService first = Executors.newSingleThreadExecutor();
    try {
      Future<ToolResult> busy = first.submit(() -> call("nap", "{\"seconds\": 1.5}"));
      sleep(200);
      AtomicBoolean cancelled = new AtomicBoolean();
      new Thread(
              () -> {
                sleep(200);
                cancelled.set(true);
              })
          .start();

      ToolResult r = call("count", "{}", Duration.ofSeconds(30), cancelling(cancelled));

      assertThat(r.structured().path("code").asText()).isEqualTo("HOST_CALL_CANCELLED");
      assertThat(text(r)).contains("before Blender started it");
      assertThat(busy.get().isError()).isFalse();
    } finally {
      first.shutdownNow();
    }
  }

  @Test
  void execute_callerInterrupted_returnsAtOnceAndTheNextCallRuns() throws Exception {
    Thread caller = Thread.currentThread();
    new Thread(
            () -> {
              sleep(300);
              caller.interrupt();
            })
        .start();
    long started = System.nanoTime();
    try {
      call("nap", "{}");
    } catch (InterruptedException expected) {
      // The server's worker thread of a cancelled call is interrupted like this.
    }
    Thread.interrupted();
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));

    assertThat(call("count", "{}").isError()).isFalse();
  }

  @Test
  void execute_scriptRaises_reportsTheErrorWithoutTheHostLoopsFrames() throws Exception {
    ToolResult r = call("fails", "{}");

    assertThat(r.isError()).isTrue();
    assertThat(r.structured().path("code").asText()).isEqualTo("SCRIPT_FAILED");
    assertThat(r.structured().at("/details/type").asText()).isEqualTo("ValueError");
    assertThat(text(r)).contains("ValueError: bad input", "fails.py").doesNotContain("_serve");
  }

  @Test
  void execute_upstreamFailureEnvelope_isAnErrorWithItsMessage() throws Exception {
    ToolResult r = call("envelope", "{}");

    assertThat(r.isError()).isTrue();
    assertThat(text(r)).isEqualTo("nothing to do");
    assertThat(r.structured().path("success").asBoolean(true)).isFalse();
  }

  @Test
  void execute_scriptsThatExitOrReturnNoJson_failAndBlenderStays() throws Exception {
    long pid = adapter.blenderPid();

    assertThat(text(call("exits", "{}"))).contains("sys.exit(2)");
    assertThat(text(call("nan", "{}"))).contains("cannot be sent as JSON");
    // A script without main is a program: it printed nothing and exited 0, an empty text result.
    assertThat(call("nomain", "{}").isError()).isFalse();
    assertThat(adapter.blenderPid()).isEqualTo(pid);
    assertThat(call("count", "{}").isError()).isFalse();
  }

  @Test
  void execute_progressReports_reachTheCallsContextInOrder() throws Exception {
    List<String> reports = new CopyOnWriteArrayList<>();
    ToolContext ctx =
        new ToolContext() {
          @Override
          public void progress(double progress, Double total, String message) {
            reports.add(progress + "/" + total + " " + message);
          }

          @Override
          public void log(String level, String message) {}

          @Override
          public boolean isCancelled() {
            return false;
          }
        };

    call("steps", "{}", Duration.ofSeconds(30), ctx);

    assertThat(reports).containsExactly("1.0/3.0 step 1", "2.0/3.0 step 2", "3.0/3.0 step 3");
  }

  @Test
  void sceneResource_readsTheLiveSceneAndIsUpdatedAfterEachCall() throws Exception {
    ResourceProvider scene = adapter.resourceProviders().get(0);
    int before = updates.size();

    call("count", "{}");
    ResourceContents contents = scene.read("scene://current").orElseThrow();

    assertThat(updates.subList(before, updates.size())).contains("scene://current");
    JsonNode json = JSON.readTree(contents.text());
    assertThat(json.path("host").path("pid").asLong()).isEqualTo(adapter.blenderPid());
    assertThat(json.path("objects").isArray()).isTrue();
    assertThat(scene.read("scene://other")).isEmpty();
  }

  @Test
  void stop_endsBlenderAndRemovesItsFolder() throws Exception {
    BlenderAdapter second = new BlenderAdapter(Map.of(), Backoff.DEFAULT);
    second.configure(
        Map.of(BlenderAdapter.EXECUTABLE, RealBlender.installOrSkip().executable().toString()));
    second.start();
    long pid = second.blenderPid();
    Path folder = second.workDir();
    assertThat(folder).isDirectory();

    second.stop();

    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    assertThat(second.isReady()).isFalse();
    assertThat(folder).doesNotExist();
  }

  static ToolContext cancelling(AtomicBoolean flag) {
    return new ToolContext() {
      @Override
      public void progress(double progress, Double total, String message) {}

      @Override
      public void log(String level, String message) {}

      @Override
      public boolean isCancelled() {
        return flag.get();
      }
    };
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

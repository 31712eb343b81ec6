package dev.skillport.samples.pythonhost;

import dev.skillport.api.host.HostAdapter;
import dev.skillport.api.host.HostExecutor;
import dev.skillport.api.resource.LiveJsonResource;
import dev.skillport.api.resource.ResourceDescriptor;
import dev.skillport.api.resource.ResourceProvider;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.pf4j.Extension;

/**
 * Serves skills with {@code dcc: python} from one long-lived Python interpreter, the way a DCC
 * embeds one: state a script leaves behind is there for the next call, and calls run one at a time
 * on the interpreter's main thread.
 */
@Extension
public class PythonHostAdapter implements HostAdapter {
  /** Environment variable naming the Python executable ({@code python3} by default). */
  public static final String PYTHON_ENV = "SKILLPORT_PYTHON";

  private final PythonInterpreter interpreter;

  /** The host's state as JSON: process id, Python version, loaded modules, scene objects. */
  private final LiveJsonResource scene;

  public PythonHostAdapter() {
    this(System.getenv().getOrDefault(PYTHON_ENV, "python3"));
  }

  public PythonHostAdapter(String python) {
    this.interpreter = new PythonInterpreter(python);
    this.scene =
        new LiveJsonResource(
            new ResourceDescriptor(
                "scene://current",
                "Current Python host scene",
                "The persistent Python host: pid, Python version, loaded modules and scene objects",
                "application/json"),
            () -> interpreter.scene(Duration.ofSeconds(5)));
  }

  @Override
  public String id() {
    return "python-host";
  }

  @Override
  public Set<String> products() {
    return Set.of("python");
  }

  @Override
  public Set<String> capabilities() {
    return Set.of("python.persistent-state", "python.main-thread");
  }

  @Override
  public Optional<HostExecutor> mainThreadExecutor() {
    return Optional.of(
        call -> {
          try {
            return interpreter.execute(call);
          } finally {
            scene.changed();
          }
        });
  }

  @Override
  public List<String> skillRoots() {
    return List.of("skills");
  }

  @Override
  public List<ResourceProvider> resourceProviders() {
    return List.of(scene);
  }

  @Override
  public boolean isReady() {
    return interpreter.isAvailable();
  }

  @Override
  public void start() throws Exception {
    interpreter.start();
  }

  @Override
  public void stop() {
    interpreter.close();
  }

  /** The interpreter's process id, or -1 when it is not running. */
  public long interpreterPid() {
    return interpreter.pid();
  }
}

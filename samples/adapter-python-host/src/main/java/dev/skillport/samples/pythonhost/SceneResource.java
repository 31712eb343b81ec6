package dev.skillport.samples.pythonhost;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.resource.ResourceContents;
import dev.skillport.api.resource.ResourceDescriptor;
import dev.skillport.api.resource.ResourceEvents;
import dev.skillport.api.resource.ResourceProvider;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@value #URI}: the Python host's state as JSON (process id, Python version, loaded modules count
 * and the objects the {@code python-scene} scripts added), read from the live interpreter.
 */
final class SceneResource implements ResourceProvider {
  static final String URI = "scene://current";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(5);
  private static final ResourceDescriptor DESCRIPTOR =
      new ResourceDescriptor(
          URI,
          "Current Python host scene",
          "The persistent Python host: pid, Python version, loaded modules and scene objects",
          "application/json");

  private final PythonInterpreter interpreter;
  private volatile ResourceEvents events;

  SceneResource(PythonInterpreter interpreter) {
    this.interpreter = interpreter;
  }

  @Override
  public void attach(ResourceEvents serverEvents) {
    this.events = serverEvents;
  }

  /**
   * Tells subscribers the scene may have changed: after every main-thread call, since any script
   * can touch the host's state.
   */
  void changed() {
    ResourceEvents e = events;
    if (e != null) {
      e.updated(URI);
    }
  }

  @Override
  public List<ResourceDescriptor> resources() {
    return List.of(DESCRIPTOR);
  }

  @Override
  public Optional<ResourceContents> read(String uri) throws IOException {
    if (!URI.equals(uri)) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          ResourceContents.text(
              URI, "application/json", JSON.writeValueAsString(interpreter.scene(WAIT))));
    } catch (JsonProcessingException e) {
      throw new IOException("the scene is not valid JSON", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reading the scene");
    }
  }
}

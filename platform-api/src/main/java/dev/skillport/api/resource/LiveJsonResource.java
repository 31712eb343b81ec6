package dev.skillport.api.resource;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.stability.API;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One resource whose contents are JSON read from a live host each time it is read, such as a DCC's
 * {@code scene://current}: list it among an adapter's resource providers and call {@link
 * #changed()} whenever the host's state may have moved (after a main-thread call, after the host
 * restarts), and subscribers are told.
 */
@API(status = API.Status.EXPERIMENTAL)
public final class LiveJsonResource implements ResourceProvider {
  /** Reads the resource's current state from the host. */
  @FunctionalInterface
  public interface Reader {
    /**
     * The state now.
     *
     * @throws IOException when the host cannot answer now (the client gets an error, the server
     *     goes on)
     * @throws InterruptedException when the reading thread is interrupted
     */
    JsonNode read() throws IOException, InterruptedException;
  }

  private final ResourceDescriptor descriptor;
  private final Reader reader;
  private volatile ResourceEvents events;

  /**
   * @param descriptor the resource as listed; its MIME type is the one served ({@code
   *     application/json} when it has none)
   * @param reader reads the state each time the resource is read
   */
  public LiveJsonResource(ResourceDescriptor descriptor, Reader reader) {
    this.descriptor = Objects.requireNonNull(descriptor, "descriptor");
    this.reader = Objects.requireNonNull(reader, "reader");
  }

  /** The resource's URI. */
  public String uri() {
    return descriptor.uri();
  }

  /** Tells subscribers the resource may have changed; before the server attaches, does nothing. */
  public void changed() {
    ResourceEvents e = events;
    if (e != null) {
      e.updated(descriptor.uri());
    }
  }

  @Override
  public void attach(ResourceEvents serverEvents) {
    this.events = serverEvents;
  }

  @Override
  public List<ResourceDescriptor> resources() {
    return List.of(descriptor);
  }

  @Override
  public Optional<ResourceContents> read(String uri) throws IOException {
    if (!descriptor.uri().equals(uri)) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          ResourceContents.text(
              uri,
              descriptor.mimeType() == null ? "application/json" : descriptor.mimeType(),
              reader.read().toString()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reading " + uri);
    }
  }
}

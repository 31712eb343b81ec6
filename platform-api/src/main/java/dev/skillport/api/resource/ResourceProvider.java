package dev.skillport.api.resource;

import dev.skillport.api.stability.API;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Serves dynamic resources from Java code (for example an adapter's {@code scene://current}).
 * Registered on the server's configuration or found with {@link java.util.ServiceLoader}; every
 * session sees a provider's resources. Methods may be called from several threads at once.
 */
@API(status = API.Status.STABLE)
public interface ResourceProvider {
  /** The concrete resources this provider lists in {@code resources/list}. */
  default List<ResourceDescriptor> resources() {
    return List.of();
  }

  /** The templates this provider can read from, for {@code resources/templates/list}. */
  default List<ResourceTemplate> templates() {
    return List.of();
  }

  /**
   * Reads one URI.
   *
   * @return the contents, or empty when this provider does not serve {@code uri}
   * @throws IOException when the provider serves {@code uri} but cannot read it now
   */
  Optional<ResourceContents> read(String uri) throws IOException;

  /**
   * Suggests values for one variable of one of this provider's templates ({@code
   * completion/complete}).
   *
   * @param uriTemplate a template this provider listed
   * @param variable the variable being completed
   * @param prefix what the user typed so far
   */
  default List<String> complete(String uriTemplate, String variable, String prefix) {
    return List.of();
  }

  /** Called once when the server starts using this provider; keep {@code events} to signal. */
  default void attach(ResourceEvents events) {}
}

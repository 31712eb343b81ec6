package dev.skillport.api.resource;

import dev.skillport.api.stability.API;
import java.util.Objects;

/**
 * A resource as {@code resources/list} shows it.
 *
 * @param mimeType or {@code null} when unknown
 */
@API(status = API.Status.STABLE)
public record ResourceDescriptor(String uri, String name, String description, String mimeType) {
  public ResourceDescriptor {
    Objects.requireNonNull(uri, "uri");
    name = name == null || name.isBlank() ? uri : name;
    description = description == null ? "" : description;
  }
}

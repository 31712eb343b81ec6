package dev.skillport.api.resource;

import dev.skillport.api.stability.API;
import java.util.Objects;

/**
 * A parameterised resource as {@code resources/templates/list} shows it.
 *
 * @param uriTemplate an RFC 6570 template such as {@code test://template/{id}/data}
 * @param mimeType or {@code null} when unknown
 */
@API(status = API.Status.STABLE)
public record ResourceTemplate(
    String uriTemplate, String name, String description, String mimeType) {
  public ResourceTemplate {
    Objects.requireNonNull(uriTemplate, "uriTemplate");
    name = name == null || name.isBlank() ? uriTemplate : name;
    description = description == null ? "" : description;
  }
}

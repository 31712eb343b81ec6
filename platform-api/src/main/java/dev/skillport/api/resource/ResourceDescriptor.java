package dev.skillport.api.resource;

import java.util.Objects;

/**
 * A resource as {@code resources/list} shows it.
 *
 * @param mimeType or {@code null} when unknown
 */
public record ResourceDescriptor(String uri, String name, String description, String mimeType) {
  public ResourceDescriptor {
    Objects.requireNonNull(uri, "uri");
    name = name == null || name.isBlank() ? uri : name;
    description = description == null ? "" : description;
  }
}

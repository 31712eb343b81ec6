package dev.skillport.adapters.blender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.resource.ResourceContents;
import dev.skillport.api.resource.ResourceDescriptor;
import dev.skillport.api.resource.ResourceEvents;
import dev.skillport.api.resource.ResourceProvider;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * {@value #URI}: the open Blender scene as JSON (its objects with type, transform, material colour,
 * camera and light settings; the active camera; the file it was saved to), read from the running
 * Blender between calls. Subscribers hear of a change after every main-thread call and after
 * Blender restarts.
 */
final class SceneResource implements ResourceProvider {
  static final String URI = "scene://current";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ResourceDescriptor DESCRIPTOR =
      new ResourceDescriptor(
          URI,
          "Current Blender scene",
          "The objects of the scene open in the Blender the server runs, with transforms,"
              + " materials, cameras and lights",
          "application/json");

  /** Reads the scene from Blender. */
  @FunctionalInterface
  interface SceneReader {
    JsonNode read() throws IOException, InterruptedException;
  }

  private final SceneReader reader;
  private volatile ResourceEvents events;

  SceneResource(SceneReader reader) {
    this.reader = reader;
  }

  @Override
  public void attach(ResourceEvents serverEvents) {
    this.events = serverEvents;
  }

  /** Tells subscribers the scene may have changed. */
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
          ResourceContents.text(URI, "application/json", JSON.writeValueAsString(reader.read())));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while reading the Blender scene");
    }
  }
}

package dev.skillport.api.resource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LiveJsonResourceTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ResourceDescriptor SCENE =
      new ResourceDescriptor("scene://current", "Scene", "The scene", "application/json");

  @Test
  void read_servesWhatTheHostSaysNow_asJson() throws IOException {
    AtomicInteger objects = new AtomicInteger();
    LiveJsonResource scene =
        new LiveJsonResource(
            SCENE, () -> JSON.createObjectNode().put("objects", objects.incrementAndGet()));

    ResourceContents first = scene.read("scene://current").orElseThrow();
    ResourceContents second = scene.read("scene://current").orElseThrow();

    assertThat(scene.resources()).containsExactly(SCENE);
    assertThat(first.mimeType()).isEqualTo("application/json");
    assertThat(JSON.readTree(first.text()).path("objects").asInt()).isEqualTo(1);
    assertThat(JSON.readTree(second.text()).path("objects").asInt()).isEqualTo(2);
    assertThat(scene.read("scene://other")).isEmpty();
  }

  @Test
  void changed_tellsSubscribersOnceAttached() {
    LiveJsonResource scene = new LiveJsonResource(SCENE, JSON::createObjectNode);
    List<String> updated = new ArrayList<>();
    scene.changed();
    scene.attach(
        new ResourceEvents() {
          @Override
          public void updated(String uri) {
            updated.add(uri);
          }

          @Override
          public void listChanged() {
            updated.add("(list)");
          }
        });

    scene.changed();

    assertThat(updated).containsExactly("scene://current");
  }

  @Test
  void read_aHostThatCannotAnswer_isAnIOException_andAnInterruptKeepsItsFlag() {
    LiveJsonResource down =
        new LiveJsonResource(
            SCENE,
            () -> {
              throw new IOException("Blender is restarting");
            });
    assertThatThrownBy(() -> down.read("scene://current")).hasMessage("Blender is restarting");

    LiveJsonResource interrupted =
        new LiveJsonResource(
            SCENE,
            () -> {
              throw new InterruptedException();
            });
    try {
      assertThatThrownBy(() -> interrupted.read("scene://current"))
          .isInstanceOf(InterruptedIOException.class)
          .hasMessageContaining("scene://current");
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void aDescriptorWithoutMimeType_isServedAsJson() throws IOException {
    LiveJsonResource scene =
        new LiveJsonResource(
            new ResourceDescriptor("scene://current", "Scene", null, null),
            () -> (JsonNode) JSON.createArrayNode().add("cube"));
    ResourceContents contents = scene.read("scene://current").orElseThrow();
    assertThat(contents.mimeType()).isEqualTo("application/json");
    assertThat(contents.text()).isEqualTo("[\"cube\"]");
  }
}

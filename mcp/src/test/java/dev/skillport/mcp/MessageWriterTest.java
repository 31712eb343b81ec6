package dev.skillport.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link McpServer.MessageWriter}: one reused generator, whole lines or nothing. */
class MessageWriterTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final McpServer server = McpServer.builder(new ServerInfo("writer", "1.0", null)).build();
  private final McpServer.MessageWriter writer = server.messageWriter();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  private static ObjectNode response(int id, String text) {
    ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id);
    message
        .putObject("result")
        .putArray("content")
        .addObject()
        .put("type", "text")
        .put("text", text);
    return message;
  }

  /** A response whose result writes a long text and then fails half way through. */
  private static ObjectNode failingResponse(int id) {
    ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id);
    message
        .putObject("result")
        .putPOJO(
            "content",
            new JsonSerializable.Base() {
              @Override
              public void serialize(JsonGenerator gen, SerializerProvider provider)
                  throws IOException {
                gen.writeStartArray();
                gen.writeString("x".repeat(100_000));
                throw new IllegalArgumentException("cannot be written");
              }

              @Override
              public void serializeWithType(
                  JsonGenerator gen, SerializerProvider provider, TypeSerializer type)
                  throws IOException {
                serialize(gen, provider);
              }
            });
    return message;
  }

  private List<String> lines() {
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(text).endsWith("\n");
    return List.of(text.split("\n", -1)).subList(0, text.split("\n", -1).length - 1);
  }

  @Test
  void messagesFollowEachOther_oneLineEach_asWriteSerializesThem() throws Exception {
    ObjectNode first = response(1, "one");
    ObjectNode second = response(2, "two");

    writer.writeLine(first, out);
    writer.writeLine(second, out);

    assertThat(lines())
        .containsExactly(
            new String(server.write(first), StandardCharsets.UTF_8),
            new String(server.write(second), StandardCharsets.UTF_8));
    assertThat(JSON.readTree(lines().get(1))).isEqualTo(second);
  }

  @Test
  void aResponseThatFailsHalfWay_isOnlyAnInternalError_andTheNextMessageIsWhole() throws Exception {
    writer.writeLine(failingResponse(41), out);
    writer.writeLine(response(42, "after"), out);

    List<String> lines = lines();
    assertThat(lines).hasSize(2);
    JsonNode error = JSON.readTree(lines.get(0));
    assertThat(error.path("id").asInt()).isEqualTo(41);
    assertThat(error.path("error").path("code").asInt()).isEqualTo(-32603);
    assertThat(lines.get(0)).doesNotContain("xxxx");
    assertThat(JSON.readTree(lines.get(1))).isEqualTo(response(42, "after"));
  }

  @Test
  void aNotificationThatCannotBeSerialized_failsAndWritesNothing() throws Exception {
    ObjectNode notification = failingResponse(0);
    notification.remove("id");

    assertThatThrownBy(() -> writer.writeLine(notification, out))
        .isInstanceOf(IllegalStateException.class);
    assertThat(out.size()).isZero();

    writer.writeLine(response(5, "still fine"), out);
    assertThat(JSON.readTree(lines().get(0))).isEqualTo(response(5, "still fine"));
  }

  @Test
  void aMessageLargerThanTheKeptBuffer_andSmallOnesAfterIt_areAllWhole() throws Exception {
    ObjectNode large = response(7, "y".repeat(600_000));

    writer.writeLine(response(6, "before"), out);
    writer.writeLine(large, out);
    writer.writeLine(response(8, "after"), out);

    List<String> lines = lines();
    assertThat(lines).hasSize(3);
    assertThat(JSON.readTree(lines.get(1))).isEqualTo(large);
    assertThat(JSON.readTree(lines.get(2))).isEqualTo(response(8, "after"));
  }

  @Test
  void anOutputThatFails_leavesNothingOfItsMessageForTheNext() throws Exception {
    java.io.OutputStream broken =
        new java.io.OutputStream() {
          @Override
          public void write(int b) throws IOException {
            throw new IOException("closed");
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            throw new IOException("closed");
          }
        };

    assertThatThrownBy(() -> writer.writeLine(response(1, "lost"), broken))
        .isInstanceOf(IOException.class);
    writer.writeLine(response(2, "kept"), out);

    assertThat(lines())
        .containsExactly(new String(server.write(response(2, "kept")), StandardCharsets.UTF_8));
  }

  @Test
  void theServersOutboundStepRunsOnEveryMessage() throws Exception {
    McpServer redacting =
        McpServer.builder(new ServerInfo("writer", "1.0", null))
            .outboundFilter(
                message -> {
                  ObjectNode copy = message.deepCopy();
                  copy.put("seen", true);
                  return copy;
                })
            .build();
    McpServer.MessageWriter outbound = redacting.messageWriter();

    outbound.writeLine(response(1, "a"), out);
    outbound.writeLine(response(2, "b"), out);

    assertThat(lines())
        .allSatisfy(line -> assertThat(JSON.readTree(line).path("seen").asBoolean()).isTrue());
  }
}

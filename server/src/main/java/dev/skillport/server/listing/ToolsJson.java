package dev.skillport.server.listing;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.registry.ListedTool;
import dev.skillport.runtime.secrets.Redactor;
import java.io.IOException;
import java.util.List;

/**
 * The {@code tools} array of a {@code tools/list} page, written from each entry's JSON text ({@link
 * ToolListing#json}, carried by the page) instead of walking its tree: the bytes of a tool are
 * produced once per catalog generation and copied into every page that lists it.
 *
 * <p>The server's outbound filter masks registered secrets by walking a message's tree, which this
 * value hides from it, so it applies the same rule itself: an entry whose text may hold a
 * registered value is written from its tree, masked.
 */
final class ToolsJson extends JsonSerializable.Base {
  private final List<ObjectNode> leading;
  private final ToolListing.Page page;
  private final Redactor redactor;

  ToolsJson(List<ObjectNode> leading, ToolListing.Page page, Redactor redactor) {
    this.leading = List.copyOf(leading);
    this.page = page;
    this.redactor = redactor;
  }

  @Override
  public void serialize(JsonGenerator gen, SerializerProvider provider) throws IOException {
    gen.writeStartArray();
    for (ObjectNode extra : leading) {
      gen.writeTree(redactor.wire(extra));
    }
    List<ListedTool> tools = page.tools();
    List<RawJson> texts = page.json();
    for (int i = 0; i < tools.size(); i++) {
      RawJson text = texts.get(i);
      if (redactor.mayHoldLiteral(text.getValue())) {
        gen.writeTree(redactor.wire(tools.get(i).wire()));
      } else {
        gen.writeRawValue(text);
      }
    }
    gen.writeEndArray();
  }

  @Override
  public void serializeWithType(
      JsonGenerator gen, SerializerProvider provider, TypeSerializer typeSer) throws IOException {
    serialize(gen, provider);
  }
}

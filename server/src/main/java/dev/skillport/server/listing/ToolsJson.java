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
 * ToolListing#json}) instead of walking its tree: the bytes of a tool are produced once per catalog
 * generation and copied into every page that lists it.
 *
 * <p>The server's outbound filter masks registered secrets by walking a message's tree, which this
 * value hides from it, so it applies the same rule itself: an entry whose text may hold a
 * registered value is written from its tree, masked.
 */
final class ToolsJson extends JsonSerializable.Base {
  private final List<ObjectNode> leading;
  private final List<ListedTool> tools;
  private final ToolListing listing;
  private final Redactor redactor;

  ToolsJson(
      List<ObjectNode> leading, List<ListedTool> tools, ToolListing listing, Redactor redactor) {
    this.leading = List.copyOf(leading);
    this.tools = List.copyOf(tools);
    this.listing = listing;
    this.redactor = redactor;
  }

  @Override
  public void serialize(JsonGenerator gen, SerializerProvider provider) throws IOException {
    gen.writeStartArray();
    for (ObjectNode extra : leading) {
      gen.writeTree(redactor.wire(extra));
    }
    for (ListedTool tool : tools) {
      RawJson text = listing.json(tool);
      if (redactor.mayHoldLiteral(text.getValue())) {
        gen.writeTree(redactor.wire(tool.wire()));
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

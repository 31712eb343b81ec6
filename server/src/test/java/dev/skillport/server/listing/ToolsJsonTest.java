package dev.skillport.server.listing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CoreTool;
import dev.skillport.registry.ListedTool;
import dev.skillport.registry.SessionView;
import dev.skillport.registry.TestSkills;
import dev.skillport.runtime.secrets.Redactor;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A page written from each entry's JSON text is the page its trees would give, secrets masked. */
class ToolsJsonTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SECRET = "tok-\"quoted\"-4242";

  private final Catalog catalog =
      TestSkills.catalog(
          1,
          TestSkills.named("alpha")
              .tool("render")
              .tool("shared")
              .tool(
                  // A description cut inside an emoji: a lone high surrogate.
                  ToolSpec.builder("cut", ToolSpec.defaultInputSchema())
                      .description("a rocket \uD83D\u2026")
                      .build())
              .build(),
          TestSkills.named("beta")
              .tool(
                  ToolSpec.builder("leaky", ToolSpec.defaultInputSchema())
                      .description("uses " + SECRET + " to log in")
                      .build())
              .build(),
          TestSkills.named("gamma").tool("g1").build());
  private final ToolListing listing =
      new ToolListing(
          List.of(new CoreTool("search_skills", "Search", ToolSpec.defaultInputSchema(), null)),
          100);

  private ArrayNode trees(ToolListing.Page page, ObjectNode leading) {
    ArrayNode out = JSON.createArrayNode().add(leading);
    page.tools().forEach(t -> out.add(t.wire()));
    return out;
  }

  @Test
  void result_writtenFromText_isTheSameJsonAsTheTrees() throws Exception {
    SessionView view = new SessionView();
    view.load(catalog, List.of("alpha", "beta"), true);
    ToolListing.Page page = listing.page(catalog, view, null);
    ObjectNode leading = JSON.createObjectNode().put("name", "app");

    byte[] fromText =
        JSON.writeValueAsBytes(listing.result(page, List.of(leading), new Redactor()));
    ObjectNode fromTrees = JSON.createObjectNode();
    fromTrees.set("tools", trees(page, leading));

    assertThat(fromText).isEqualTo(JSON.writeValueAsBytes(fromTrees));
    // Written as characters, the entries are the bytes' text: the same JSON, and the lone
    // surrogate stays an escape, so the text survives being encoded to UTF-8.
    String asText = JSON.writeValueAsString(listing.result(page, List.of(leading), new Redactor()));
    assertThat(JSON.readTree(asText)).isEqualTo(fromTrees);
    assertThat(new String(asText.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
        .isEqualTo(asText);
    assertThat(page.tools()).extracting(ListedTool::name).contains("cut");
  }

  @Test
  void result_entryHoldingARegisteredSecret_isMaskedAndTheOthersAreNot() throws Exception {
    SessionView view = new SessionView();
    view.load(catalog, List.of("alpha", "beta"), true);
    ToolListing.Page page = listing.page(catalog, view, null);
    Redactor redactor = new Redactor();
    redactor.addSecret(SECRET);

    String text = JSON.writeValueAsString(listing.result(page, List.of(), redactor));
    JsonNode written = JSON.readTree(text);

    assertThat(text).doesNotContain("4242");
    assertThat(written.get("tools")).hasSize(page.tools().size());
    JsonNode leaky = null;
    for (JsonNode t : written.get("tools")) {
      if (t.path("name").asText().equals("leaky")) {
        leaky = t;
      }
    }
    assertThat(leaky).isNotNull();
    assertThat(leaky.path("description").asText()).startsWith("uses ").endsWith(" to log in");
    assertThat(written.get("tools").get(1)).isEqualTo(page.tools().get(1).wire());
  }

  @Test
  void json_oneWireObject_isSerializedOnce() throws Exception {
    SessionView view = new SessionView();
    view.load(catalog, List.of("gamma"), true);
    ListedTool g1 = listing.page(catalog, view, null).tools().get(1);

    assertThat(listing.json(g1)).isSameAs(listing.json(g1));
    assertThat(listing.json(g1).getValue()).contains("\"name\":\"g1\"");
  }

  @Test
  void result_pagesCarryTheirCursor() throws Exception {
    ToolListing small =
        new ToolListing(
            List.of(new CoreTool("search_skills", "Search", ToolSpec.defaultInputSchema(), null)),
            2);
    SessionView view = new SessionView();
    view.load(catalog, List.of("alpha", "gamma"), true);
    ToolListing.Page first = small.page(catalog, view, null);

    JsonNode written =
        JSON.readTree(JSON.writeValueAsString(small.result(first, List.of(), new Redactor())));

    assertThat(written.get("tools")).hasSize(2);
    assertThat(written.get("nextCursor").asText()).isEqualTo(first.nextCursor());
  }
}

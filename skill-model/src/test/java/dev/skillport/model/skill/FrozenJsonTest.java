package dev.skillport.model.skill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

/** The checks that keep a tree made through the public factories from ever changing. */
class FrozenJsonTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void frozenObject_hashesAsItsMutableCopy_everyTime_soTheyMeetInOneHashMap() throws Exception {
    JsonNode mutable =
        JSON.readTree(
            "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},"
                + "\"b\":{\"type\":\"array\",\"items\":{\"type\":\"integer\"}}}}");
    JsonNode frozen = FrozenJson.freeze(mutable);

    assertThat(frozen.hashCode()).isEqualTo(mutable.hashCode());
    assertThat(frozen.hashCode()).isEqualTo(frozen.hashCode());
    java.util.Map<JsonNode, String> byTree = new java.util.HashMap<>();
    byTree.put(mutable, "mutable");
    assertThat(byTree.get(frozen)).isEqualTo("mutable");
    assertThat(frozen).isEqualTo(mutable);
  }

  @Test
  void object_callerChangesItsArraysAfterwards_treeKeepsWhatItWasGiven() {
    String[] names = {"type", "title"};
    JsonNode[] values = {TextNode.valueOf("string"), TextNode.valueOf("A")};

    ObjectNode tree = FrozenJson.object(names, values);
    names[0] = "other";
    values[1] = TextNode.valueOf("B");

    assertThat(tree.toString()).isEqualTo("{\"type\":\"string\",\"title\":\"A\"}");
  }

  @Test
  void object_repeatedName_isRefused() {
    assertThatThrownBy(
            () ->
                FrozenJson.object(
                    new String[] {"a", "b", "a"},
                    new JsonNode[] {
                      TextNode.valueOf("1"), TextNode.valueOf("2"), TextNode.valueOf("3")
                    }))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a repeats");
  }

  @Test
  void object_repeatedNameInALargeMapping_isRefused() {
    String[] names = new String[40];
    JsonNode[] values = new JsonNode[40];
    for (int i = 0; i < 40; i++) {
      names[i] = "k" + (i % 39);
      values[i] = TextNode.valueOf("v");
    }

    assertThatThrownBy(() -> FrozenJson.object(names, values))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("k0 repeats");
  }

  @Test
  void objectAndArray_mutableContainerInside_isRefused() {
    ObjectNode mutable = JSON.createObjectNode().put("x", 1);

    assertThatThrownBy(() -> FrozenJson.object(new String[] {"a"}, new JsonNode[] {mutable}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("values[0]");
    assertThatThrownBy(() -> FrozenJson.array(TextNode.valueOf("a"), mutable))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("elements[1]");
    assertThat(FrozenJson.array(FrozenJson.freeze(mutable)).get(0).get("x").asInt()).isEqualTo(1);
  }

  @Test
  void object_nullNameOrValue_isRefused() {
    TextNode v = TextNode.valueOf("v");
    assertThatThrownBy(() -> FrozenJson.object(new String[] {"a", null}, new JsonNode[] {v, v}))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("names[1]");
    assertThatThrownBy(() -> FrozenJson.object(new String[] {"a"}, new JsonNode[] {null}))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("values[0]");
    assertThatThrownBy(() -> FrozenJson.array(v, v, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("elements[2]");
  }

  @Test
  void freeze_equalShortTextsInOneTree_areOneNode() throws Exception {
    JsonNode tree =
        FrozenJson.freeze(
            JSON.readTree(
                "{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"string\"},\"c\":[\"string\"]}"));

    assertThat(tree.at("/a/type")).isSameAs(tree.at("/b/type")).isSameAs(tree.at("/c/0"));
    assertThat(FrozenJson.isFrozen(tree.get("c"))).isTrue();
  }
}

package dev.skillport.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class CapabilityIndexTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static InstanceEntry instance(String id, String dcc) {
    return new InstanceEntry(
        id,
        URI.create("http://127.0.0.1:1/mcp"),
        dcc,
        null,
        List.of(),
        "d",
        List.of(),
        "",
        1,
        null);
  }

  /** A {@code list_skills} answer with the index's fields. */
  private static JsonNode listed(String... skills) throws Exception {
    StringBuilder b = new StringBuilder("{\"skills\":[");
    for (int i = 0; i < skills.length; i += 3) {
      if (i > 0) {
        b.append(',');
      }
      b.append("{\"name\":\"")
          .append(skills[i])
          .append("\",\"status\":\"unloaded\",\"scope\":\"repo\",\"dcc\":\"python\",")
          .append("\"description\":\"")
          .append(skills[i + 1])
          .append("\",\"tags\":[],\"tool_names\":\"")
          .append(skills[i + 2])
          .append("\"}");
    }
    b.append(",{\"name\":\"broken\",\"status\":\"skipped\",\"tool_names\":\"x\"}]}");
    return JSON.readTree(b.toString());
  }

  private static CapabilityIndex index() throws Exception {
    return CapabilityIndex.of(
        List.of(
            InstanceCatalog.read(
                instance("maya-1", "maya"),
                listed(
                    "maya-geometry",
                    "Create and edit polygon meshes",
                    "create_cube,bevel",
                    "file-stats",
                    "Count lines and words of text files",
                    "count_lines")),
            InstanceCatalog.read(
                instance("blender-1", "blender"),
                listed(
                    "blender-scene",
                    "Render the Blender scene to an image",
                    "render,create_cube",
                    "file-stats",
                    "Count lines and words of text files",
                    "count_lines"))));
  }

  @Test
  void search_ranksAcrossInstances_andFiltersByInstance() throws Exception {
    CapabilityIndex index = index();

    CapabilityIndex.Ranked render = index.search("render image", s -> true, 10);
    assertThat(render.hits()).hasSize(1);
    assertThat(render.hits().get(0).owned().instance().id()).isEqualTo("blender-1");

    CapabilityIndex.Ranked lines = index.search("count lines", s -> true, 10);
    assertThat(lines.total()).isEqualTo(2);
    assertThat(index.search("count lines", s -> s.instance().id().equals("maya-1"), 10).hits())
        .extracting(h -> h.owned().instance().id())
        .containsExactly("maya-1");
  }

  @Test
  void skippedSkills_areNotIndexed() throws Exception {
    assertThat(index().skills("broken")).isEmpty();
  }

  @Test
  void tools_byQualifiedOrBareName_findEveryOwner() throws Exception {
    CapabilityIndex index = index();

    assertThat(index.tools("render"))
        .extracting(CapabilityIndex.OwnedTool::qualifiedName)
        .containsExactly("blender-1/blender-scene__render");
    assertThat(index.tools("create_cube"))
        .extracting(CapabilityIndex.OwnedTool::qualifiedName)
        .containsExactlyInAnyOrder(
            "maya-1/maya-geometry__create_cube", "blender-1/blender-scene__create_cube");
    assertThat(index.tools("file_stats__count_lines")).hasSize(2);
    assertThat(index.tools("file-stats__count_lines")).hasSize(2);
    assertThat(index.tools("maya-geometry__render")).isEmpty();
  }
}

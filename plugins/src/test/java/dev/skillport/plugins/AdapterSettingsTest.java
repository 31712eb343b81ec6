package dev.skillport.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AdapterSettingsTest {
  @Test
  void parse_groupsByAdapterAndKeepsDotsAndEqualsInValues() {
    AdapterSettings s =
        AdapterSettings.parse(
            List.of(
                "blender.executable=/opt/blender-3.6/blender",
                "com.studio.maya.port=7001",
                "blender.mode=a=b",
                "blender.executable=/usr/bin/blender"));

    assertThat(s.of("blender")).isEqualTo(Map.of("executable", "/usr/bin/blender", "mode", "a=b"));
    assertThat(s.of("com.studio.maya")).isEqualTo(Map.of("port", "7001"));
    assertThat(s.of("houdini")).isEmpty();
    assertThat(s.adapterIds()).containsExactly("blender", "com.studio.maya");
  }

  @ParameterizedTest
  @ValueSource(strings = {"blender", "executable=/x", ".executable=/x", "blender.=/x", "=x"})
  void parse_entryNotOfTheForm_isRefusedNamingIt(String entry) {
    assertThatThrownBy(() -> AdapterSettings.parse(List.of(entry)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + entry + "'")
        .hasMessageContaining("ADAPTER.KEY=VALUE");
  }

  @Test
  void with_replacesOneValueAndLeavesTheOriginalAlone() {
    AdapterSettings base = AdapterSettings.parse(List.of("blender.executable=/a"));

    AdapterSettings next = base.with("blender", "executable", "/b");

    assertThat(next.of("blender")).containsEntry("executable", "/b");
    assertThat(base.of("blender")).containsEntry("executable", "/a");
  }
}

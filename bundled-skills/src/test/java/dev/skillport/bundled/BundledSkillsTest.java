package dev.skillport.bundled;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.api.tool.ToolHandlerProvider;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class BundledSkillsTest {
  @Test
  void unpack_everyNamedSkill_hasSkillMdAndCloseDeletesCopy() throws IOException {
    Path root;
    try (BundledSkills bundled = BundledSkills.unpack()) {
      root = bundled.root();
      assertThat(BundledSkills.names()).contains("skill-authoring");
      for (String name : BundledSkills.names()) {
        assertThat(root.resolve(name).resolve("SKILL.md")).isRegularFile();
      }
    }
    assertThat(root).doesNotExist();
  }

  @Test
  void handlers_authoring_areNotServiceLoaded() {
    // Service-loaded handlers would have no folders to stay in; the server binds them with its own.
    List<String> ids =
        ServiceLoader.load(ToolHandlerProvider.class).stream()
            .flatMap(p -> p.get().handlers().keySet().stream())
            .toList();

    assertThat(ids)
        .doesNotContain(
            AuthoringHandlers.VALIDATE, AuthoringHandlers.NEW_SKILL, AuthoringHandlers.EXPLAIN);
  }
}

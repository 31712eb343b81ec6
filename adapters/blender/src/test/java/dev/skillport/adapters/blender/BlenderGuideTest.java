package dev.skillport.adapters.blender;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.host.HostCall;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The example skill of {@code docs/blender.md}: its snippets are the files of the test skill {@code
 * studio-turntable}, and the skill works in Blender.
 */
class BlenderGuideTest {
  private static final Path GUIDE = Path.of("../../docs/blender.md");
  private static final Path SKILL = Path.of("src/test/resources/skills/studio-turntable");
  private static final Pattern BLOCK =
      Pattern.compile("```(?:yaml|python)\\n# (\\S+)[^\\n]*\\n(.*?)```", Pattern.DOTALL);

  @Test
  void guideSnippets_areTheExampleSkillsFiles() throws Exception {
    String guide = Files.readString(GUIDE, StandardCharsets.UTF_8);
    Matcher m = BLOCK.matcher(guide);
    List<String> files = new ArrayList<>();
    while (m.find()) {
      Path file = SKILL.resolve(m.group(1));
      files.add(m.group(1));
      assertThat(file).as("the file a snippet of the guide shows").isRegularFile();
      assertThat(Files.readString(file, StandardCharsets.UTF_8))
          .as("%s holds the guide's snippet", file)
          .contains(m.group(2));
    }
    assertThat(files).containsExactly("SKILL.md", "tools.yaml", "scripts/add_turntable.py");
  }

  @Test
  void exampleSkill_addsAKeyedTurntableCameraInBlender() throws Exception {
    BlenderInstall install = RealBlender.installOrSkip();
    BlenderAdapter adapter = new BlenderAdapter(Map.of(), Backoff.DEFAULT);
    adapter.configure(Map.of(BlenderAdapter.EXECUTABLE, install.executable().toString()));
    adapter.start();
    try {
      List<String> progress = new CopyOnWriteArrayList<>();
      ToolContext ctx =
          new ToolContext() {
            @Override
            public void progress(double done, Double total, String message) {
              progress.add(message);
            }

            @Override
            public void log(String level, String message) {}

            @Override
            public boolean isCancelled() {
              return false;
            }
          };
      Path dir = SKILL.toAbsolutePath();
      ToolResult r =
          adapter
              .mainThreadExecutor()
              .orElseThrow()
              .execute(
                  new HostCall(
                      "studio-turntable",
                      "add_turntable",
                      dir.resolve("scripts/add_turntable.py"),
                      dir,
                      new ObjectMapper().readTree("{\"frames\": 48}"),
                      Duration.ofSeconds(30),
                      ctx));

      assertThat(r.isError()).as(r.content().toString()).isFalse();
      assertThat(r.structured().at("/context/frames").asInt()).isEqualTo(48);
      assertThat(r.structured().at("/context/camera").asText()).isEqualTo("TurntableCamera");
      assertThat(progress).containsExactly("camera placed", "turn keyed");
    } finally {
      adapter.stop();
    }
  }
}

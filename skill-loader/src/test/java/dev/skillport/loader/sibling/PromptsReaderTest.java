package dev.skillport.loader.sibling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.PromptArgument;
import dev.skillport.model.skill.PromptSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PromptsReaderTest {
  @TempDir Path tmp;

  @Test
  void read_singleFile_readsSpecsAndWorkflowPrompts() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file(
                "prompts.yaml",
                """
                prompts:
                  - name: review
                    description: Review a file.
                    arguments: [{name: path, description: File, required: true}]
                    template: "Review {{path}} and {{ mood }}."
                workflows:
                  - {file: workflows/convert.workflow.yaml, prompt_name: convert_everything}
                """)
            .file(
                "workflows/convert.workflow.yaml",
                "name: convert\ndescription: Converts.\ninputs: {type: object, properties:"
                    + " {folder: {description: Where}}, required: [folder]}\nsteps: []\n");
    skill.prompts = "prompts.yaml";

    List<PromptSpec> prompts = skill.read().prompts();

    assertThat(prompts)
        .extracting(PromptSpec::name)
        .containsExactly("review", "convert_everything");
    assertThat(prompts.get(0).arguments())
        .containsExactly(new PromptArgument("path", "File", true));
    assertThat(prompts.get(1).arguments())
        .containsExactly(new PromptArgument("folder", "Where", true));
    assertThat(prompts.get(1).template()).contains("convert").contains("{{folder}}");
    assertThat(skill.with(DiagnosticCode.PROMPT_PLACEHOLDER_UNKNOWN))
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.message()).contains("{{mood}}").doesNotContain("{{path}}");
              assertThat(d.line()).isEqualTo(5);
            });
  }

  @Test
  void read_messagesAndArgumentValues_keptInTheSpec() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file(
                "prompts.yaml",
                """
                prompts:
                  - name: pick
                    arguments:
                      - {name: shape, values: [cube, sphere], examples: [cube, cone]}
                      - {name: size, enum: [1, 2]}
                    template: ""
                    messages:
                      - {role: user, content: "Make a {{shape}}"}
                      - {role: assistant, content: {type: text, text: Done.}}
                  - name: plain
                    template: Hi
                """);
    skill.prompts = "prompts.yaml";

    List<PromptSpec> prompts = skill.read().prompts();

    assertThat(prompts.get(0).arguments())
        .containsExactly(
            new PromptArgument("shape", "", false, List.of("cube", "sphere", "cone")),
            new PromptArgument("size", "", false, List.of("1", "2")));
    assertThat(prompts.get(0).messages()).hasSize(2);
    assertThat(prompts.get(0).messages().get(0).path("content").asText())
        .isEqualTo("Make a {{shape}}");
    assertThat(prompts.get(0).messages().get(1).path("content").path("text").asText())
        .isEqualTo("Done.");
    assertThat(prompts.get(1).messages()).isNull();
    assertThat(prompts.get(1).arguments()).isEmpty();
  }

  @Test
  void read_glob_readsOneSpecOrListPerFile_dropsInvalidAndDuplicates() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file("prompts/a.prompt.yaml", "name: one\ntemplate: Hi\n")
            .file(
                "prompts/b.prompt.yaml",
                "- {name: two, template: Yo}\n- {name: one, template: again}\n- {name: three}\n");
    skill.prompts = "prompts/*.prompt.yaml";

    List<PromptSpec> prompts = skill.read().prompts();

    assertThat(prompts).extracting(PromptSpec::name).containsExactly("one", "two");
    assertThat(skill.codes())
        .containsExactly(DiagnosticCode.PROMPT_DUPLICATE, DiagnosticCode.PROMPT_INVALID);
    assertThat(prompts.get(0).source()).isEqualTo(skill.dir.resolve("prompts/a.prompt.yaml"));
  }

  @Test
  void read_markdownFile_isOnePromptNamedByItsStem() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file(
                "prompts/review_scene.md",
                "# Review the scene\n\nCheck {{object}} for flipped normals.\n");
    skill.prompts = "prompts/review_scene.md";

    List<PromptSpec> prompts = skill.read().prompts();

    assertThat(skill.codes()).isEmpty();
    assertThat(prompts)
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.name()).isEqualTo("review_scene");
              assertThat(p.description()).isEqualTo("Review the scene");
              assertThat(p.template())
                  .isEqualTo("# Review the scene\n\nCheck {{object}} for flipped normals.\n");
              assertThat(p.arguments())
                  .containsExactly(
                      new PromptArgument("object", "Replaces {{object}} in the prompt.", false));
            });
  }

  @Test
  void read_globOfTextAndMarkdown_dropsTrailingPromptFromTheName() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file("prompts/summarise.prompt.md", "Summarise the open file.")
            .file("prompts/notes.txt", "Plain notes")
            .file("prompts/empty.md", "  \n");
    skill.prompts = "prompts/*";

    List<PromptSpec> prompts = skill.read().prompts();

    assertThat(prompts).extracting(PromptSpec::name).containsExactly("notes", "summarise");
    assertThat(skill.codes()).containsExactly(DiagnosticCode.PROMPT_INVALID);
  }
}

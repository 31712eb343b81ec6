package dev.skillport.server.prompts;

import static dev.skillport.server.resources.SurfaceServer.call;
import static dev.skillport.server.resources.SurfaceServer.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.server.resources.SurfaceServer;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prompts come from the catalog snapshot: once loaded, a prompt file or an example's Markdown can
 * change or go away on disk and {@code prompts/list}, {@code prompts/get} and completion still
 * answer what was loaded, until a reload (here there is none: the server does not watch).
 */
class PromptsSnapshotTest {
  @TempDir Path skills;

  @Test
  void promptsAndCompletion_filesChangedAfterLoad_answerTheLoadedSnapshot() throws Exception {
    write(
        skills.resolve("snap/SKILL.md"),
        "---\nname: snap\ndescription: Declared prompts\n"
            + "metadata:\n  dcc-mcp:\n    prompts: prompts.yaml\n---\nBody.\n");
    write(
        skills.resolve("snap/prompts.yaml"),
        """
        prompts:
          - name: greet
            arguments:
              - {name: who, values: [Ada, Alan]}
            template: ""
            messages:
              - {role: user, content: "Hello {{who}}"}
              - {role: assistant, content: Hi.}
        """);
    write(
        skills.resolve("derived/SKILL.md"),
        "---\nname: derived\ndescription: Example prompts\n"
            + "metadata:\n  dcc-mcp:\n    examples: examples\n---\nBody.\n");
    write(skills.resolve("derived/examples/wave.md"), "# Wave\nWave at {{who}}.\n");

    try (SurfaceServer server = SurfaceServer.start(skills, List.of(), false);
        McpSyncClient client = server.client(s -> s)) {
      client.callTool(call("load_skill", Map.of("skill_name", "snap")));
      client.callTool(call("load_skill", Map.of("skill_name", "derived")));

      write(
          skills.resolve("snap/prompts.yaml"),
          """
          prompts:
            - name: greet
              arguments:
                - {name: who, values: [Zed]}
              template: ""
              messages:
                - {role: user, content: "Changed on disk"}
          """);
      Files.delete(skills.resolve("derived/examples/wave.md"));

      List<McpSchema.PromptMessage> greet =
          client
              .getPrompt(new McpSchema.GetPromptRequest("greet", Map.of("who", "Ada"), null))
              .messages();
      assertThat(greet).extracting(m -> text(m)).containsExactly("Hello Ada", "Hi.");
      assertThat(
              client
                  .completeCompletion(
                      new McpSchema.CompleteRequest(
                          new McpSchema.PromptReference("greet"),
                          new McpSchema.CompleteRequest.CompleteArgument("who", "a"),
                          null,
                          null))
                  .completion()
                  .values())
          .containsExactly("Ada", "Alan");
      assertThat(client.listPrompts().prompts())
          .extracting(McpSchema.Prompt::name)
          .containsExactly("greet", "wave");
      assertThat(
              text(
                  client
                      .getPrompt(new McpSchema.GetPromptRequest("wave", Map.of("who", "Bo"), null))
                      .messages()
                      .get(0)))
          .isEqualTo("# Wave\nWave at Bo.\n");
    }
  }

  private static String text(McpSchema.PromptMessage m) {
    return ((McpSchema.TextContent) m.content()).text();
  }
}

package dev.skillport.server.prompts;

import static dev.skillport.server.resources.SurfaceServer.call;
import static dev.skillport.server.resources.SurfaceServer.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.skillport.server.resources.SurfaceServer;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prompts and completions end to end: real skill folders, real server, the Java SDK client. One
 * server serves the class; every test opens its own session, so loads do not leak between tests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PromptsSurfaceTest {
  static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, 0, 0, 13, 1, 2, 3};

  @TempDir static Path skills;
  private SurfaceServer server;

  @BeforeAll
  void start() throws Exception {
    write(
        skills.resolve("demo-prompts/SKILL.md"),
        """
        ---
        name: demo-prompts
        description: Prompts for testing
        metadata:
          dcc-mcp:
            prompts: prompts.yaml
        ---
        Use the prompts.
        """);
    write(
        skills.resolve("demo-prompts/prompts.yaml"),
        """
        prompts:
          - name: greet
            description: Greets someone
            arguments:
              - name: name
                description: Who
                required: true
                values: [Alice, Albert, Bob]
              - name: place
                description: Where
            template: "Hello {{name}}, welcome to {{place}}!"
          - name: with_image
            description: Shows an image
            template: ""
            messages:
              - role: user
                content: {type: image, path: assets/dot.png}
              - role: assistant
                content: I see one dot.
          - name: with_resource
            arguments:
              - name: resourceUri
                required: true
            template: "Read this:"
            messages:
              - content:
                  type: resource
                  uri: "{{resourceUri}}"
                  mimeType: text/plain
                  text: "Embedded {{resourceUri}}"
          - name: embeds_guide
            template: ""
            messages:
              - content: {type: resource, uri: "skill://demo-prompts/notes/guide.md"}
        """);
    write(
        skills.resolve("confined/SKILL.md"),
        "---\nname: confined\ndescription: Prompts embedding files\n"
            + "metadata:\n  dcc-mcp:\n    prompts: prompts/confined.yaml\n---\nBody.\n");
    write(
        skills.resolve("confined/prompts/confined.yaml"),
        """
        prompts:
          - name: embeds_file
            arguments:
              - name: file
                required: true
            template: ""
            messages:
              - content: {type: resource, uri: "skill://confined/x", path: "{{file}}"}
          - name: embeds_hidden
            template: ""
            messages:
              - content: {type: resource, uri: "skill://confined/x", path: ../.env}
        """);
    write(skills.resolve("confined/.env"), "API_KEY=secret-value\n");
    write(skills.resolve("confined/notes/guide.md"), "# Guide\nStep one.\n");
    write(skills.resolve("outside.txt"), "outside the skill\n");
    Files.createDirectories(skills.resolve("demo-prompts/assets"));
    Files.write(skills.resolve("demo-prompts/assets/dot.png"), PNG);
    write(skills.resolve("demo-prompts/notes/guide.md"), "# Guide\nStep one.\n");
    write(
        skills.resolve("derived/SKILL.md"),
        """
        ---
        name: derived
        description: Prompts from examples, recipes and workflows
        metadata:
          dcc-mcp:
            examples: examples
            recipes: recipes/cube.md
            workflows: workflows/*.workflow.yaml
        ---
        Derived.
        """);
    write(skills.resolve("derived/examples/say-hello.md"), "# Say hello\nSay hello to {{who}}.\n");
    write(skills.resolve("derived/recipes/cube.md"), "Make a cube.\n");
    write(
        skills.resolve("derived/workflows/convert.workflow.yaml"),
        """
        name: convert-all
        description: Converts every file.
        inputs: {folder: {description: Where, required: true}}
        steps:
          - {id: ok, kind: approve, prompt: "Go?"}
        """);
    write(
        skills.resolve("other-prompts/SKILL.md"),
        """
        ---
        name: other-prompts
        description: A second skill with a prompt of the same name
        metadata:
          dcc-mcp:
            prompts: prompts.yaml
        ---
        Other.
        """);
    write(
        skills.resolve("other-prompts/prompts.yaml"),
        "prompts:\n  - name: greet\n    template: Hi from the other skill\n");
    Files.createSymbolicLink(
        skills.resolve("confined/notes/out.md"), skills.resolve("outside.txt"));
    server = SurfaceServer.start(skills, List.of());
  }

  @AfterAll
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private McpSyncClient loaded(String... skillNames) {
    McpSyncClient client = server.client(s -> s);
    for (String name : skillNames) {
      McpSchema.CallToolResult r = client.callTool(call("load_skill", Map.of("skill_name", name)));
      assertThat(r.isError()).isFalse();
    }
    return client;
  }

  private static McpSchema.GetPromptResult get(
      McpSyncClient client, String name, Map<String, Object> args) {
    return client.getPrompt(new McpSchema.GetPromptRequest(name, args, null));
  }

  private static String text(McpSchema.PromptMessage m) {
    return ((McpSchema.TextContent) m.content()).text();
  }

  @Test
  void promptsList_nothingLoaded_isEmpty() {
    try (McpSyncClient client = server.client(s -> s)) {
      assertThat(client.listPrompts().prompts()).isEmpty();
    }
  }

  @Test
  void promptsList_afterLoad_listsDeclaredPromptsWithArguments() {
    try (McpSyncClient client = loaded("demo-prompts")) {
      List<McpSchema.Prompt> prompts = client.listPrompts().prompts();
      assertThat(prompts)
          .extracting(McpSchema.Prompt::name)
          .containsExactly("greet", "with_image", "with_resource", "embeds_guide");
      McpSchema.Prompt greet = prompts.get(0);
      assertThat(greet.description()).isEqualTo("Greets someone");
      assertThat(greet.arguments())
          .extracting(McpSchema.PromptArgument::name, McpSchema.PromptArgument::required)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("name", true),
              org.assertj.core.groups.Tuple.tuple("place", false));
    }
  }

  @Test
  void promptsGet_allArguments_substitutesExactText() {
    try (McpSyncClient client = loaded("demo-prompts")) {
      McpSchema.GetPromptResult r = get(client, "greet", Map.of("name", "Ada", "place", "Oslo"));
      assertThat(r.description()).isEqualTo("Greets someone");
      assertThat(r.messages()).hasSize(1);
      assertThat(r.messages().get(0).role()).isEqualTo(McpSchema.Role.USER);
      assertThat(text(r.messages().get(0))).isEqualTo("Hello Ada, welcome to Oslo!");
    }
  }

  @Test
  void promptsGet_missingOptionalArgument_rendersEmpty() {
    try (McpSyncClient client = loaded("demo-prompts")) {
      McpSchema.GetPromptResult r = get(client, "greet", Map.of("name", "Ada"));
      assertThat(text(r.messages().get(0))).isEqualTo("Hello Ada, welcome to !");
    }
  }

  @Test
  void promptsGet_missingRequiredArgument_isInvalidParams() {
    try (McpSyncClient client = loaded("demo-prompts")) {
      assertThatThrownBy(() -> get(client, "greet", Map.of("place", "Oslo")))
          .isInstanceOfSatisfying(
              McpError.class,
              e -> {
                assertThat(e.getJsonRpcError().code()).isEqualTo(-32602);
                assertThat(e.getMessage()).contains("name");
              });
    }
  }

  @Test
  void promptsGet_unknownOrUnloadedPrompt_isInvalidParams() {
    try (McpSyncClient client = server.client(s -> s)) {
      for (String name : List.of("nope", "greet")) {
        assertThatThrownBy(() -> get(client, name, Map.of()))
            .as(name)
            .isInstanceOfSatisfying(
                McpError.class, e -> assertThat(e.getJsonRpcError().code()).isEqualTo(-32602));
      }
    }
  }

  @Test
  void promptsGet_contentPathFromAnArgument_followsTheResourceRules() {
    try (McpSyncClient client = loaded("confined")) {
      McpSchema.GetPromptResult ok =
          get(client, "embeds_file", Map.of("file", "../notes/guide.md"));
      assertThat(ok.toString()).contains("Step one.");
      for (String file :
          List.of(
              ".env",
              "../demo-prompts/.env",
              "notes/../.env",
              "../outside.txt",
              "notes/out.md",
              "/etc/passwd",
              "notes")) {
        assertThatThrownBy(() -> get(client, "embeds_file", Map.of("file", file)))
            .as(file)
            .isInstanceOfSatisfying(
                McpError.class,
                e -> {
                  assertThat(e.getJsonRpcError().code()).isEqualTo(-32602);
                  assertThat(e.toString()).doesNotContain("secret-value");
                });
      }
    }
  }

  @Test
  void promptsGet_writtenPathToAHiddenFile_isRefused() {
    try (McpSyncClient client = loaded("confined")) {
      assertThatThrownBy(() -> get(client, "embeds_hidden", Map.of()))
          .isInstanceOfSatisfying(
              McpError.class,
              e -> {
                assertThat(e.getJsonRpcError().message()).contains("not a file served");
                assertThat(e.toString()).doesNotContain("secret-value");
              });
    }
  }

  @Test
  void promptsGet_imageMessage_carriesFileBytesAndMimeType() {
    try (McpSyncClient client = loaded("demo-prompts")) {
      McpSchema.GetPromptResult r = get(client, "with_image", Map.of());
      assertThat(r.messages()).hasSize(2);
      McpSchema.ImageContent image = (McpSchema.ImageContent) r.messages().get(0).content();
      assertThat(image.mimeType()).isEqualTo("image/png");
      assertThat(Base64.getDecoder().decode(image.data())).isEqualTo(PNG);
      assertThat(r.messages().get(1).role()).isEqualTo(McpSchema.Role.ASSISTANT);
      assertThat(text(r.messages().get(1))).isEqualTo("I see one dot.");
    }
  }

  @Test
  void promptsGet_embeddedResource_substitutesUriAndText() {
    try (McpSyncClient client = loaded("demo-prompts")) {
      McpSchema.GetPromptResult r =
          get(client, "with_resource", Map.of("resourceUri", "test://example-resource"));
      assertThat(text(r.messages().get(0))).isEqualTo("Read this:");
      McpSchema.EmbeddedResource embedded =
          (McpSchema.EmbeddedResource) r.messages().get(1).content();
      McpSchema.TextResourceContents contents =
          (McpSchema.TextResourceContents) embedded.resource();
      assertThat(contents.uri()).isEqualTo("test://example-resource");
      assertThat(contents.mimeType()).isEqualTo("text/plain");
      assertThat(contents.text()).isEqualTo("Embedded test://example-resource");
    }
  }

  @Test
  void promptsGet_embeddedResourceByUri_readsTheSkillFile() {
    try (McpSyncClient client = loaded("demo-prompts")) {
      McpSchema.GetPromptResult r = get(client, "embeds_guide", Map.of());
      assertThat(r.messages()).hasSize(1);
      McpSchema.TextResourceContents contents =
          (McpSchema.TextResourceContents)
              ((McpSchema.EmbeddedResource) r.messages().get(0).content()).resource();
      assertThat(contents.uri()).isEqualTo("skill://demo-prompts/notes/guide.md");
      assertThat(contents.mimeType()).isEqualTo("text/markdown");
      assertThat(contents.text()).isEqualTo("# Guide\nStep one.\n");
    }
  }

  @Test
  void promptsList_skillWithoutPrompts_derivesFromExamplesRecipesAndWorkflows() {
    try (McpSyncClient client = loaded("derived")) {
      List<McpSchema.Prompt> prompts = client.listPrompts().prompts();
      assertThat(prompts)
          .extracting(McpSchema.Prompt::name)
          .containsExactly("say-hello", "cube", "convert-all");
      assertThat(prompts.get(0).description()).isEqualTo("Say hello");
      assertThat(prompts.get(0).arguments())
          .singleElement()
          .satisfies(
              a -> {
                assertThat(a.name()).isEqualTo("who");
                assertThat(a.required()).isFalse();
              });
      assertThat(text(get(client, "say-hello", Map.of("who", "Bo")).messages().get(0)))
          .isEqualTo("# Say hello\nSay hello to Bo.\n");
      assertThat(prompts.get(2).arguments())
          .singleElement()
          .satisfies(a -> assertThat(a.required()).isTrue());
      assertThat(text(get(client, "convert-all", Map.of("folder", "/tmp/in")).messages().get(0)))
          .contains("convert-all")
          .contains("folder = /tmp/in");
    }
  }

  @Test
  void promptsList_smallPages_visitEveryPromptOnce() throws Exception {
    try (McpSyncClient client = loaded("demo-prompts", "derived")) {
      List<String> names = new ArrayList<>();
      String cursor = null;
      do {
        McpSchema.ListPromptsResult page = client.listPrompts(cursor);
        page.prompts().forEach(p -> names.add(p.name()));
        cursor = page.nextCursor();
      } while (cursor != null);
      assertThat(names).hasSize(7).doesNotHaveDuplicates();
    }
  }

  @Test
  void promptsList_sameNameInTwoLoadedSkills_qualifiesBoth() {
    try (McpSyncClient client = loaded("demo-prompts", "other-prompts")) {
      assertThat(client.listPrompts().prompts())
          .extracting(McpSchema.Prompt::name)
          .contains("demo-prompts__greet", "other-prompts__greet", "with_image")
          .doesNotContain("greet");
      assertThat(text(get(client, "other-prompts__greet", Map.of()).messages().get(0)))
          .isEqualTo("Hi from the other skill");
    }
  }

  @Test
  void promptsList_invalidCursor_isInvalidParams() {
    try (McpSyncClient client = loaded("demo-prompts")) {
      assertThatThrownBy(() -> client.listPrompts("not-a-cursor"))
          .isInstanceOfSatisfying(
              McpError.class, e -> assertThat(e.getJsonRpcError().code()).isEqualTo(-32602));
    }
  }

  @Test
  void loadAndUnload_sendPromptsAndResourcesListChanged() {
    List<List<McpSchema.Prompt>> promptChanges = new CopyOnWriteArrayList<>();
    List<List<McpSchema.Resource>> resourceChanges = new CopyOnWriteArrayList<>();
    try (McpSyncClient client =
        server.client(
            s ->
                s.promptsChangeConsumer(promptChanges::add)
                    .resourcesChangeConsumer(resourceChanges::add))) {
      client.callTool(call("load_skill", Map.of("skill_name", "demo-prompts")));
      await().atMost(Duration.ofSeconds(10)).until(() -> !promptChanges.isEmpty());
      await().atMost(Duration.ofSeconds(10)).until(() -> !resourceChanges.isEmpty());
      assertThat(promptChanges.get(promptChanges.size() - 1))
          .extracting(McpSchema.Prompt::name)
          .contains("greet");
      int prompts = promptChanges.size();
      int resources = resourceChanges.size();
      client.callTool(call("unload_skill", Map.of("skill_name", "demo-prompts")));
      await().atMost(Duration.ofSeconds(10)).until(() -> promptChanges.size() > prompts);
      await().atMost(Duration.ofSeconds(10)).until(() -> resourceChanges.size() > resources);
      assertThat(promptChanges.get(promptChanges.size() - 1)).isEmpty();
    }
  }

  @Test
  void completion_promptArgument_offersDeclaredValuesByPrefix() {
    try (McpSyncClient client = loaded("demo-prompts")) {
      McpSchema.CompleteResult r =
          client.completeCompletion(
              new McpSchema.CompleteRequest(
                  new McpSchema.PromptReference("greet"),
                  new McpSchema.CompleteRequest.CompleteArgument("name", "al"),
                  null,
                  null));
      assertThat(r.completion().values()).containsExactly("Alice", "Albert");
      assertThat(r.completion().total()).isEqualTo(2);
      assertThat(r.completion().hasMore()).isFalse();
      McpSchema.CompleteResult none =
          client.completeCompletion(
              new McpSchema.CompleteRequest(
                  new McpSchema.PromptReference("greet"),
                  new McpSchema.CompleteRequest.CompleteArgument("place", ""),
                  null,
                  null));
      assertThat(none.completion().values()).isEmpty();
    }
  }

  @Test
  void completion_unknownPrompt_isInvalidParams() {
    try (McpSyncClient client = loaded("demo-prompts")) {
      assertThatThrownBy(
              () ->
                  client.completeCompletion(
                      new McpSchema.CompleteRequest(
                          new McpSchema.PromptReference("nope"),
                          new McpSchema.CompleteRequest.CompleteArgument("x", ""),
                          null,
                          null)))
          .isInstanceOfSatisfying(
              McpError.class, e -> assertThat(e.getJsonRpcError().code()).isEqualTo(-32602));
    }
  }
}

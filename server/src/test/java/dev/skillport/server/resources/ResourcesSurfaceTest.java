package dev.skillport.server.resources;

import static dev.skillport.server.resources.SurfaceServer.call;
import static dev.skillport.server.resources.SurfaceServer.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.skillport.api.resource.ResourceContents;
import dev.skillport.api.resource.ResourceDescriptor;
import dev.skillport.api.resource.ResourceEvents;
import dev.skillport.api.resource.ResourceProvider;
import dev.skillport.api.resource.ResourceTemplate;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resources end to end: declared skill resources, skill files, a Java provider with a template,
 * subscriptions and their notifications, through a real server and the Java SDK client.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ResourcesSurfaceTest {
  static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, 0, 0, 13, (byte) 0xff};
  private static final Duration WAIT = Duration.ofSeconds(15);

  @TempDir static Path skills;
  @TempDir static Path outside;
  private final SceneProvider provider = new SceneProvider();
  private SurfaceServer server;

  /** A provider like a host adapter's: one live resource and one template. */
  static final class SceneProvider implements ResourceProvider {
    private static final Pattern DATA = Pattern.compile("test://template/([^/]+)/data");
    volatile ResourceEvents events;
    volatile String scene = "{\"objects\":1}";

    @Override
    public List<ResourceDescriptor> resources() {
      return List.of(
          new ResourceDescriptor("scene://current", "scene", "The open scene", "application/json"));
    }

    @Override
    public List<ResourceTemplate> templates() {
      return List.of(
          new ResourceTemplate("test://template/{id}/data", "data", "Data by id", "text/plain"));
    }

    @Override
    public Optional<ResourceContents> read(String uri) {
      if (uri.equals("scene://current")) {
        return Optional.of(ResourceContents.text(uri, "application/json", scene));
      }
      Matcher m = DATA.matcher(uri);
      if (m.matches()) {
        return Optional.of(ResourceContents.text(uri, "text/plain", "Data for id " + m.group(1)));
      }
      return Optional.empty();
    }

    @Override
    public List<String> complete(String uriTemplate, String variable, String prefix) {
      return variable.equals("id") ? List.of("alpha", "beta", "alphabet") : List.of();
    }

    @Override
    public void attach(ResourceEvents events) {
      this.events = events;
    }
  }

  @BeforeAll
  void start() throws Exception {
    write(
        skills.resolve("res-skill/SKILL.md"),
        """
        ---
        name: res-skill
        description: Resources for testing
        metadata:
          dcc-mcp:
            resources: resources.yaml
        ---
        Read the resources.
        """);
    write(
        skills.resolve("res-skill/resources.yaml"),
        """
        resources:
          - uri: test://static-text
            name: static-text
            description: A static text
            mimeType: text/plain
            source: {type: file, path: data/static.txt}
          - uri: test://static-binary
            name: static-binary
            mimeType: image/png
            source: {type: file, path: assets/dot.png}
          - uri: test://watched-resource
            name: watched
            mimeType: text/plain
            source: {type: file, path: data/watched.txt}
        """);
    write(skills.resolve("res-skill/data/static.txt"), "This is the content of the static text.\n");
    write(skills.resolve("res-skill/data/watched.txt"), "v1");
    write(skills.resolve("res-skill/.secret"), "hidden");
    Files.createDirectories(skills.resolve("res-skill/assets"));
    Files.write(skills.resolve("res-skill/assets/dot.png"), PNG);
    write(outside.resolve("private.txt"), "not yours");
    Files.createSymbolicLink(
        skills.resolve("res-skill/data/escape.txt"), outside.resolve("private.txt"));
    server = SurfaceServer.start(skills, List.of(provider));
  }

  @AfterAll
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static List<String> uris(McpSyncClient client) {
    return client.listResources().resources().stream().map(McpSchema.Resource::uri).toList();
  }

  private static McpSchema.ReadResourceResult read(McpSyncClient client, String uri) {
    return client.readResource(new McpSchema.ReadResourceRequest(uri, null));
  }

  private static int errorCode(Throwable t) {
    return ((McpError) t).getJsonRpcError().code();
  }

  @Test
  void resourcesList_nothingLoaded_listsProviderAndSkillFilesOnly() {
    try (McpSyncClient client = server.client(s -> s)) {
      List<McpSchema.Resource> listed = client.listResources().resources();
      assertThat(listed).extracting(McpSchema.Resource::uri).doesNotContain("test://static-text");
      assertThat(listed.get(0).uri()).isEqualTo("scene://current");
      assertThat(listed)
          .filteredOn(r -> r.uri().equals("skill://res-skill/SKILL.md"))
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.name()).isEqualTo("res-skill");
                assertThat(r.description()).isEqualTo("Resources for testing");
                assertThat(r.mimeType()).isEqualTo("text/markdown");
              });
      assertThat(listed)
          .extracting(McpSchema.Resource::uri)
          .contains("skill://res-skill/data/static.txt", "skill://res-skill/assets/dot.png")
          .doesNotContain("skill://res-skill/.secret", "skill://res-skill/data/escape.txt");
    }
  }

  @Test
  void resourcesList_afterLoad_listsDeclaredResourcesFirst() {
    try (McpSyncClient client = server.client(s -> s)) {
      client.callTool(call("load_skill", Map.of("skill_name", "res-skill")));
      List<McpSchema.Resource> listed = client.listResources().resources();
      assertThat(listed.subList(0, 4))
          .extracting(McpSchema.Resource::uri, McpSchema.Resource::mimeType)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("test://static-text", "text/plain"),
              org.assertj.core.groups.Tuple.tuple("test://static-binary", "image/png"),
              org.assertj.core.groups.Tuple.tuple("test://watched-resource", "text/plain"),
              org.assertj.core.groups.Tuple.tuple("scene://current", "application/json"));
      assertThat(listed.get(0).description()).isEqualTo("A static text");
    }
  }

  @Test
  void resourcesRead_declaredText_isExactTextWithMimeType() {
    try (McpSyncClient client = server.client(s -> s)) {
      client.callTool(call("load_skill", Map.of("skill_name", "res-skill")));
      McpSchema.TextResourceContents c =
          (McpSchema.TextResourceContents) read(client, "test://static-text").contents().get(0);
      assertThat(c.uri()).isEqualTo("test://static-text");
      assertThat(c.mimeType()).isEqualTo("text/plain");
      assertThat(c.text()).isEqualTo("This is the content of the static text.\n");
    }
  }

  @Test
  void resourcesRead_declaredBinary_isBlobOfExactBytes() {
    try (McpSyncClient client = server.client(s -> s)) {
      client.callTool(call("load_skill", Map.of("skill_name", "res-skill")));
      McpSchema.BlobResourceContents c =
          (McpSchema.BlobResourceContents) read(client, "test://static-binary").contents().get(0);
      assertThat(c.mimeType()).isEqualTo("image/png");
      assertThat(Base64.getDecoder().decode(c.blob())).isEqualTo(PNG);
    }
  }

  @Test
  void resourcesRead_declaredResourceOfUnloadedSkill_isNotFound() {
    try (McpSyncClient client = server.client(s -> s)) {
      assertThatThrownBy(() -> read(client, "test://static-text"))
          .isInstanceOfSatisfying(McpError.class, e -> assertThat(errorCode(e)).isEqualTo(-32002));
    }
  }

  @Test
  void resourcesRead_skillFileOfUnloadedSkill_isServed() {
    try (McpSyncClient client = server.client(s -> s)) {
      McpSchema.TextResourceContents c =
          (McpSchema.TextResourceContents)
              read(client, "skill://res-skill/data/static.txt").contents().get(0);
      assertThat(c.mimeType()).isEqualTo("text/plain");
      assertThat(c.text()).isEqualTo("This is the content of the static text.\n");
    }
  }

  @Test
  void resourcesRead_pathLeavingTheSkillOrHidden_isRefused() {
    try (McpSyncClient client = server.client(s -> s)) {
      for (String uri :
          List.of(
              "skill://res-skill/../res-skill/SKILL.md",
              "skill://res-skill/.secret",
              "skill://res-skill/data/escape.txt",
              "skill://res-skill/data",
              "skill://res-skill/SKILL%00.md",
              "skill://res-skill/%zz",
              "skill://res-skill/a b",
              "skill://no-such-skill/SKILL.md")) {
        assertThatThrownBy(() -> read(client, uri))
            .as(uri)
            .isInstanceOfSatisfying(
                McpError.class, e -> assertThat(errorCode(e)).isEqualTo(-32602));
      }
    }
  }

  @Test
  void resourceTemplates_listAndRead_substituteTheId() {
    try (McpSyncClient client = server.client(s -> s)) {
      assertThat(client.listResourceTemplates().resourceTemplates())
          .extracting(McpSchema.ResourceTemplate::uriTemplate)
          .containsExactly("test://template/{id}/data");
      McpSchema.TextResourceContents c =
          (McpSchema.TextResourceContents)
              read(client, "test://template/42/data").contents().get(0);
      assertThat(c.text()).isEqualTo("Data for id 42");
    }
  }

  @Test
  void completion_templateVariable_comesFromTheProviderByPrefix() {
    try (McpSyncClient client = server.client(s -> s)) {
      McpSchema.CompleteResult r =
          client.completeCompletion(
              new McpSchema.CompleteRequest(
                  new McpSchema.ResourceReference("test://template/{id}/data"),
                  new McpSchema.CompleteRequest.CompleteArgument("id", "AL"),
                  null,
                  null));
      assertThat(r.completion().values()).containsExactly("alpha", "alphabet");
    }
  }

  @Test
  void subscribe_fileChanges_notifiesUntilUnsubscribed() throws Exception {
    List<McpSchema.ResourceContents> updates = new CopyOnWriteArrayList<>();
    try (McpSyncClient client = server.client(s -> s.resourcesUpdateConsumer(updates::addAll))) {
      client.callTool(call("load_skill", Map.of("skill_name", "res-skill")));
      client.subscribeResource(new McpSchema.SubscribeRequest("test://watched-resource", null));
      Files.writeString(skills.resolve("res-skill/data/watched.txt"), "v2");
      await().atMost(WAIT).until(() -> !updates.isEmpty());
      McpSchema.TextResourceContents c = (McpSchema.TextResourceContents) updates.get(0);
      assertThat(c.uri()).isEqualTo("test://watched-resource");
      assertThat(c.text()).isEqualTo("v2");

      client.unsubscribeResource(new McpSchema.UnsubscribeRequest("test://watched-resource", null));
      Files.writeString(skills.resolve("res-skill/data/watched.txt"), "v3");
      // Several check periods pass: a subscription would have reported the change by then.
      Thread.sleep(2_000);
      assertThat(updates).hasSize(1);
    }
  }

  @Test
  void provider_signalsUpdateAndListChange_reachSubscribedSessions() {
    List<McpSchema.ResourceContents> updates = new CopyOnWriteArrayList<>();
    List<List<McpSchema.Resource>> listChanges = new CopyOnWriteArrayList<>();
    try (McpSyncClient client =
        server.client(
            s ->
                s.resourcesUpdateConsumer(updates::addAll)
                    .resourcesChangeConsumer(listChanges::add))) {
      client.subscribeResource(new McpSchema.SubscribeRequest("scene://current", null));
      provider.scene = "{\"objects\":2}";
      provider.events.updated("scene://current");
      await().atMost(WAIT).until(() -> !updates.isEmpty());
      assertThat(((McpSchema.TextResourceContents) updates.get(0)).text())
          .isEqualTo("{\"objects\":2}");
      provider.events.listChanged();
      await().atMost(WAIT).until(() -> !listChanges.isEmpty());
      assertThat(listChanges.get(0))
          .extracting(McpSchema.Resource::uri)
          .contains("scene://current");
    }
  }

  @Test
  void serverCapabilities_declareResourcesPromptsCompletionsAndSkillsExtension() {
    try (McpSyncClient client = server.client(s -> s)) {
      McpSchema.ServerCapabilities caps = client.getServerCapabilities();
      assertThat(caps.resources().subscribe()).isTrue();
      assertThat(caps.resources().listChanged()).isTrue();
      assertThat(caps.prompts().listChanged()).isTrue();
      assertThat(caps.completions()).isNotNull();
    }
  }
}

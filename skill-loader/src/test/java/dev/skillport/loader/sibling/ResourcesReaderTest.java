package dev.skillport.loader.sibling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.ResourceSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResourcesReaderTest {
  @TempDir Path tmp;

  @Test
  void read_directory_makesEveryFileAResourceWithUriAndMime() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file("assets/guide.md", "# Guide")
            .file("assets/img/logo one.png", "x")
            .file("assets/.secret", "x")
            .file("assets/data.bin", "x");
    skill.resources = "assets";

    List<ResourceSpec> resources = skill.read().resources();

    assertThat(resources)
        .extracting(ResourceSpec::uri, ResourceSpec::mimeType)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "skill://demo-skill/assets/data.bin", "application/octet-stream"),
            org.assertj.core.groups.Tuple.tuple(
                "skill://demo-skill/assets/guide.md", "text/markdown"),
            org.assertj.core.groups.Tuple.tuple(
                "skill://demo-skill/assets/img/logo%20one.png", "image/png"));
    assertThat(resources.get(1).name()).isEqualTo("guide.md");
  }

  @Test
  void read_manifest_resolvesPathsFromItsFolderAndDropsBadEntries() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file("res/docs/api.json", "{}")
            .file(
                "res/resources.yaml",
                """
                resources:
                  - uri: docs://api
                    name: API
                    description: The API.
                    source: {type: file, path: docs/api.json}
                  - {uri: docs://api, source: {type: file, path: docs/api.json}}
                  - {source: {type: file, path: docs/missing.txt}}
                  - {source: {type: http, path: x}}
                  - {source: {type: file, path: docs/api.json}, mimeType: text/x-custom}
                """);
    skill.resources = "res/resources.yaml";

    List<ResourceSpec> resources = skill.read().resources();

    assertThat(resources)
        .extracting(ResourceSpec::uri, ResourceSpec::mimeType)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("docs://api", "application/json"),
            org.assertj.core.groups.Tuple.tuple(
                "skill://demo-skill/res/docs/api.json", "text/x-custom"));
    assertThat(resources.get(0).path()).isEqualTo(skill.dir.resolve("res/docs/api.json"));
    assertThat(skill.codes())
        .containsExactly(
            DiagnosticCode.RESOURCE_DUPLICATE,
            DiagnosticCode.RESOURCE_INVALID,
            DiagnosticCode.RESOURCE_INVALID);
  }

  @Test
  void read_manifestPathEscaping_isEscapesError() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file("res/resources.yaml", "- {source: {type: file, path: ../../etc.txt}}\n");
    skill.resources = "res/resources.yaml";

    assertThat(skill.read().resources()).isEmpty();
    assertThat(skill.codes()).containsExactly(DiagnosticCode.SIBLING_ESCAPES);
  }
}

package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stdio server started twice through {@code bin/skillport} with the same command, environment and
 * skill files: the second start answers the client's opening from the start cache, and the client
 * cannot tell the answers apart.
 */
class StartCacheIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ANSWERED = "requests of the opening from the start cache";

  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
          + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"%s\",\"version\":\"1\"}}}";
  private static final List<String> OPENING =
      List.of(
          String.format(INITIALIZE, "start-cache-it"),
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");

  private static Path jar;
  private static Path launcher;
  private static Path samples;

  @TempDir Path temp;
  private Path skills;

  @BeforeAll
  static void locate() {
    jar = Path.of(System.getProperty("skillport.jar", "target/skillport.jar")).toAbsolutePath();
    samples =
        Path.of(System.getProperty("skillport.samples", "../samples/skills")).toAbsolutePath();
    launcher = samples.getParent().getParent().resolve("bin/skillport");
    assertThat(launcher).isExecutable();
  }

  @BeforeEach
  void copyGuide() throws IOException {
    skills = temp.resolve("skills");
    Path guide = samples.getParent().resolve("guide");
    try (Stream<Path> files = Files.walk(guide)) {
      for (Path from : files.toList()) {
        Path to = skills.resolve(guide.relativize(from).toString());
        if (Files.isDirectory(from)) {
          Files.createDirectories(to);
        } else {
          Files.copy(from, to);
        }
      }
    }
    // The server here loads no SDK jar, and a skill naming a handler no one registers is skipped:
    // the copy binds hello to the skill's own script instead.
    Path tools = skills.resolve("greeting/tools.yaml");
    Files.writeString(
        tools,
        Files.readString(tools)
            .replace("handler: greeting.hello", "source_file: scripts/shout.py"));
    age();
  }

  /** Dates every skill file an hour back: a file written just now is too fresh to be cached. */
  private void age() throws IOException {
    FileTime hourAgo = FileTime.from(Instant.now().minusSeconds(3600));
    try (Stream<Path> files = Files.walk(skills)) {
      for (Path file : files.toList()) {
        Files.setLastModifiedTime(file, hourAgo);
      }
    }
  }

  private record Run(List<JsonNode> out, String err) {
    JsonNode answer(int id) {
      return out.stream()
          .filter(m -> m.path("id").asInt(-1) == id)
          .findFirst()
          .orElseThrow(() -> new AssertionError("no answer to " + id + " in " + out));
    }

    String description(String tool) {
      for (JsonNode t : answer(2).path("result").path("tools")) {
        if (t.path("name").asText().equals(tool)) {
          return t.path("description").asText();
        }
      }
      throw new AssertionError(tool + " is not listed: " + out);
    }

    /** The answers by id: a server may answer a request read later first. */
    Map<Integer, JsonNode> answers() {
      Map<Integer, JsonNode> byId = new TreeMap<>();
      out.stream().filter(m -> m.has("id")).forEach(m -> byId.put(m.path("id").asInt(), m));
      return byId;
    }

    boolean fromCache() {
      return err.contains(ANSWERED);
    }
  }

  private Run serve(List<String> opening, String... extra)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(launcher.toString());
    command.addAll(List.of("serve", "--stdio", "--no-watch", "--no-bundled"));
    command.addAll(List.of("--skills", skills.toString()));
    command.addAll(List.of(extra));
    Path err = temp.resolve("err.txt");
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(err.toFile());
    builder.environment().put("SKILLPORT_JAR", jar.toString());
    builder.environment().put("PATH", javaBin() + ":" + System.getenv("PATH"));
    builder.environment().remove("JAVA_OPTS");
    builder.environment().put("HOME", temp.resolve("home").toString());
    builder.environment().put("TMPDIR", Files.createDirectories(temp.resolve("tmp")).toString());
    builder.environment().put("SKILLPORT_LOG_LEVEL", "info");
    Process p = builder.start();
    try (OutputStream in = p.getOutputStream()) {
      for (String line : opening) {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
    List<JsonNode> out = new ArrayList<>();
    for (String line :
        new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
      if (!line.isBlank()) {
        out.add(JSON.readTree(line));
      }
    }
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("server ended with its input").isTrue();
    assertThat(p.exitValue()).isZero();
    return new Run(out, Files.readString(err));
  }

  private Path cacheFolder() {
    return temp.resolve("home/.skillport/start-cache");
  }

  private static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin").toString();
  }

  @Test
  void serve_sameCommandTwice_secondAnswersTheOpeningFromTheCacheAlike() throws Exception {
    Run first = serve(OPENING);
    Run second = serve(OPENING);

    assertThat(first.fromCache()).isFalse();
    assertThat(second.fromCache()).as(second.err()).isTrue();
    assertThat(second.err()).contains("answered 3 " + ANSWERED);
    assertThat(second.answers()).isEqualTo(first.answers()).hasSize(3);
    assertThat(second.out()).hasSize(3);
    assertThat(first.answer(2).path("result").path("tools").size()).isGreaterThan(2);
    try (Stream<Path> files = Files.list(cacheFolder())) {
      Path kept = files.filter(f -> f.toString().endsWith(".opening")).findFirst().orElseThrow();
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(kept)))
          .isEqualTo("rw-------");
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cacheFolder())))
        .isEqualTo("rwx------");
  }

  @Test
  void serve_afterASkillChanged_startsAfreshThenCachesTheChange() throws Exception {
    serve(OPENING);
    Path skill = skills.resolve("greeting/SKILL.md");
    Files.writeString(
        skill, Files.readString(skill).replace("say hi, introduce", "say hello, introduce"));
    age();

    Run changed = serve(OPENING);
    Run again = serve(OPENING);

    assertThat(changed.fromCache()).isFalse();
    assertThat(changed.description("__skill__greeting")).contains("say hello, introduce");
    assertThat(again.fromCache()).isTrue();
    assertThat(again.answers()).isEqualTo(changed.answers());
  }

  @Test
  void serve_aChangeTheFilesDoNotShow_isListedAgainAfterListChanged() throws Exception {
    serve(OPENING);
    // Same size, same modification time: only the server's own listing can tell.
    Path skill = skills.resolve("greeting/SKILL.md");
    FileTime modified = Files.getLastModifiedTime(skill);
    Files.writeString(
        skill, Files.readString(skill).replace("say hi, introduce", "say yo, introduce"));
    Files.setLastModifiedTime(skill, modified);

    Run stale = serve(OPENING);
    Run healed = serve(OPENING);

    assertThat(stale.fromCache()).isTrue();
    assertThat(stale.description("__skill__greeting")).contains("say hi, introduce");
    assertThat(stale.out())
        .anySatisfy(
            m ->
                assertThat(m.path("method").asText())
                    .isEqualTo("notifications/tools/list_changed"));
    assertThat(healed.fromCache()).isTrue();
    assertThat(healed.description("__skill__greeting")).contains("say yo, introduce");
    assertThat(healed.out())
        .noneSatisfy(
            m ->
                assertThat(m.path("method").asText())
                    .isEqualTo("notifications/tools/list_changed"));
  }

  @Test
  void serve_aClientOpeningOtherwise_getsTheServersOwnAnswers() throws Exception {
    Run first = serve(OPENING);
    List<String> other = new ArrayList<>(OPENING);
    other.set(0, String.format(INITIALIZE, "another-client"));

    Run second = serve(other);

    assertThat(second.fromCache()).isFalse();
    assertThat(second.answer(1).path("result").path("protocolVersion").asText())
        .isEqualTo("2025-06-18");
    assertThat(second.answer(2)).isEqualTo(first.answer(2));
    assertThat(second.answer(3).path("result").isObject()).isTrue();
  }

  @Test
  void serve_noStartCache_neitherAnswersNorKeeps() throws Exception {
    serve(OPENING, "--no-start-cache");
    Run second = serve(OPENING, "--no-start-cache");

    assertThat(second.fromCache()).isFalse();
    assertThat(second.answer(2).path("result").path("tools").size()).isGreaterThan(2);
    assertThat(cacheFolder()).doesNotExist();
  }
}

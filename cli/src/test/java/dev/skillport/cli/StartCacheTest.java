package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.cli.StartCache.Answer;
import dev.skillport.cli.StartCache.Opening;
import dev.skillport.cli.StartCache.OpeningMessage;
import dev.skillport.cli.StartCache.Step;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class StartCacheTest {
  @TempDir Path temp;

  private static final String[] SERVE = {"serve", "--stdio", "--skills", "/skills"};

  private Properties properties() {
    Properties p = new Properties();
    p.setProperty("user.home", temp.resolve("home").toString());
    p.setProperty("java.version", "17");
    return p;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static Opening opening(List<Path> files, byte[] digest, String listing) {
    return new Opening(
        files,
        digest,
        List.of(
            new Step("initialize", bytes("{\"protocolVersion\":\"2025-06-18\"}"), bytes("{}")),
            new Step("notifications/initialized", new byte[0], null),
            new Step("tools/list", new byte[0], bytes(listing))));
  }

  @Test
  void of_sameProcess_namesTheSameFile_andAnyDifferenceAnother() {
    Map<String, String> env = Map.of("PATH", "/bin", "SKILLPORT_SKILLS_PATH", "/a");
    Path file = StartCache.of(SERVE, env, properties()).file();

    assertThat(StartCache.of(SERVE.clone(), Map.copyOf(env), properties()).file()).isEqualTo(file);
    assertThat(
            StartCache.of(
                    SERVE, Map.of("PATH", "/bin", "SKILLPORT_SKILLS_PATH", "/b"), properties())
                .file())
        .isNotEqualTo(file);
    assertThat(
            StartCache.of(
                    new String[] {"serve", "--stdio", "--skills", "/other"}, env, properties())
                .file())
        .isNotEqualTo(file);
    Properties more = properties();
    more.setProperty("skillport.log.level", "debug");
    assertThat(StartCache.of(SERVE, env, more).file()).isNotEqualTo(file);
    assertThat(file.getParent()).isEqualTo(temp.resolve("home/.skillport/start-cache"));
  }

  @Test
  void of_anythingButAStdioServeWithAHome_hasNoCache() {
    Map<String, String> env = Map.of();
    assertThat(StartCache.of(new String[] {"list"}, env, properties())).isNull();
    assertThat(StartCache.of(new String[] {}, env, properties())).isNull();
    assertThat(StartCache.of(new String[] {"serve", "--http"}, env, properties())).isNull();
    assertThat(StartCache.of(new String[] {"serve", "--no-start-cache"}, env, properties()))
        .isNull();
    assertThat(StartCache.of(SERVE, env, new Properties())).isNull();
    assertThat(StartCache.of(SERVE, env, properties())).isNotNull();
  }

  @Test
  void valid_afterSave_isTheOpening_untilAFileItReadChanges() throws IOException {
    Path skills = Files.createDirectories(temp.resolve("skills/greeting"));
    Path skillFile = Files.writeString(skills.resolve("SKILL.md"), "one");
    Path absent = temp.resolve("plugins");
    List<Path> files = List.of(temp.resolve("skills"), absent);
    StartCache cache = StartCache.of(SERVE, Map.of(), properties());
    Opening opening = opening(files, StartCache.fingerprint(files).digest(), "{\"tools\":[]}");

    cache.save(opening);

    assertThat(cache.valid()).isNotNull().matches(kept -> kept.sameAs(opening));
    Files.writeString(skillFile, "two!");
    assertThat(cache.valid()).as("a file of another size").isNull();

    Files.writeString(skillFile, "one");
    cache.save(opening(files, StartCache.fingerprint(files).digest(), "{}"));
    assertThat(cache.valid()).isNotNull();
    Files.writeString(skills.resolve("tools.yaml"), "tools: []");
    assertThat(cache.valid()).as("a file added").isNull();

    cache.save(opening(files, StartCache.fingerprint(files).digest(), "{}"));
    assertThat(cache.valid()).isNotNull();
    Files.createDirectories(absent);
    assertThat(cache.valid()).as("a folder that was absent").isNull();

    cache.save(opening(files, StartCache.fingerprint(files).digest(), "{}"));
    Files.setLastModifiedTime(skillFile, FileTime.from(Instant.now().minusSeconds(60)));
    assertThat(cache.valid()).as("a file modified again").isNull();
  }

  @Test
  void valid_aDamagedOrForeignFile_isNotUsed() throws IOException {
    List<Path> files = List.of(temp.resolve("nothing"));
    byte[] digest = StartCache.fingerprint(files).digest();
    StartCache cache = StartCache.of(SERVE, Map.of(), properties());
    StartCache other = StartCache.of(SERVE, Map.of("X", "1"), properties());
    other.save(opening(files, digest, "{}"));

    Files.copy(other.file(), cache.file());
    assertThat(cache.valid()).as("another process's file").isNull();

    cache.save(opening(files, digest, "{}"));
    byte[] whole = Files.readAllBytes(cache.file());
    Files.write(cache.file(), java.util.Arrays.copyOf(whole, whole.length - 3));
    assertThat(cache.valid()).as("a truncated file").isNull();
    Files.write(cache.file(), new byte[] {1, 2, 3});
    assertThat(cache.valid()).as("not a cache file").isNull();
  }

  @Test
  @Timeout(10)
  void valid_aFifoOrALinkInTheFilesPlace_isNotRead() throws Exception {
    List<Path> files = List.of(temp.resolve("nothing"));
    StartCache cache = StartCache.of(SERVE, Map.of(), properties());
    Path elsewhere = temp.resolve("elsewhere.opening");
    cache.save(opening(files, StartCache.fingerprint(files).digest(), "{}"));
    Files.move(cache.file(), elsewhere);

    Files.createSymbolicLink(cache.file(), elsewhere);
    assertThat(cache.valid()).as("a link").isNull();

    Files.delete(cache.file());
    Process mkfifo = new ProcessBuilder("mkfifo", cache.file().toString()).start();
    assertThat(mkfifo.waitFor()).isZero();
    // Reading a FIFO with no writer would block: valid() must return at once.
    assertThat(cache.valid()).as("a FIFO").isNull();
  }

  @Test
  void save_keepsTheNewestFilesOnly() throws IOException {
    List<Path> files = List.of(temp.resolve("nothing"));
    byte[] digest = StartCache.fingerprint(files).digest();
    StartCache last = null;
    for (int i = 0; i < StartCache.KEPT_FILES + 3; i++) {
      last = StartCache.of(SERVE, Map.of("N", Integer.toString(i)), properties());
      last.save(opening(files, digest, "{}"));
      Files.setLastModifiedTime(last.file(), FileTime.from(Instant.now().minusSeconds(100 - i)));
    }

    try (Stream<Path> kept = Files.list(last.file().getParent())) {
      assertThat(kept.toList()).hasSize(StartCache.KEPT_FILES).contains(last.file());
    }
  }

  @Test
  void hasher_distinctInputs_getDistinctHashes_differingInBothHalves() {
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int i = 0; i < 100_000; i++) {
      StartCache.Hasher h = new StartCache.Hasher();
      h.update(bytes("SKILLPORT_SKILLS_PATH=/skills/" + i));
      seen.add(java.util.HexFormat.of().formatHex(h.digest()));
    }
    assertThat(seen).hasSize(100_000);

    StartCache.Hasher one = new StartCache.Hasher();
    one.update(bytes("a"));
    StartCache.Hasher other = new StartCache.Hasher();
    other.update(bytes("c"));
    byte[] x = one.digest();
    byte[] y = other.digest();
    assertThat(java.util.Arrays.copyOf(x, 8)).isNotEqualTo(java.util.Arrays.copyOf(y, 8));
    assertThat(java.util.Arrays.copyOfRange(x, 8, 16))
        .isNotEqualTo(java.util.Arrays.copyOfRange(y, 8, 16));
  }

  @Test
  void fingerprint_aLinkLoop_hasNone() throws IOException {
    Path root = Files.createDirectories(temp.resolve("loop"));
    Files.createSymbolicLink(root.resolve("again"), root);

    assertThat(StartCache.fingerprint(List.of(root))).isNull();
    assertThat(StartCache.fingerprint(List.of(temp.resolve("absent")))).isNotNull();
  }

  @Test
  void openingMessage_parse_readsMethodCompactParamsAndRawId() {
    OpeningMessage spaced =
        parse(
            "{ \"jsonrpc\": \"2.0\", \"id\": \"a\\\"b\", \"method\": \"tools/list\","
                + " \"params\": { \"cursor\" : \"x\" } }\r");
    OpeningMessage compact =
        parse(
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":{\"cursor\":\"x\"}}");

    assertThat(spaced).isNotNull();
    assertThat(spaced.id()).isEqualTo("\"a\\\"b\"");
    assertThat(compact.id()).isEqualTo("7");
    assertThat(spaced.params()).isEqualTo(compact.params()).isEqualTo(bytes("{\"cursor\":\"x\"}"));
    assertThat(parse("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").id())
        .isNull();
    assertThat(parse("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}")).isNull();
    assertThat(parse("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}")).isNull();
    assertThat(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"extra\":1}")).isNull();
    assertThat(parse("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]")).isNull();
    assertThat(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} {}")).isNull();
    assertThat(parse("not json")).isNull();
  }

  private static OpeningMessage parse(String line) {
    byte[] b = bytes(line);
    return OpeningMessage.parse(b, b.length);
  }

  @Test
  void head_parse_readsTheIdAndKindOfAResponse_inEitherOrder() {
    assertThat(StartCache.Head.parse(bytes("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"a\":[")))
        .as("stops at the result, unread")
        .isEqualTo(new StartCache.Head("7", true));
    assertThat(
            StartCache.Head.parse(bytes("{\"result\":{\"a\":1},\"id\":\"x\",\"jsonrpc\":\"2.0\"}")))
        .isEqualTo(new StartCache.Head("\"x\"", true));
    assertThat(
            StartCache.Head.parse(bytes("{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":1}}")))
        .isEqualTo(new StartCache.Head("3", false));
    assertThat(StartCache.Head.parse(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}")))
        .isNull();
  }

  @Test
  void answer_parse_takesTheResultsOwnBytes() {
    String result = "{\"tools\":[{\"name\":\"a\",\"x\":[1,2,{\"y\":\"}\"}]}],\"nextCursor\":\"c\"}";
    Answer answer =
        Answer.parse(bytes("{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"result\":" + result + "}"));

    assertThat(answer.id()).isEqualTo("\"q\"");
    assertThat(new String(answer.result(), StandardCharsets.UTF_8)).isEqualTo(result);
    assertThat(Answer.parse(bytes("{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":1}}")))
        .isEqualTo(new Answer("3", null));
    assertThat(Answer.parse(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}")))
        .isNull();
    assertThat(new String(StartCache.response("\"q\"", answer.result()), StandardCharsets.UTF_8))
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"result\":" + result + "}\n");
  }
}

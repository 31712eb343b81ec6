package dev.skillport.cli;

import static dev.skillport.cli.OpeningLaneTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.cli.StartCache.Opening;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpeningRecorderTest {
  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
          + "\"2025-06-18\"}}";
  private static final String INITIALIZED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
  private static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";
  private static final String INITIALIZE_RESULT =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\"}}";
  private static final String LIST_CHANGED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}";

  @TempDir Path temp;
  private StartCache cache;
  private List<Path> files;
  private long started;

  @BeforeEach
  void setUp() throws IOException {
    Properties properties = new Properties();
    properties.setProperty("user.home", temp.resolve("home").toString());
    cache = StartCache.of(new String[] {"serve"}, Map.of(), properties);
    Path skills = Files.createDirectories(temp.resolve("skills"));
    Files.writeString(skills.resolve("SKILL.md"), "x");
    files = List.of(skills);
    // Started well after the files were written: they are not too fresh to keep.
    started = System.currentTimeMillis() + 10_000;
  }

  private static String listResult(String tool) {
    return "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[{\"name\":\"" + tool + "\"}]}}";
  }

  private OpeningRecorder recorder(OpeningLane lane) {
    return new OpeningRecorder(cache, files, StartCache.fingerprint(files), started, lane);
  }

  private static void read(OpeningRecorder recorder, String line) {
    byte[] b = bytes(line);
    recorder.read(b, b.length, null);
  }

  private static String write(OpeningRecorder recorder, String line) {
    byte[] out = recorder.write(bytes(line));
    return out == null ? null : new String(out, StandardCharsets.UTF_8);
  }

  /** The opening a first start keeps: its messages and the server's results. */
  private void firstStart(String tool) {
    OpeningRecorder recorder = recorder(null);
    read(recorder, INITIALIZE);
    assertThat(write(recorder, INITIALIZE_RESULT)).isEqualTo(INITIALIZE_RESULT);
    read(recorder, INITIALIZED);
    read(recorder, LIST);
    assertThat(write(recorder, listResult(tool))).isEqualTo(listResult(tool));
    recorder.ended();
    assertThat(recorder.active()).isFalse();
  }

  /** A lane over the kept opening's three messages, not run yet. */
  private static OpeningLane lane(Opening kept) {
    String input = INITIALIZE + "\n" + INITIALIZED + "\n" + LIST + "\n";
    return new OpeningLane(
        kept,
        new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
        new ByteArrayOutputStream());
  }

  /** A lane that answered the kept opening's three messages. */
  private static OpeningLane answeredLane(Opening kept) {
    OpeningLane lane = lane(kept);
    lane.run();
    assertThat(lane.answered()).hasSize(2);
    return lane;
  }

  @Test
  void ended_afterAnOpening_keepsItsMessagesAndResults() {
    firstStart("echo");

    Opening kept = cache.valid();
    assertThat(kept).isNotNull();
    assertThat(kept.steps())
        .extracting(StartCache.Step::method)
        .containsExactly("initialize", "notifications/initialized", "tools/list");
    assertThat(new String(kept.steps().get(2).result(), StandardCharsets.UTF_8))
        .isEqualTo("{\"tools\":[{\"name\":\"echo\"}]}");
  }

  @Test
  void write_theServersSameAnswersToWhatTheLaneAnswered_areKeptOff() throws IOException {
    firstStart("echo");
    Opening kept = cache.valid();
    long saved = Files.getLastModifiedTime(cache.file()).toMillis();
    Files.setLastModifiedTime(
        cache.file(), java.nio.file.attribute.FileTime.fromMillis(saved - 60_000));
    OpeningRecorder recorder = recorder(answeredLane(kept));

    read(recorder, INITIALIZE);
    read(recorder, INITIALIZED);
    read(recorder, LIST);
    assertThat(write(recorder, INITIALIZE_RESULT)).isNull();
    assertThat(write(recorder, listResult("echo"))).isNull();
    read(recorder, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\"}");
    assertThat(write(recorder, "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}"))
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}");

    assertThat(recorder.active()).isFalse();
    assertThat(Files.getLastModifiedTime(cache.file()).toMillis())
        .as("the same opening is not written again")
        .isEqualTo(saved - 60_000);
  }

  @Test
  void write_whatTheLaneAnsweredAfterTheServerBegan_isStillKeptOff() {
    firstStart("echo");
    Opening kept = cache.valid();
    OpeningLane lane = lane(kept);
    // The server reached its transport before the client's messages came.
    OpeningRecorder recorder = recorder(lane);
    lane.run();

    read(recorder, INITIALIZE);
    assertThat(write(recorder, INITIALIZE_RESULT)).isNull();
    read(recorder, INITIALIZED);
    read(recorder, LIST);
    assertThat(write(recorder, listResult("echo"))).isNull();
  }

  @Test
  void write_aListingOtherThanTheLanes_isFollowedByListChanged_andKeptAnew() {
    firstStart("echo");
    Opening kept = cache.valid();
    OpeningRecorder recorder = recorder(answeredLane(kept));

    read(recorder, INITIALIZE);
    assertThat(write(recorder, INITIALIZE_RESULT)).isNull();
    read(recorder, INITIALIZED);
    read(recorder, LIST);
    assertThat(write(recorder, listResult("echo2"))).isEqualTo(LIST_CHANGED);
    recorder.ended();

    assertThat(new String(cache.valid().steps().get(2).result(), StandardCharsets.UTF_8))
        .isEqualTo("{\"tools\":[{\"name\":\"echo2\"}]}");
  }

  @Test
  void write_anAnsweredOpeningTheClientSaysNoMoreOf_isKeptAfterAQuietSecond()
      throws InterruptedException {
    OpeningRecorder recorder = recorder(null);
    read(recorder, INITIALIZE);
    write(recorder, INITIALIZE_RESULT);
    read(recorder, INITIALIZED);
    read(recorder, LIST);
    write(recorder, listResult("echo"));

    // No end of input, no other message: a client that lists and waits.
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (cache.valid() == null && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(cache.valid()).isNotNull();
    assertThat(cache.valid().steps()).hasSize(3);
    assertThat(recorder.active()).as("the opening may still go on").isTrue();
  }

  @Test
  void ended_filesChangedWhileTheOpeningWasRead_keepsNothing() throws IOException {
    OpeningRecorder recorder = recorder(null);
    read(recorder, INITIALIZE);
    write(recorder, INITIALIZE_RESULT);
    Files.writeString(files.get(0).resolve("tools.yaml"), "tools: []");
    recorder.ended();

    assertThat(cache.file()).doesNotExist();
  }

  @Test
  void ended_filesWrittenJustBeforeTheStart_keepsNothing() {
    OpeningRecorder recorder =
        new OpeningRecorder(
            cache, files, StartCache.fingerprint(files), System.currentTimeMillis(), null);
    read(recorder, INITIALIZE);
    write(recorder, INITIALIZE_RESULT);
    recorder.ended();

    assertThat(cache.file()).doesNotExist();
  }

  @Test
  void read_anOpeningWithoutInitialize_orAnError_keepsNothingFromThere() {
    OpeningRecorder stateless = recorder(null);
    read(stateless, LIST);
    assertThat(stateless.active()).isFalse();
    assertThat(cache.file()).doesNotExist();

    OpeningRecorder failed = recorder(null);
    read(failed, INITIALIZE);
    write(failed, INITIALIZE_RESULT);
    read(failed, LIST);
    write(failed, "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32603,\"message\":\"x\"}}");
    failed.ended();
    assertThat(cache.valid().steps())
        .extracting(StartCache.Step::method)
        .containsExactly("initialize");
  }
}

package dev.skillport.samples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the sample scripts for real: JSON or flags in, one JSON object out. */
class SampleScriptsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path SKILLS = SampleSkillsTest.SAMPLES;

  @TempDir Path dir;

  @BeforeAll
  static void interpretersPresent() throws InterruptedException {
    assumeTrue(available("python3") && available("bash"), "python3 and bash are needed");
  }

  private static boolean available(String command) throws InterruptedException {
    try {
      return new ProcessBuilder(command, "--version").start().waitFor(10, TimeUnit.SECONDS);
    } catch (IOException e) {
      return false;
    }
  }

  private record Run(int exitCode, JsonNode json) {}

  private static Run run(String stdin, String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try (var in = p.getOutputStream()) {
      in.write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    return new Run(p.exitValue(), JSON.readTree(out));
  }

  private static String script(String skill, String file) {
    return SKILLS.resolve(skill).resolve("scripts").resolve(file).toString();
  }

  @Test
  void countLines_jsonOnStdin_countsLinesWordsAndBytes() throws Exception {
    Path text = Files.writeString(dir.resolve("a.txt"), "one two\nthree\n");

    Run r =
        run(
            JSON.writeValueAsString(java.util.Map.of("path", text.toString())),
            "python3",
            script("file-stats", "count_lines.py"));

    assertThat(r.exitCode()).isZero();
    assertThat(r.json().path("success").asBoolean()).isTrue();
    assertThat(r.json().path("lines").asInt()).isEqualTo(2);
    assertThat(r.json().path("words").asInt()).isEqualTo(3);
    assertThat(r.json().path("bytes").asInt()).isEqualTo(14);
  }

  @Test
  void countLines_missingFile_failureJsonAndExitOne() throws Exception {
    Run r =
        run(
            "",
            "python3",
            script("file-stats", "count_lines.py"),
            "--path",
            dir.resolve("absent.txt").toString());

    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.json().path("success").asBoolean()).isFalse();
    assertThat(r.json().path("message").asText()).contains("absent.txt");
  }

  @Test
  void dirSummary_pathFlag_countsFilesPerExtension() throws Exception {
    Files.writeString(dir.resolve("a.md"), "12345");
    Files.writeString(dir.resolve("b.md"), "123");
    Files.createDirectories(dir.resolve("sub"));
    Files.writeString(dir.resolve("sub/c.txt"), "1");

    Run r = run("", "bash", script("file-stats", "dir_summary.sh"), "--path", dir.toString());

    assertThat(r.exitCode()).isZero();
    assertThat(r.json().path("files").asInt()).isEqualTo(3);
    assertThat(r.json().path("extensions").path("md").path("bytes").asInt()).isEqualTo(8);
    assertThat(r.json().path("extensions").path("txt").path("files").asInt()).isEqualTo(1);
  }

  @Test
  void imageInfoAndPngChunks_realPng_readSizeAndChunks() throws Exception {
    Path png = dir.resolve("pixel.png");
    Files.write(png, onePixelPng());

    Run info = run("", "python3", script("image-tools", "image_info.py"), "--path", png.toString());
    Run chunks =
        run(
            "{\"path\": \"" + png.toString().replace("\\", "\\\\") + "\"}",
            "python3",
            script("image-tools", "png_chunks.py"));

    assertThat(info.json().path("format").asText()).isEqualTo("png");
    assertThat(info.json().path("width").asInt()).isEqualTo(1);
    assertThat(info.json().path("height").asInt()).isEqualTo(1);
    List<String> types = new ArrayList<>();
    chunks.json().path("chunks").forEach(c -> types.add(c.path("type").asText()));
    assertThat(types).containsExactly("IHDR", "IDAT", "IEND");
    assertThat(chunks.json().path("chunks").get(0).path("crc_ok").asBoolean()).isTrue();
  }

  @Test
  void thumbnailPlan_landscape_fitsBoxKeepingAspect() throws Exception {
    Run r =
        run(
            "{\"width\": 4000, \"height\": 3000, \"max_size\": 400}",
            "python3",
            script("image-tools", "plan_thumbnail.py"));

    assertThat(r.json().path("width").asInt()).isEqualTo(400);
    assertThat(r.json().path("height").asInt()).isEqualTo(300);
  }

  @Test
  void scanImagesThenWriteReport_folderWithImages_markdownRowPerImage() throws Exception {
    Files.write(dir.resolve("a.png"), onePixelPng());
    Files.writeString(dir.resolve("notes.txt"), "not an image");

    Run scan =
        run("", "python3", script("image-report", "scan_images.py"), "--folder", dir.toString());
    Run report =
        run(
            JSON.writeValueAsString(java.util.Map.of("images", scan.json().path("images"))),
            "python3",
            script("image-report", "write_report.py"),
            "--title",
            "Pics");

    assertThat(scan.json().path("images")).hasSize(1);
    assertThat(report.exitCode()).isZero();
    assertThat(report.json().path("markdown").asText())
        .startsWith("# Pics")
        .contains("a.png | " + onePixelPng().length + " |")
        .contains("1 images");
  }

  /** A valid 1x1 grey PNG (signature, IHDR, IDAT, IEND with correct CRCs). */
  private static byte[] onePixelPng() {
    return java.util.Base64.getDecoder()
        .decode(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==");
  }
}

package dev.skillport.registry.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shipped model, loaded from its Maven artifact with no network. */
class OnnxEmbedderTest {
  @TempDir static Path nativeLibraries;

  private static double cosine(float[] a, float[] b) {
    double dot = 0;
    for (int i = 0; i < a.length; i++) {
      dot += a[i] * b[i];
    }
    return dot;
  }

  /**
   * Unpacks the native libraries into this class's temp folder, which the test removes, instead of
   * the home and temp folders (the runtimes' defaults, kept until the JVM exits).
   */
  @BeforeAll
  static void nativeLibrariesInTempFolder() throws IOException {
    System.setProperty("ENGINE_CACHE_DIR", nativeLibraries.toString());
    System.setProperty("jna.tmpdir", nativeLibraries.toString());
    String platform = "ai/onnxruntime/native/" + onnxPlatform() + "/";
    for (String lib :
        List.of(System.mapLibraryName("onnxruntime"), System.mapLibraryName("onnxruntime4j_jni"))) {
      try (InputStream in =
          OnnxEmbedderTest.class.getClassLoader().getResourceAsStream(platform + lib)) {
        assertThat(in).as(platform + lib).isNotNull();
        Files.copy(in, nativeLibraries.resolve(lib));
      }
    }
    System.setProperty("onnxruntime.native.path", nativeLibraries.toString());
  }

  /** ONNX Runtime makes a temp folder of its own whatever it loads from, removed only at exit. */
  @AfterAll
  static void removeRuntimeTempFolder() throws IOException {
    try (DirectoryStream<Path> made =
        Files.newDirectoryStream(
            Path.of(System.getProperty("java.io.tmpdir")), "onnxruntime-java*")) {
      for (Path dir : made) {
        try (Stream<Path> files = Files.walk(dir)) {
          for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
            Files.delete(f);
          }
        }
      }
    }
  }

  private static String onnxPlatform() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    String family = os.contains("mac") ? "osx" : os.contains("win") ? "win" : "linux";
    return family + "-" + (arch.contains("aarch64") || arch.contains("arm64") ? "aarch64" : "x64");
  }

  @Test
  void embed_paraphrase_isCloserThanAnUnrelatedSkill() {
    OnnxEmbedder model = OnnxEmbedder.load(OnnxEmbedder.DEFAULT_MODEL);

    float[] query = model.embedQuery("make my holiday pictures smaller before emailing them");
    float[] images = model.embedDocument("image tools: Resize, crop and convert photos");
    float[] spreadsheets = model.embedDocument("xlsx: Read and write Excel workbooks");

    assertThat(query).hasSize(384);
    assertThat(cosine(query, query)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-4));
    assertThat(cosine(query, images)).isGreaterThan(SkillSearchIndex.MIN_SIMILARITY);
    assertThat(cosine(query, images)).isGreaterThan(cosine(query, spreadsheets) + 0.1);
  }
}

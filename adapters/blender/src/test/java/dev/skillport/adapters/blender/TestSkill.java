package dev.skillport.adapters.blender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.host.HostCall;
import dev.skillport.api.tool.ToolContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** A skill folder in a test's temp folder whose scripts are written by the test. */
final class TestSkill {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path dir;

  private TestSkill(Path dir) {
    this.dir = dir;
  }

  static TestSkill in(Path parent, String name) {
    try {
      return new TestSkill(
          Files.createDirectories(parent.resolve(name).resolve("scripts")).getParent());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes {@code scripts/<tool>.py}. */
  TestSkill script(String tool, String source) {
    try {
      Files.writeString(dir.resolve("scripts").resolve(tool + ".py"), source);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  Path dir() {
    return dir;
  }

  HostCall call(String tool, String arguments, Duration timeout, ToolContext context) {
    try {
      JsonNode args = JSON.readTree(arguments);
      return new HostCall(
          dir.getFileName().toString(),
          tool,
          dir.resolve("scripts").resolve(tool + ".py"),
          dir,
          args,
          timeout,
          context);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  HostCall call(String tool, String arguments) {
    return call(tool, arguments, Duration.ofSeconds(30), ToolContext.NONE);
  }
}

package dev.skillport.sdk.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.tool.ToolResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs a script tool the way the server's contract describes it: arguments as JSON on stdin, one
 * JSON object (or plain text) on stdout, {@code "success": false} or a non-zero exit is a failure.
 * No sandboxing, output caps or host adapters: enough for a skill's unit tests.
 */
final class ScriptProcess {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int DEFAULT_TIMEOUT_SECS = 30;

  private ScriptProcess() {}

  static ToolResult run(Path script, JsonNode arguments, Integer timeoutSecs) {
    List<String> command = command(script);
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(script.toAbsolutePath().getParent().toFile());
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new IllegalStateException("could not start " + command + ": " + e.getMessage(), e);
    }
    CompletableFuture<String> stdout = drain(process.getInputStream());
    CompletableFuture<String> stderr = drain(process.getErrorStream());
    try (OutputStream in = process.getOutputStream()) {
      in.write(JSON.writeValueAsBytes(arguments));
    } catch (IOException e) {
      // The script may exit without reading stdin; its output still decides the result.
    }
    try {
      int limit = timeoutSecs == null ? DEFAULT_TIMEOUT_SECS : timeoutSecs;
      if (!process.waitFor(limit, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        return ToolResult.error(script.getFileName() + " timed out after " + limit + " s");
      }
      return toResult(process.exitValue(), stdout.get(), stderr.get());
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      return ToolResult.error("interrupted");
    } catch (ExecutionException e) {
      return ToolResult.error("could not read the output of " + script.getFileName());
    }
  }

  private static ToolResult toResult(int exit, String out, String err) {
    String text = out.strip();
    JsonNode parsed = null;
    try {
      parsed = text.isEmpty() ? null : JSON.readTree(text);
    } catch (JsonProcessingException e) {
      parsed = null;
    }
    boolean failed = exit != 0;
    if (parsed != null && parsed.isObject()) {
      failed |= parsed.has("success") && !parsed.get("success").asBoolean(true);
      return new ToolResult(ToolResult.structured(parsed).content(), parsed, failed);
    }
    String message = text.isEmpty() && failed ? err.strip() : text;
    return failed ? ToolResult.error(message) : ToolResult.text(message);
  }

  private static List<String> command(Path script) {
    String name = script.getFileName().toString().toLowerCase(Locale.ROOT);
    String file = script.toAbsolutePath().toString();
    if (name.endsWith(".py")) {
      return List.of("python3", file);
    }
    if (name.endsWith(".sh")) {
      return List.of("sh", file);
    }
    if (name.endsWith(".bash")) {
      return List.of("bash", file);
    }
    if (name.endsWith(".js") || name.endsWith(".mjs")) {
      return List.of("node", file);
    }
    throw new IllegalStateException(
        "no interpreter for "
            + script.getFileName()
            + "; use a .py, .sh, .bash, .js or .mjs script");
  }

  private static CompletableFuture<String> drain(InputStream stream) {
    return CompletableFuture.supplyAsync(
        () -> {
          try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
          } catch (IOException e) {
            return "";
          }
        });
  }
}

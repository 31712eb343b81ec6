package dev.skillport.model.skill;

import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.diagnostic.Severity;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.IntSupplier;

/**
 * What code answers a tool call, decided once when the skill is read; the kinds form a closed set,
 * handled through {@link #accept(Visitor)} so that a new kind fails to compile wherever it is not.
 */
public sealed interface ToolBinding {

  /** Calls the {@code visitor} method of this kind. */
  <R> R accept(Visitor<R> visitor);

  /**
   * One method per kind of binding.
   *
   * @param <R> what the visit returns
   */
  interface Visitor<R> {
    R handler(Handler handler);

    R script(Script script);

    R bridge(Bridge bridge);

    R unbound(Unbound unbound);
  }

  /** A short description for listings and diagnostics. */
  String describe();

  /**
   * A Java handler registered under an id (skill SDK or plugin), and where it is named: the tools
   * file and the line of its {@code handler:} key (1-based; 0 when unknown). The line is found when
   * first asked for, since only a diagnostic about the binding needs it.
   */
  final class Handler implements ToolBinding {
    private final String handlerId;
    private final Path file;
    private IntSupplier lineSource;
    private int line;

    private Handler(String handlerId, Path file, int line, IntSupplier lineSource) {
      this.handlerId = Objects.requireNonNull(handlerId, "handlerId");
      this.file = file;
      this.line = line;
      this.lineSource = lineSource;
    }

    /**
     * A binding to {@code handlerId} named in {@code file} (or null when it was not read from one)
     * at {@code line}, 0 when unknown.
     */
    public Handler(String handlerId, Path file, int line) {
      this(handlerId, file, line, null);
      if (line < 0) {
        throw new IllegalArgumentException("line must be >= 0");
      }
    }

    /** A binding to {@code handlerId} that was not read from a file. */
    public Handler(String handlerId) {
      this(handlerId, null, 0);
    }

    /**
     * A binding to {@code handlerId} named in {@code file}, whose line {@code lineSource} finds
     * when first asked for (a negative line is taken as unknown).
     */
    public static Handler locatedLater(String handlerId, Path file, IntSupplier lineSource) {
      return new Handler(handlerId, file, 0, Objects.requireNonNull(lineSource, "lineSource"));
    }

    /** The id the handler is registered under. */
    public String handlerId() {
      return handlerId;
    }

    /** The tools file that names it, or null when it was not read from one. */
    public Path file() {
      return file;
    }

    /** The line of its {@code handler:} key in {@link #file()} (1-based), or 0 when unknown. */
    public synchronized int line() {
      if (lineSource != null) {
        line = Math.max(0, lineSource.getAsInt());
        lineSource = null;
      }
      return line;
    }

    /**
     * {@link DiagnosticCode#HANDLER_NOT_REGISTERED} for {@code tool} of {@code skill}, bound here:
     * at the line of the tools file that names the handler, else at the skill's SKILL.md.
     */
    public Diagnostic notRegistered(Skill skill, String tool, Severity severity) {
      boolean written = file != null;
      return new Diagnostic(
          severity,
          DiagnosticCode.HANDLER_NOT_REGISTERED,
          "tool '"
              + tool
              + "' names handler '"
              + handlerId
              + "', which no installed plugin or SDK jar registers",
          written ? file : skill.location().skillFile(),
          written ? line() : 0,
          0,
          skill.name(),
          null);
    }

    /** Two bindings are equal when they name the same handler, wherever each is written. */
    @Override
    public boolean equals(Object other) {
      return other instanceof Handler h && h.handlerId.equals(handlerId);
    }

    @Override
    public int hashCode() {
      return handlerId.hashCode();
    }

    @Override
    public String toString() {
      return "Handler[handlerId=" + handlerId + ", file=" + file + "]";
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.handler(this);
    }

    @Override
    public String describe() {
      return "handler " + handlerId;
    }
  }

  /** A script run out of process. */
  record Script(Path script, ScriptSource source) implements ToolBinding {
    public Script {
      Objects.requireNonNull(script, "script");
      Objects.requireNonNull(source, "source");
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.script(this);
    }

    @Override
    public String describe() {
      return "script " + script.getFileName() + " (" + source.label() + ")";
    }
  }

  /**
   * A tool of the skill's bridged MCP server, called by the name that server gives it.
   *
   * @param remoteName the tool's name on the bridged server
   */
  record Bridge(String remoteName) implements ToolBinding {
    public Bridge {
      Objects.requireNonNull(remoteName, "remoteName");
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.bridge(this);
    }

    @Override
    public String describe() {
      return "bridged MCP tool " + remoteName;
    }
  }

  /** No code found: calls answer with {@code NO_HANDLER}. */
  record Unbound() implements ToolBinding {
    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.unbound(this);
    }

    @Override
    public String describe() {
      return "unbound";
    }
  }

  /** How a script binding was found, first rule that matched. */
  enum ScriptSource {
    SOURCE_FILE,
    STEM,
    SINGLE_SCRIPT,
    SCRIPT_ONLY;

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
  }
}

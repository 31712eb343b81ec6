package dev.skillport.api.skill;

import java.nio.file.Path;
import java.util.Objects;

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

  /** A Java handler registered under an id (skill SDK or plugin). */
  record Handler(String handlerId) implements ToolBinding {
    public Handler {
      Objects.requireNonNull(handlerId, "handlerId");
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

package dev.skillport.model.skill;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.function.Function;

/**
 * A {@code metadata.dcc-mcp} value that may be written inline or point at a sibling file, such as
 * {@code external-deps} and {@code runtimes}. Use it through {@link #fold}.
 */
public sealed interface InlineOrFile permits InlineOrFile.Text, InlineOrFile.Inline {

  /** {@code text} applied to a value written as text, {@code inline} to one written inline. */
  <R> R fold(Function<String, R> text, Function<JsonNode, R> inline);

  /**
   * Written as text: a path relative to {@code SKILL.md}, or text the key's reader understands (a
   * JSON document, or for {@code runtimes} a comma-separated list).
   *
   * @param text the text, stripped and not empty
   */
  record Text(String text) implements InlineOrFile {
    public Text {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public <R> R fold(Function<String, R> onText, Function<JsonNode, R> onInline) {
      return onText.apply(text);
    }
  }

  /**
   * Written inline as a mapping or a sequence.
   *
   * @param value the value, frozen
   */
  record Inline(JsonNode value) implements InlineOrFile {
    public Inline {
      value = FrozenJson.freeze(Objects.requireNonNull(value, "value"));
    }

    @Override
    public <R> R fold(Function<String, R> onText, Function<JsonNode, R> onInline) {
      return onInline.apply(value);
    }
  }
}

package dev.skillport.runtime.secrets;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * Masks the values of secret-named keys in YAML (and JSON) text in place, keeping every other
 * character, comment and line where it was: the parser's event marks say where each value stands. A
 * scalar under a secret key is masked, and so is every scalar of a sequence under one; a mapping
 * under a secret key is entered key by key (a schema's {@code properties: {api_key: {type:
 * string}}} keeps its shape). A value that is only a {@code ${VAR}} reference is no secret.
 */
final class YamlRedaction {
  private static final LoadSettings SETTINGS =
      LoadSettings.builder()
          .setUseMarks(true)
          .setAllowDuplicateKeys(true)
          .setMaxAliasesForCollections(1000)
          .setCodePointLimit(64 * 1024 * 1024)
          .build();

  private YamlRedaction() {}

  /** One open collection: a mapping counts key/value positions, a sequence its secret state. */
  private static final class Frame {
    final boolean mapping;
    final boolean secret;
    int children;
    boolean keySecret;

    Frame(boolean mapping, boolean secret) {
      this.mapping = mapping;
      this.secret = secret;
    }

    boolean atKey() {
      return mapping && children % 2 == 0;
    }

    /** Whether a scalar at the current position is a secret value. */
    boolean valueSecret() {
      return mapping ? !atKey() && keySecret : secret;
    }
  }

  /** The text with secret values masked, or empty when it is not YAML the engine reads. */
  static Optional<String> redact(String text, SecretNames names) {
    List<int[]> ranges = new ArrayList<>();
    Deque<Frame> stack = new ArrayDeque<>();
    try {
      Iterator<Event> events = new Parse(SETTINGS).parseString(text).iterator();
      while (events.hasNext()) {
        Event e = events.next();
        Frame top = stack.peek();
        switch (e.getEventId()) {
          case MappingStart -> {
            clearComplexKey(top);
            stack.push(new Frame(true, false));
          }
          case SequenceStart -> {
            clearComplexKey(top);
            stack.push(new Frame(false, top != null && top.valueSecret()));
          }
          case MappingEnd, SequenceEnd -> {
            stack.pop();
            advance(stack.peek());
          }
          case Scalar -> {
            ScalarEvent s = (ScalarEvent) e;
            if (top != null && top.atKey()) {
              top.keySecret = names.isSecret(s.getValue());
            } else if (top != null && top.valueSecret() && maskable(s.getValue())) {
              range(s.getStartMark(), s.getEndMark()).ifPresent(ranges::add);
            }
            advance(top);
          }
          case Alias -> {
            clearComplexKey(top);
            advance(top);
          }
          default -> {
            // stream and document boundaries, comments
          }
        }
      }
    } catch (YamlEngineException | IllegalStateException | IllegalArgumentException e) {
      return Optional.empty();
    }
    return Optional.of(apply(text, ranges));
  }

  /** A key that is a collection or an alias names nothing secret. */
  private static void clearComplexKey(Frame frame) {
    if (frame != null && frame.atKey()) {
      frame.keySecret = false;
    }
  }

  private static void advance(Frame frame) {
    if (frame != null) {
      frame.children++;
    }
  }

  static boolean maskable(String value) {
    return !value.isEmpty() && !value.equals(Redactor.MASK) && !Redactor.isReference(value);
  }

  private static Optional<int[]> range(Optional<Mark> start, Optional<Mark> end) {
    if (start.isEmpty() || end.isEmpty()) {
      return Optional.empty();
    }
    int from = start.get().getIndex();
    int to = end.get().getIndex();
    return to > from ? Optional.of(new int[] {from, to}) : Optional.empty();
  }

  /** Replaces each code-point range (in order, not overlapping) with the quoted mask. */
  private static String apply(String text, List<int[]> ranges) {
    if (ranges.isEmpty()) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length());
    int cp = 0;
    int ch = 0;
    for (int[] r : ranges) {
      int startChar = advanceChars(text, ch, r[0] - cp);
      int endChar = advanceChars(text, startChar, r[1] - r[0]);
      cp = r[1];
      // A block scalar's range ends after its line breaks: keep them.
      int trimmed = endChar;
      while (trimmed > startChar && Character.isWhitespace(text.charAt(trimmed - 1))) {
        trimmed--;
      }
      out.append(text, ch, startChar).append('"').append(Redactor.MASK).append('"');
      out.append(text, trimmed, endChar);
      ch = endChar;
    }
    out.append(text, ch, text.length());
    return out.toString();
  }

  private static int advanceChars(String text, int fromChar, int codePoints) {
    int remaining = Math.max(0, codePoints);
    int limit = text.length();
    int i = fromChar;
    while (remaining > 0 && i < limit) {
      i += Character.charCount(text.codePointAt(i));
      remaining--;
    }
    return i;
  }
}

package dev.skillport.loader.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.CollectionStartEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.NodeEvent;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.resolver.ScalarResolver;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Reads YAML (core schema) into a Jackson tree straight from the parser's event stream.
 *
 * <p>Building the tree from events, with an explicit stack, means nesting depth, alias count,
 * expanded size and duplicate keys are all checked before any large or deep structure exists:
 * SnakeYAML Engine's composer recurses per nesting level and has no depth limit of its own. Aliases
 * share the anchored subtree instead of copying it, and count its full size against {@link
 * YamlLimits#maxNodes()}, so a "billion laughs" document is refused after a few hundred events.
 */
public final class SafeYaml {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ScalarResolver RESOLVER = new CoreSchema().getScalarResolver();

  /**
   * The first characters a non-string plain scalar can start with under the core schema (bool, int,
   * float, null, merge and the engine's {@code ${ENV}} tag); any other start is a string.
   */
  private static final String NON_STRING_STARTS = "tTfFnN~ <$.+-0123456789";

  /** Longest plain scalar starting with a letter that the core schema reads as bool or null. */
  private static final int LONGEST_WORD_LITERAL = "false".length();

  /** Decimal digits that always fit a long. */
  private static final int MAX_LONG_DIGITS = 18;

  /**
   * Settings per limits: building them (with a fresh schema and its resolver) cost more than
   * parsing a small file. Settings are immutable and shared by every parse and thread.
   */
  private static final int MAX_CACHED_SETTINGS = 16;

  private static final Map<YamlLimits, LoadSettings> SETTINGS = new ConcurrentHashMap<>();

  private SafeYaml() {}

  /**
   * Parses {@code text}.
   *
   * <p>Texts written in the plain subset of YAML that skill files use are read by {@link
   * YamlSubsetReader}, which gives exactly the engine's tree and positions; anything else, and
   * anything the engine would reject, goes through the engine and its limits.
   *
   * @param lineOffset added to every reported line, for YAML embedded in a larger file
   */
  public static YamlResult parse(String text, YamlLimits limits, int lineOffset) {
    if (text.length() > limits.maxChars()) {
      return reject(
          YamlProblem.Kind.TOO_LARGE,
          "YAML text is " + text.length() + " characters; the limit is " + limits.maxChars(),
          new YamlLocation(lineOffset + 1, 1));
    }
    YamlDocument quick = YamlSubsetReader.read(text, limits, lineOffset);
    if (quick != null) {
      return new YamlResult.Parsed(quick);
    }
    return parseWithEngine(text, limits, lineOffset);
  }

  /**
   * Parses {@code text} with SnakeYAML Engine alone, never taking the {@link YamlSubsetReader}
   * path; the size limit has already been checked.
   */
  static YamlResult parseWithEngine(String text, YamlLimits limits, int lineOffset) {
    LoadSettings settings = SETTINGS.get(limits);
    if (settings == null) {
      settings = settings(limits);
      if (SETTINGS.size() < MAX_CACHED_SETTINGS) {
        SETTINGS.putIfAbsent(limits, settings);
      }
    }
    Builder builder = new Builder(limits, lineOffset);
    try {
      Iterator<Event> events = new Parse(settings).parseString(text).iterator();
      while (events.hasNext()) {
        YamlProblem problem = builder.accept(events.next());
        if (problem != null) {
          return new YamlResult.Rejected(problem);
        }
      }
    } catch (MarkedYamlEngineException e) {
      Optional<Mark> mark = e.getProblemMark().or(e::getContextMark);
      String problem = e.getProblem() != null ? e.getProblem() : e.getMessage();
      return reject(YamlProblem.Kind.SYNTAX, clean(problem), builder.location(mark));
    } catch (YamlEngineException | IllegalArgumentException e) {
      return reject(YamlProblem.Kind.SYNTAX, clean(e.getMessage()), YamlLocation.UNKNOWN);
    }
    return new YamlResult.Parsed(builder.document());
  }

  private static LoadSettings settings(YamlLimits limits) {
    return LoadSettings.builder()
        .setSchema(new CoreSchema())
        .setUseMarks(true)
        .setCodePointLimit(Math.max(limits.maxChars(), 1024))
        .setMaxAliasesForCollections(Math.max(limits.maxAliases(), 1))
        .build();
  }

  /**
   * The core-schema tag of a plain scalar. Most plain values are words, which the core schema can
   * only read as strings; only values that could be a bool, number, null or merge key go through
   * the resolver's regular expressions. Gives exactly the resolver's answer.
   */
  static Tag resolvePlain(String value) {
    if (!value.isEmpty()) {
      char first = value.charAt(0);
      if (NON_STRING_STARTS.indexOf(first) < 0) {
        return Tag.STR;
      }
      if (Character.isLetter(first) && value.length() > LONGEST_WORD_LITERAL) {
        return Tag.STR;
      }
    }
    return RESOLVER.resolve(value, true);
  }

  private static YamlResult reject(YamlProblem.Kind kind, String message, YamlLocation at) {
    return new YamlResult.Rejected(new YamlProblem(kind, message, at));
  }

  private static String clean(String message) {
    if (message == null || message.isBlank()) {
      return "malformed YAML";
    }
    String firstLine = message.strip().lines().findFirst().orElse("malformed YAML");
    return firstLine.length() > 200 ? firstLine.substring(0, 200) + "…" : firstLine;
  }

  /** One open mapping or sequence. */
  private static final class Frame {
    final JsonNode container;
    final String pointer;
    final String anchor;
    final int nodesAtStart;
    String pendingKey;

    /** The pointer of {@link #pendingKey}'s value, already recorded in the positions. */
    String pendingPointer;

    Frame(JsonNode container, String pointer, String anchor, int nodesAtStart) {
      this.container = container;
      this.pointer = pointer;
      this.anchor = anchor;
      this.nodesAtStart = nodesAtStart;
    }

    boolean expectsKey() {
      return container.isObject() && pendingKey == null;
    }
  }

  /** Turns events into a tree, enforcing the limits as it goes. */
  private static final class Builder {
    private final YamlLimits limits;
    private final int lineOffset;
    private final Deque<Frame> stack = new ArrayDeque<>();
    private final Map<String, JsonNode> anchors = new HashMap<>();
    private final Map<JsonNode, Integer> sizes = new IdentityHashMap<>();
    private final Map<String, YamlLocation> positions = new HashMap<>();
    private JsonNode root;
    private int documents;
    private int aliases;
    private int nodes;

    Builder(YamlLimits limits, int lineOffset) {
      this.limits = limits;
      this.lineOffset = lineOffset;
    }

    YamlDocument document() {
      return new YamlDocument(root == null ? NODES.nullNode() : root, positions);
    }

    YamlLocation location(Optional<Mark> mark) {
      return mark.map(m -> new YamlLocation(m.getLine() + 1 + lineOffset, m.getColumn() + 1))
          .orElse(YamlLocation.UNKNOWN);
    }

    YamlProblem accept(Event event) {
      switch (event.getEventId()) {
        case DocumentStart:
          documents++;
          if (documents > 1) {
            return problem(
                YamlProblem.Kind.SYNTAX, "expected one YAML document, found several", event);
          }
          return null;
        case Scalar:
          return scalar((ScalarEvent) event);
        case Alias:
          return alias((AliasEvent) event);
        case MappingStart:
        case SequenceStart:
          return open((CollectionStartEvent) event);
        case MappingEnd:
        case SequenceEnd:
          return close();
        default:
          return null;
      }
    }

    private YamlProblem open(CollectionStartEvent event) {
      Frame parent = stack.peek();
      if (parent != null && parent.expectsKey()) {
        return problem(
            YamlProblem.Kind.KEY_NOT_STRING, "mapping keys must be plain strings", event);
      }
      if (stack.size() + 1 > limits.maxDepth()) {
        return problem(
            YamlProblem.Kind.DEPTH,
            "YAML nests deeper than " + limits.maxDepth() + " levels",
            event);
      }
      YamlProblem tooMany = countNode(event);
      if (tooMany != null) {
        return tooMany;
      }
      JsonNode container =
          event.getEventId() == Event.ID.MappingStart ? NODES.objectNode() : NODES.arrayNode();
      String pointer = attach(container, event);
      String anchor = event.getAnchor().map(a -> a.getValue()).orElse(null);
      stack.push(new Frame(container, pointer, anchor, nodes));
      return null;
    }

    private YamlProblem close() {
      Frame done = stack.pop();
      if (done.anchor != null) {
        anchors.put(done.anchor, done.container);
        sizes.put(done.container, nodes - done.nodesAtStart + 1);
      }
      return null;
    }

    private YamlProblem scalar(ScalarEvent event) {
      Frame parent = stack.peek();
      if (parent != null && parent.expectsKey()) {
        String key = event.getValue();
        if (parent.container.has(key)) {
          return problem(YamlProblem.Kind.DUPLICATE_KEY, "duplicate key '" + key + "'", event);
        }
        String pointer = parent.pointer + "/" + YamlDocument.escape(key);
        parent.pendingKey = key;
        parent.pendingPointer = pointer;
        positions.put(pointer, location(event));
        return null;
      }
      YamlProblem tooMany = countNode(event);
      if (tooMany != null) {
        return tooMany;
      }
      JsonNode value = convert(event);
      attach(value, event);
      event.getAnchor().ifPresent(a -> anchors.put(a.getValue(), value));
      return null;
    }

    private YamlProblem alias(AliasEvent event) {
      Frame parent = stack.peek();
      if (parent != null && parent.expectsKey()) {
        return problem(YamlProblem.Kind.KEY_NOT_STRING, "aliases cannot be mapping keys", event);
      }
      aliases++;
      if (aliases > limits.maxAliases()) {
        return problem(
            YamlProblem.Kind.ALIASES,
            "YAML uses more than " + limits.maxAliases() + " aliases",
            event);
      }
      String name = event.getAlias().getValue();
      JsonNode target = anchors.get(name);
      if (target == null) {
        boolean open = stack.stream().anyMatch(f -> name.equals(f.anchor));
        return problem(
            YamlProblem.Kind.SYNTAX,
            open ? "alias *" + name + " refers to itself" : "unknown alias *" + name,
            event);
      }
      nodes += sizes.getOrDefault(target, 1);
      if (nodes > limits.maxNodes()) {
        return problem(
            YamlProblem.Kind.ALIASES,
            "aliases expand the YAML beyond " + limits.maxNodes() + " values",
            event);
      }
      attach(target, event);
      return null;
    }

    private YamlProblem countNode(NodeEvent event) {
      nodes++;
      if (nodes > limits.maxNodes()) {
        return problem(
            YamlProblem.Kind.TOO_LARGE,
            "YAML holds more than " + limits.maxNodes() + " values",
            event);
      }
      return null;
    }

    /** Places a value in its parent (or as root) and returns its JSON Pointer. */
    private String attach(JsonNode value, Event event) {
      Frame parent = stack.peek();
      String pointer;
      if (parent == null) {
        root = value;
        pointer = "";
      } else if (parent.container instanceof ObjectNode object) {
        // A mapping value is located at its key, recorded when the key was read.
        pointer = parent.pendingPointer;
        object.set(parent.pendingKey, value);
        parent.pendingKey = null;
        parent.pendingPointer = null;
        return pointer;
      } else {
        ArrayNode array = (ArrayNode) parent.container;
        pointer = parent.pointer + "/" + array.size();
        array.add(value);
      }
      positions.putIfAbsent(pointer, location(event));
      return pointer;
    }

    private YamlLocation location(Event event) {
      return location(event.getStartMark());
    }

    private YamlProblem problem(YamlProblem.Kind kind, String message, Event event) {
      return new YamlProblem(kind, message, location(event));
    }
  }

  private static JsonNode convert(ScalarEvent event) {
    String value = event.getValue();
    Optional<String> explicit = event.getTag();
    Tag tag;
    if (explicit.isPresent() && "!".equals(explicit.get())) {
      // The non-specific tag "!" forces a string: "! 12" is the text 12, not a number.
      return NODES.textNode(value);
    } else if (explicit.isPresent()) {
      tag = new Tag(explicit.get());
    } else if (event.isPlain()) {
      return plainScalar(value);
    } else {
      return NODES.textNode(value);
    }
    return typed(tag, value);
  }

  /** The value of an untagged plain scalar under the core schema. */
  static JsonNode plainScalar(String value) {
    int length = value.length();
    if (length > 0 && length <= MAX_LONG_DIGITS && digitsOnly(value)) {
      // The commonest non-string: a small decimal integer, which the resolver's patterns would
      // also call int and integer() would also make a long.
      return NODES.numberNode(Long.parseLong(value));
    }
    if (value.equals("true") || value.equals("false")) {
      return NODES.booleanNode(value.length() == 4);
    }
    return typed(resolvePlain(value), value);
  }

  /** The value of an untagged plain scalar by the resolver's patterns alone, for comparison. */
  static JsonNode plainScalarByResolver(String value) {
    return typed(RESOLVER.resolve(value, true), value);
  }

  private static boolean digitsOnly(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  private static JsonNode typed(Tag tag, String value) {
    if (Tag.NULL.equals(tag)) {
      return NODES.nullNode();
    }
    if (Tag.BOOL.equals(tag)) {
      return NODES.booleanNode(Boolean.parseBoolean(value.toLowerCase(java.util.Locale.ROOT)));
    }
    if (Tag.INT.equals(tag)) {
      JsonNode n = integer(value);
      return n != null ? n : NODES.textNode(value);
    }
    if (Tag.FLOAT.equals(tag)) {
      JsonNode n = floating(value);
      return n != null ? n : NODES.textNode(value);
    }
    return NODES.textNode(value);
  }

  private static JsonNode integer(String text) {
    String s = text.replace("_", "");
    int radix = 10;
    boolean negative = false;
    if (s.startsWith("-") || s.startsWith("+")) {
      negative = s.charAt(0) == '-';
      s = s.substring(1);
    }
    if (s.startsWith("0x")) {
      radix = 16;
      s = s.substring(2);
    } else if (s.startsWith("0o")) {
      radix = 8;
      s = s.substring(2);
    }
    try {
      BigInteger big = new BigInteger(s, radix);
      if (negative) {
        big = big.negate();
      }
      return big.bitLength() < 64 ? NODES.numberNode(big.longValue()) : NODES.numberNode(big);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static JsonNode floating(String text) {
    String s = text.toLowerCase(java.util.Locale.ROOT);
    if (s.endsWith(".inf")) {
      return NODES.numberNode(
          s.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY);
    }
    if (s.equals(".nan")) {
      return NODES.numberNode(Double.NaN);
    }
    try {
      return NODES.numberNode(Double.parseDouble(text));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}

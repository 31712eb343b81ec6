package dev.skillport.runtime.secrets;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.skill.McpBridgeSpec;
import dev.skillport.model.skill.Skill;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place secrets are taken out of what the server sends, serves, logs and writes. It knows
 * secrets two ways:
 *
 * <ul>
 *   <li><b>by name</b> ({@link SecretNames}): the value of a secret-named key or variable, wherever
 *       it stands in YAML, JSON or {@code NAME=value}/{@code NAME: value} text;
 *   <li><b>by value</b>: values registered with {@link #addSecret} (the server's own environment
 *       values under secret names or names the operator marked, values a bridge passes to its
 *       child, secret values written in skill files) are masked wherever they appear, in any text.
 * </ul>
 *
 * <p>A value shorter than {@value #MIN_LITERAL} characters is never masked by value (masking every
 * {@code "1234"} would garble ordinary output); it is still masked by name. A value that is only a
 * {@code ${VAR}} reference is no secret. Everything masked reads {@value #MASK}.
 *
 * <p>One redactor serves the process ({@link #shared()}), since logs have no other way to reach it;
 * components take it as a parameter where they can. Thread-safe: the rules and values are replaced
 * whole, and {@link #generation()} grows with every change so caches of redacted views (file
 * digests) know when to recompute.
 */
public final class Redactor {
  /** What a masked value reads. */
  public static final String MASK = "[REDACTED]";

  /** The shortest value masked by value. */
  public static final int MIN_LITERAL = 6;

  private static final Redactor SHARED = new Redactor();

  private static final Pattern REFERENCE = Pattern.compile("\\$\\{[A-Za-z_][A-Za-z0-9_]*}");

  // NAME (optionally quoted), then ':' or '=', then a value: a ${VAR} reference, an auth scheme
  // and its credential, a quoted string, or a bare word. After ':' (YAML, headers) a bare value
  // runs to the end of its line.
  private static final String NAME =
      "(?<![A-Za-z0-9_.\\-])([\"']?)([A-Za-z_][A-Za-z0-9_.\\-]{0,127})\\1";
  private static final String SEPARATOR = "[ \\t]*([:=])[ \\t]*(?![=:])";
  private static final String QUOTED = "\"(?:[^\"\\\\\\r\\n]|\\\\.)*\"|'[^'\\r\\n]*'";
  private static final String REF = "\\$\\{[A-Za-z_][A-Za-z0-9_]*}";
  private static final Pattern ASSIGNMENT =
      Pattern.compile(
          NAME
              + SEPARATOR
              + "("
              + REF
              + "|(?i:bearer|basic|token)[ \\t]+[^\\s\"',;]+|"
              + QUOTED
              + "|[^\\s\"',;&})\\]]+)");
  private static final Pattern QUOTED_ASSIGNMENT =
      Pattern.compile(NAME + SEPARATOR + "(" + QUOTED + ")");

  /** File extensions of program source, where only quoted values are masked by name. */
  private static final Set<String> SOURCE =
      Set.of(
          "py", "js", "mjs", "cjs", "ts", "java", "kt", "rb", "go", "rs", "lua", "c", "h", "cpp",
          "cs", "php", "pl", "r", "swift", "mel");

  private static final Set<String> YAML = Set.of("yaml", "yml", "json");

  private volatile SecretNames names = SecretNames.defaults();
  // Longest first, so a secret that contains another is masked whole.
  private volatile List<String> literals = List.of();
  private static final JsonStringEncoder ESCAPER = JsonStringEncoder.getInstance();
  // Derived from literals by quoted(); replaced when they change.
  private volatile Quoted quoted;
  private final AtomicLong generation = new AtomicLong();

  /** A redactor with the documented names and no values; see {@link #shared()}. */
  public Redactor() {}

  /** The process's redactor: what logs, served files and the wire go through. */
  public static Redactor shared() {
    return SHARED;
  }

  /**
   * Sets the name rules and registers, as secret values, the values of {@code environment} (the
   * server's own) under secret names or names the operator marked.
   */
  public void configure(SecretNames rules, Map<String, String> environment) {
    this.names = Objects.requireNonNull(rules, "rules");
    generation.incrementAndGet();
    environment.forEach(
        (name, value) -> {
          if (value != null && rules.isSecret(name)) {
            addSecret(value);
          }
        });
  }

  /** The name rules in force. */
  public SecretNames names() {
    return names;
  }

  /** Whether a value under {@code name} is secret. */
  public boolean isSecretName(String name) {
    return names.isSecret(name);
  }

  /** Whether {@code value} is only a {@code ${VAR}} reference. */
  public static boolean isReference(String value) {
    return REFERENCE.matcher(value.strip()).matches();
  }

  /**
   * Registers a secret value, masked from now on wherever it appears.
   *
   * @return whether it was new and long enough to be masked by value
   */
  public boolean addSecret(String value) {
    if (value == null || value.strip().length() < MIN_LITERAL || isReference(value)) {
      return false;
    }
    String v = value.strip();
    synchronized (this) {
      if (literals.contains(v)) {
        return false;
      }
      List<String> next = new ArrayList<>(literals);
      next.add(v);
      next.sort(Comparator.comparingInt(String::length).reversed());
      literals = List.copyOf(next);
      generation.incrementAndGet();
      return true;
    }
  }

  /** Grows whenever the rules or the registered values change. */
  public long generation() {
    return generation.get();
  }

  /** The text with every registered value masked. */
  public String literals(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    String out = text;
    for (String secret : literals) {
      if (out.contains(secret)) {
        out = out.replace(secret, MASK);
      }
    }
    return out;
  }

  /**
   * Free text (a log line, a diagnostic, captured stderr): registered values masked, and the value
   * of every {@code NAME=value}, {@code NAME: value} or {@code "NAME": "value"} whose name is
   * secret.
   */
  public String text(String text) {
    return assignments(literals(text), ASSIGNMENT);
  }

  private String assignments(String text, Pattern pattern) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    Matcher m = pattern.matcher(text);
    StringBuilder out = null;
    int last = 0;
    SecretNames rules = names;
    while (m.find()) {
      String value = m.group(4);
      if (m.start(4) < last || !rules.isSecret(m.group(2)) || !maskable(value)) {
        continue;
      }
      if (out == null) {
        out = new StringBuilder(text.length());
      }
      out.append(text, last, m.start(4));
      char first = value.charAt(0);
      boolean quoted = first == '"' || first == '\'';
      out.append(quoted ? first + MASK + first : MASK);
      last = m.end(4);
      if (!quoted && m.group(3).equals(":")) {
        int eol = last;
        while (eol < text.length() && text.charAt(eol) != '\n' && text.charAt(eol) != '\r') {
          eol++;
        }
        while (eol > last && Character.isWhitespace(text.charAt(eol - 1))) {
          eol--;
        }
        last = eol;
      }
    }
    if (out == null) {
      return text;
    }
    return out.append(text, last, text.length()).toString();
  }

  private static boolean maskable(String value) {
    String bare = value;
    if (bare.length() >= 2 && (bare.charAt(0) == '"' || bare.charAt(0) == '\'')) {
      bare = bare.substring(1, bare.length() - 1);
    }
    return YamlRedaction.maskable(bare);
  }

  /**
   * A JSON tree as it may leave the server: every string holding a registered value masked. The
   * tree given is never changed; it is returned itself when nothing needed masking.
   */
  public JsonNode wire(JsonNode node) {
    List<String> secrets = literals;
    if (node == null || secrets.isEmpty() || !holdsLiteral(node, secrets)) {
      return node;
    }
    JsonNode copy = node.deepCopy();
    return maskLiterals(copy);
  }

  /**
   * Whether {@code json}, a serialized JSON document, may hold a registered value: it contains one
   * as JSON writes it inside a string. False means a tree serialized to {@code json} passes {@link
   * #wire} unchanged, so the text can be written as it is.
   */
  public boolean mayHoldLiteral(String json) {
    for (String secret : quoted()) {
      if (json.contains(secret)) {
        return true;
      }
    }
    return false;
  }

  /** The registered values as JSON writes them inside a string, derived once per set of values. */
  private List<String> quoted() {
    List<String> secrets = literals;
    Quoted current = quoted;
    if (current == null || current.of() != secrets) {
      current =
          new Quoted(
              secrets, secrets.stream().map(s -> new String(ESCAPER.quoteAsString(s))).toList());
      quoted = current;
    }
    return current.values();
  }

  private record Quoted(List<String> of, List<String> values) {}

  private static boolean holdsLiteral(JsonNode node, List<String> secrets) {
    if (node.isTextual()) {
      String s = node.asText();
      for (String secret : secrets) {
        if (s.contains(secret)) {
          return true;
        }
      }
      return false;
    }
    for (JsonNode child : node) {
      if (holdsLiteral(child, secrets)) {
        return true;
      }
    }
    return false;
  }

  private JsonNode maskLiterals(JsonNode node) {
    if (node.isTextual()) {
      return TextNode.valueOf(literals(node.asText()));
    }
    if (node instanceof ObjectNode o) {
      for (Map.Entry<String, JsonNode> e : o.properties()) {
        e.setValue(maskLiterals(e.getValue()));
      }
    } else if (node instanceof ArrayNode a) {
      for (int i = 0; i < a.size(); i++) {
        a.set(i, maskLiterals(a.get(i)));
      }
    }
    return node;
  }

  /**
   * A copy of a JSON tree shown as data (frontmatter, metadata): the value of every secret-named
   * key masked (a sequence under one, element by element), and every registered value.
   */
  public JsonNode keyed(JsonNode node) {
    if (node == null) {
      return null;
    }
    return maskKeyed(node.deepCopy(), false);
  }

  private JsonNode maskKeyed(JsonNode node, boolean secret) {
    if (node.isValueNode()) {
      if (secret && !node.isNull() && YamlRedaction.maskable(node.asText())) {
        return TextNode.valueOf(MASK);
      }
      return node.isTextual() ? TextNode.valueOf(literals(node.asText())) : node;
    }
    if (node instanceof ObjectNode o) {
      for (Map.Entry<String, JsonNode> e : o.properties()) {
        boolean keySecret = names.isSecret(e.getKey());
        JsonNode v = e.getValue();
        e.setValue(maskKeyed(v, keySecret && !v.isObject()));
      }
    } else if (node instanceof ArrayNode a) {
      for (int i = 0; i < a.size(); i++) {
        JsonNode v = a.get(i);
        a.set(i, maskKeyed(v, secret && !v.isObject()));
      }
    }
    return node;
  }

  /** YAML or JSON text with secret-named values masked in place, then registered values. */
  public String yaml(String text) {
    return YamlRedaction.redact(text, names).map(this::literals).orElseGet(() -> text(text));
  }

  /** A {@code SKILL.md}: its frontmatter as YAML, its body as free text. */
  public String skillMd(String text) {
    int end = frontmatterEnd(text);
    if (end < 0) {
      return text(text);
    }
    int open = text.indexOf('\n') + 1;
    return text.substring(0, open) + yaml(text.substring(open, end)) + text(text.substring(end));
  }

  /** Where the frontmatter's closing {@code ---} line starts, or -1 without frontmatter. */
  private static int frontmatterEnd(String text) {
    String t = text.startsWith("\uFEFF") ? text.substring(1) : text;
    int shift = text.length() - t.length();
    int nl = t.indexOf('\n');
    if (nl < 0 || !t.substring(0, nl).strip().equals("---")) {
      return -1;
    }
    int pos = nl + 1;
    while (pos < t.length()) {
      int next = t.indexOf('\n', pos);
      int lineEnd = next < 0 ? t.length() : next;
      if (t.substring(pos, lineEnd).strip().equals("---")) {
        return pos + shift;
      }
      if (next < 0) {
        break;
      }
      pos = next + 1;
    }
    return -1;
  }

  /**
   * The bytes of a skill file as they are served: a textual file that is UTF-8 is redacted by its
   * kind ({@code SKILL.md}; YAML and JSON by structure; program source by quoted assignments and
   * values; other text as free text); other files are served as they are.
   */
  public byte[] file(Path file, boolean textual, byte[] bytes) {
    if (!textual || bytes.length == 0) {
      return bytes;
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      return bytes;
    }
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    int dot = name.lastIndexOf('.');
    String ext = dot < 0 ? "" : name.substring(dot + 1);
    String out;
    if (name.equals("skill.md")) {
      out = skillMd(text);
    } else if (YAML.contains(ext)) {
      out = yaml(text);
    } else if (SOURCE.contains(ext)) {
      out = assignments(literals(text), QUOTED_ASSIGNMENT);
    } else {
      out = text(text);
    }
    return out.equals(text) ? bytes : out.getBytes(StandardCharsets.UTF_8);
  }

  /** A diagnostic whose message and hint are redacted as free text. */
  public Diagnostic diagnostic(Diagnostic d) {
    String message = text(d.message());
    String hint = text(d.hint());
    if (message.equals(d.message()) && Objects.equals(hint, d.hint())) {
      return d;
    }
    return new Diagnostic(
        d.severity(), d.code(), message, d.file(), d.line(), d.column(), d.skill(), hint);
  }

  /**
   * Registers the secret values skills write in the open: scalars under secret names in their
   * frontmatter, and the environment values of their MCP bridges under secret names (a bridge
   * should take those from the server's environment by {@code ${VAR}} reference instead).
   *
   * @return how many values were new
   */
  public int learn(List<Skill> skills) {
    int added = 0;
    for (Skill s : skills) {
      added += learn(s.manifest().frontmatter(), false);
      McpBridgeSpec bridge = s.bridge().orElse(null);
      if (bridge != null) {
        for (Map.Entry<String, String> e : bridge.env().entrySet()) {
          if (names.isSecret(e.getKey()) && addSecret(e.getValue())) {
            added++;
          }
        }
      }
    }
    return added;
  }

  private int learn(Object value, boolean secret) {
    int added = 0;
    if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> e : map.entrySet()) {
        boolean keySecret = e.getKey() instanceof String k && names.isSecret(k);
        added += learn(e.getValue(), keySecret && !(e.getValue() instanceof Map));
      }
    } else if (value instanceof List<?> list) {
      for (Object item : list) {
        added += learn(item, secret && !(item instanceof Map));
      }
    } else if (secret && value instanceof String text && addSecret(text)) {
      added++;
    }
    return added;
  }
}

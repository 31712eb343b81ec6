package dev.skillport.runtime.secrets;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Which names (environment variables, YAML and JSON keys) hold secrets: names with a word {@code
 * token}, {@code key}, {@code secret}, {@code password}, {@code passwd}, {@code credential} or
 * {@code authorization}, plus the names and {@code *} globs the operator marks.
 *
 * <p>A name is split into words at {@code _}, {@code -}, {@code .}, other punctuation and
 * lower-to-upper case changes ({@code apiKey} is {@code api}, {@code key}); a word matches when it
 * is one of those words, its plural, or ends with one ({@code apikey}, {@code accesstoken}). A word
 * that only starts with one does not ({@code keywords}, {@code tokenizer}), so ordinary metadata
 * keys stay readable. A name with a space in it is prose, not an identifier, and never matches by
 * word. Operator names match the whole name, case-insensitively.
 */
public final class SecretNames {
  private static final List<String> WORDS =
      List.of("token", "key", "secret", "password", "passwd", "credential", "authorization");
  private static final Pattern WORD_BREAK = Pattern.compile("[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])");

  private static final SecretNames DEFAULTS = new SecretNames(List.of(), List.of());

  private final List<String> marked;
  private final List<Pattern> globs;

  private SecretNames(List<String> marked, List<Pattern> globs) {
    this.marked = List.copyOf(marked);
    this.globs = List.copyOf(globs);
  }

  /** The documented words only. */
  public static SecretNames defaults() {
    return DEFAULTS;
  }

  /**
   * These rules plus {@code operatorNames}: exact names ({@code MY_API}) or globs ({@code
   * *_CREDS}), matched case-insensitively.
   */
  public SecretNames with(Collection<String> operatorNames) {
    List<String> exact = new ArrayList<>(marked);
    List<Pattern> patterns = new ArrayList<>(globs);
    for (String name : operatorNames) {
      Objects.requireNonNull(name, "operator name");
      String n = name.strip();
      if (n.isEmpty()) {
        continue;
      }
      if (n.contains("*") || n.contains("?")) {
        patterns.add(glob(n));
      } else {
        exact.add(n.toLowerCase(Locale.ROOT));
      }
    }
    return new SecretNames(exact, patterns);
  }

  /** The operator's exact names (lower case), whose environment values are secrets too. */
  List<String> marked() {
    return marked;
  }

  /** Whether {@code name} is an operator-marked name or glob. */
  boolean isMarked(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    if (marked.contains(lower)) {
      return true;
    }
    for (Pattern p : globs) {
      if (p.matcher(name).matches()) {
        return true;
      }
    }
    return false;
  }

  /** Whether a value under this name is secret. */
  public boolean isSecret(String name) {
    if (name == null || name.isEmpty() || name.length() > 256) {
      return false;
    }
    if (isMarked(name)) {
      return true;
    }
    if (name.chars().anyMatch(Character::isWhitespace)) {
      // Prose ("quoted key", "primary key"), not an identifier a secret is kept under.
      return false;
    }
    for (String word : WORD_BREAK.split(name)) {
      String w = word.toLowerCase(Locale.ROOT);
      for (String secret : WORDS) {
        if (w.endsWith(secret) || w.equals(secret + "s")) {
          return true;
        }
      }
    }
    return false;
  }

  private static Pattern glob(String glob) {
    StringBuilder re = new StringBuilder();
    for (char c : glob.toCharArray()) {
      switch (c) {
        case '*' -> re.append(".*");
        case '?' -> re.append('.');
        default -> re.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE);
  }
}

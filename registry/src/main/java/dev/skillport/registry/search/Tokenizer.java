package dev.skillport.registry.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import opennlp.tools.stemmer.snowball.SnowballStemmer;

/**
 * Splits text into lower-case word tokens ({@code snake_case}, kebab-case and camelCase split) and
 * reduces them to English stems, so {@code rendering}, {@code renders} and {@code rendered} are one
 * term ({@code render}).
 *
 * <p>Stems come from the Snowball English stemmer (Porter2) of Apache OpenNLP: a maintained, Apache
 * 2.0 implementation of the published algorithm, the same one search engines use, rather than
 * suffix rules of our own that would miss its exceptions ({@code news}, {@code sky}, {@code
 * generous}). Its stemmer objects keep state, so each call makes its own.
 */
final class Tokenizer {
  /** Tokens this short are kept as they are: ids and abbreviations, not English words. */
  private static final int MIN_STEM_LENGTH = 3;

  private Tokenizer() {}

  /** The stemmed tokens of {@code text}: the terms the index holds and queries look up. */
  static List<String> terms(String text) {
    List<String> tokens = tokens(text);
    if (tokens.isEmpty()) {
      return tokens;
    }
    SnowballStemmer stemmer = new SnowballStemmer(SnowballStemmer.ALGORITHM.ENGLISH);
    List<String> out = new ArrayList<>(tokens.size());
    for (String token : tokens) {
      out.add(stem(stemmer, token));
    }
    return out;
  }

  /**
   * English function words: they occur in most descriptions, so a query matching through them
   * matches nearly every skill while saying nothing about which one is meant.
   */
  private static final Set<String> STOP_WORDS =
      Set.of(
          "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
          "been", "but", "by", "can", "could", "do", "does", "doing", "for", "from", "had", "has",
          "have", "he", "her", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its",
          "just", "me", "my", "of", "on", "or", "our", "over", "please", "she", "should", "so",
          "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they",
          "this", "those", "to", "too", "up", "us", "very", "was", "we", "were", "what", "when",
          "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your");

  /**
   * One query word: as typed and as its stem. A partial word's stem can lose the prefix the word
   * shares with what it abbreviates ({@code poly} stems to {@code poli}, no prefix of {@code
   * polygon}), so queries match both forms.
   *
   * @param stopWord a function word, which weighs nothing
   */
  record QueryTerm(String typed, String stem, boolean stopWord) {}

  /** The words of a query, each as typed and as its stem. */
  static List<QueryTerm> queryTerms(String query) {
    List<String> tokens = tokens(query);
    List<QueryTerm> out = new ArrayList<>(tokens.size());
    if (tokens.isEmpty()) {
      return out;
    }
    SnowballStemmer stemmer = new SnowballStemmer(SnowballStemmer.ALGORITHM.ENGLISH);
    for (String token : tokens) {
      out.add(new QueryTerm(token, stem(stemmer, token), STOP_WORDS.contains(token)));
    }
    return out;
  }

  private static String stem(SnowballStemmer stemmer, String token) {
    if (token.length() < MIN_STEM_LENGTH || !isAsciiLetters(token)) {
      return token;
    }
    return stemmer.stem(token).toString();
  }

  private static boolean isAsciiLetters(String token) {
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (c < 'a' || c > 'z') {
        return false;
      }
    }
    return true;
  }

  static List<String> tokens(String text) {
    List<String> out = new ArrayList<>();
    if (text == null || text.isEmpty()) {
      return out;
    }
    StringBuilder word = new StringBuilder();
    int prev = 0;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      i += Character.charCount(cp);
      if (Character.isLetterOrDigit(cp)) {
        boolean camelBreak = Character.isUpperCase(cp) && Character.isLowerCase(prev);
        if (camelBreak && word.length() > 0) {
          flush(word, out);
        }
        word.appendCodePoint(cp);
      } else if (word.length() > 0) {
        flush(word, out);
      }
      prev = cp;
    }
    if (word.length() > 0) {
      flush(word, out);
    }
    return out;
  }

  private static void flush(StringBuilder word, List<String> out) {
    out.add(word.toString().toLowerCase(Locale.ROOT));
    word.setLength(0);
  }
}

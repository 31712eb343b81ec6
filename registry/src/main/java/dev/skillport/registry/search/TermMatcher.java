package dev.skillport.registry.search;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * Expands a query term to vocabulary terms: exact (weight 1), prefix (0.8) and one-edit typo (0.6).
 * Prefix and typo matches are a fallback for a word the vocabulary does not hold: a word that
 * matches exactly would otherwise drag in every longer or one-letter-off word ({@code form} in
 * {@code format}, {@code forms}, {@code fork}), and with them unrelated skills. Typos are found
 * through a deletion index (every vocabulary term with one character removed), so a lookup costs a
 * few hash probes instead of a scan of the vocabulary.
 */
final class TermMatcher {
  static final double EXACT = 1.0;
  static final double PREFIX = 0.8;
  static final double TYPO = 0.6;
  private static final int MIN_PREFIX = 3;
  private static final int MIN_TYPO = 4;
  private static final int MAX_PREFIX_EXPANSIONS = 50;

  private final NavigableSet<String> vocabulary;
  private final Map<String, List<String>> deletions;

  TermMatcher(Set<String> terms) {
    this.vocabulary = new TreeSet<>(terms);
    this.deletions = new HashMap<>();
    for (String term : vocabulary) {
      if (term.length() >= MIN_TYPO - 1) {
        for (String d : deletes(term)) {
          deletions.computeIfAbsent(d, k -> new ArrayList<>(2)).add(term);
        }
      }
    }
  }

  /** Whether the vocabulary holds {@code term} as it is. */
  boolean contains(String term) {
    return vocabulary.contains(term);
  }

  /**
   * Vocabulary terms that {@code query} may be short for or a misspelling of, each with its match
   * weight (best kept); call it only for a word with no exact match.
   */
  Map<String, Double> expandFuzzy(String query) {
    Map<String, Double> out = new HashMap<>();
    if (query.length() >= MIN_PREFIX) {
      int n = 0;
      for (String t : vocabulary.tailSet(query, false)) {
        if (!t.startsWith(query) || n++ >= MAX_PREFIX_EXPANSIONS) {
          break;
        }
        out.merge(t, PREFIX, Math::max);
      }
    }
    if (query.length() >= MIN_TYPO) {
      Set<String> candidates = new HashSet<>();
      // Same length with one substitution or transposition, or the query has one extra char.
      for (String d : deletes(query)) {
        if (vocabulary.contains(d)) {
          candidates.add(d);
        }
        candidates.addAll(deletions.getOrDefault(d, List.of()));
      }
      // The query lacks one char.
      candidates.addAll(deletions.getOrDefault(query, List.of()));
      for (String c : candidates) {
        if (!c.equals(query) && withinOneEdit(query, c)) {
          out.merge(c, TYPO, Math::max);
        }
      }
    }
    return out;
  }

  private static List<String> deletes(String term) {
    List<String> out = new ArrayList<>(term.length());
    for (int i = 0; i < term.length(); i++) {
      out.add(term.substring(0, i) + term.substring(i + 1));
    }
    return out;
  }

  /** Damerau-Levenshtein distance ≤ 1 (insert, delete, substitute or swap two neighbours). */
  static boolean withinOneEdit(String a, String b) {
    int la = a.length();
    int lb = b.length();
    if (Math.abs(la - lb) > 1) {
      return false;
    }
    int i = 0;
    while (i < Math.min(la, lb) && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    if (i == la && i == lb) {
      return true;
    }
    if (la == lb) {
      if (a.substring(i + 1).equals(b.substring(i + 1))) {
        return true;
      }
      return i + 1 < la
          && a.charAt(i) == b.charAt(i + 1)
          && a.charAt(i + 1) == b.charAt(i)
          && a.substring(i + 2).equals(b.substring(i + 2));
    }
    return la > lb
        ? a.substring(i + 1).equals(b.substring(i))
        : a.substring(i).equals(b.substring(i + 1));
  }
}

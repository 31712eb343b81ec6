package dev.skillport.registry.search;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable BM25F index over documents with weighted {@link Field}s. Documents are addressed by
 * their position in the list given to the builder.
 */
final class Bm25Index {
  private static final double K1 = 1.2;
  private static final double B = 0.75;
  private static final Field[] FIELDS = Field.values();

  /** One document's term frequency per field, for one term. */
  private record Posting(int doc, int[] tf) {}

  private final int docCount;
  private final Map<String, List<Posting>> postings;
  private final int[][] lengths;
  private final double[] averageLength;
  private final TermMatcher matcher;

  private Bm25Index(
      int docCount, Map<String, List<Posting>> postings, int[][] lengths, double[] averageLength) {
    this.docCount = docCount;
    this.postings = postings;
    this.lengths = lengths;
    this.averageLength = averageLength;
    this.matcher = new TermMatcher(postings.keySet());
  }

  /** Builds an index; {@code docs.get(i)} maps each field to its text for document {@code i}. */
  static Bm25Index build(List<Map<Field, String>> docs) {
    Map<String, List<Posting>> postings = new HashMap<>();
    int[][] lengths = new int[docs.size()][FIELDS.length];
    double[] total = new double[FIELDS.length];
    for (int d = 0; d < docs.size(); d++) {
      Map<String, int[]> tfs = new HashMap<>();
      for (Map.Entry<Field, String> e : docs.get(d).entrySet()) {
        int f = e.getKey().ordinal();
        List<String> tokens = Tokenizer.terms(e.getValue());
        lengths[d][f] = tokens.size();
        total[f] += tokens.size();
        for (String t : tokens) {
          tfs.computeIfAbsent(t, k -> new int[FIELDS.length])[f]++;
        }
      }
      for (Map.Entry<String, int[]> e : tfs.entrySet()) {
        postings
            .computeIfAbsent(e.getKey(), k -> new ArrayList<>())
            .add(new Posting(d, e.getValue()));
      }
    }
    double[] avg = new double[FIELDS.length];
    for (int f = 0; f < FIELDS.length; f++) {
      avg[f] = docs.isEmpty() ? 1 : Math.max(1e-9, total[f] / docs.size());
    }
    return new Bm25Index(docs.size(), postings, lengths, avg);
  }

  static Map<Field, String> fields() {
    return new EnumMap<>(Field.class);
  }

  /**
   * Scores every document matching at least one query token. Each query token counts once per
   * document, through its best-matching vocabulary term; tokens and terms are stems ({@link
   * Tokenizer#terms}). A token the vocabulary holds (as typed or as its stem) matches only that
   * term; only a token it does not hold is matched by prefix or typo. Stop words are left out.
   *
   * @return document index → score, for matching documents only
   */
  Map<Integer, Double> score(String query) {
    Map<Integer, Double> scores = new HashMap<>();
    for (Tokenizer.QueryTerm term : Tokenizer.queryTerms(query)) {
      if (term.stopWord()) {
        continue;
      }
      Map<String, Double> matches = new HashMap<>();
      for (String form : List.of(term.stem(), term.typed())) {
        if (matcher.contains(form)) {
          matches.put(form, TermMatcher.EXACT);
        }
      }
      if (matches.isEmpty()) {
        matches.putAll(matcher.expandFuzzy(term.stem()));
        if (!term.typed().equals(term.stem())) {
          matcher.expandFuzzy(term.typed()).forEach((t, w) -> matches.merge(t, w, Math::max));
        }
      }
      Map<Integer, Double> best = new HashMap<>();
      for (Map.Entry<String, Double> match : matches.entrySet()) {
        List<Posting> list = postings.get(match.getKey());
        double idf = Math.log(1 + (docCount - list.size() + 0.5) / (list.size() + 0.5));
        for (Posting p : list) {
          double s = match.getValue() * idf * fieldScore(p);
          best.merge(p.doc, s, Math::max);
        }
      }
      best.forEach((doc, s) -> scores.merge(doc, s, Double::sum));
    }
    return scores;
  }

  private double fieldScore(Posting p) {
    double sum = 0;
    for (int f = 0; f < FIELDS.length; f++) {
      int tf = p.tf[f];
      if (tf == 0) {
        continue;
      }
      double norm = 1 - B + B * lengths[p.doc][f] / averageLength[f];
      sum += FIELDS[f].weight * tf * (K1 + 1) / (tf + K1 * norm);
    }
    return sum;
  }
}

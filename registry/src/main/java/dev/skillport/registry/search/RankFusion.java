package dev.skillport.registry.search;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reciprocal-rank fusion: a document scores {@code 1 / (K + rank)} in each ranking it appears in,
 * summed. It uses ranks only, so BM25 scores (unbounded, query-length dependent) and cosine
 * similarities (bounded, model dependent) need no calibration against each other; a document both
 * rankers place high beats one that only one of them likes.
 */
final class RankFusion {
  /** The usual constant (Cormack et al., 2009): damps the weight of the very first ranks. */
  static final int K = 60;

  private RankFusion() {}

  /** Fused scores of the documents in {@code rankings}, each ranking best first. */
  static Map<Integer, Double> fuse(List<List<Integer>> rankings) {
    Map<Integer, Double> out = new HashMap<>();
    for (List<Integer> ranking : rankings) {
      for (int rank = 0; rank < ranking.size(); rank++) {
        out.merge(ranking.get(rank), 1.0 / (K + rank + 1), Double::sum);
      }
    }
    return out;
  }
}

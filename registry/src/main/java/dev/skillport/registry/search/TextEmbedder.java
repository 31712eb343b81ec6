package dev.skillport.registry.search;

/** Turns text into a unit-length vector whose dot product with another says how alike they mean. */
public interface TextEmbedder {
  /** Names the model; embeddings of two models are never mixed. */
  String model();

  /** The embedding of a document (a skill or a tool). */
  float[] embedDocument(String text);

  /** The embedding of a search query. */
  float[] embedQuery(String text);

  /**
   * The model Skillport ships (all-MiniLM-L6-v2, int8), loaded now.
   *
   * @throws IllegalStateException if the model or its runtime cannot be loaded
   */
  static TextEmbedder shipped() {
    return OnnxEmbedder.load(OnnxEmbedder.DEFAULT_MODEL);
  }
}

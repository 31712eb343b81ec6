package dev.skillport.registry.search;

import dev.langchain4j.model.embedding.EmbeddingModel;
import java.lang.reflect.InvocationTargetException;

/**
 * A sentence-embedding model that runs in-process on the ONNX Runtime, loaded from a jar on the
 * class path (LangChain4j's packaging of the model file and its tokenizer), so no network is
 * needed.
 */
final class OnnxEmbedder implements TextEmbedder {
  /** The model shipped with Skillport (decision 0049). */
  static final String DEFAULT_MODEL = "all-minilm-l6-v2-q";

  private final String model;
  private final EmbeddingModel embeddings;
  private final String queryPrefix;

  private OnnxEmbedder(String model, EmbeddingModel embeddings, String queryPrefix) {
    this.model = model;
    this.embeddings = embeddings;
    this.queryPrefix = queryPrefix;
  }

  /**
   * Loads {@code model}: the shipped one, or a candidate whose jar was put on the class path to
   * compare it ({@code bge-small-en-v15-q}, {@code all-minilm-l6-v2}).
   *
   * @throws IllegalStateException if the model or the runtime cannot be loaded
   */
  static OnnxEmbedder load(String model) {
    String type;
    String queryPrefix = "";
    switch (model) {
      case DEFAULT_MODEL ->
          type =
              "dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel";
      case "all-minilm-l6-v2" ->
          type = "dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel";
      case "bge-small-en-v15-q" -> {
        type =
            "dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel";
        // BGE is trained to match queries written with this instruction to passages without it.
        queryPrefix = "Represent this sentence for searching relevant passages: ";
      }
      default -> throw new IllegalStateException("unknown embedding model " + model);
    }
    try {
      Object instance = Class.forName(type).getConstructor().newInstance();
      return new OnnxEmbedder(model, (EmbeddingModel) instance, queryPrefix);
    } catch (ClassNotFoundException
        | NoSuchMethodException
        | InstantiationException
        | IllegalAccessException
        | InvocationTargetException e) {
      throw new IllegalStateException("embedding model " + model + " cannot be loaded: " + e, e);
    }
  }

  @Override
  public String model() {
    return model;
  }

  @Override
  public float[] embedDocument(String text) {
    return unit(embeddings.embed(text).content().vector());
  }

  @Override
  public float[] embedQuery(String text) {
    return unit(embeddings.embed(queryPrefix + text).content().vector());
  }

  private static float[] unit(float[] v) {
    double norm = 0;
    for (float x : v) {
      norm += x * x;
    }
    float scale = norm == 0 ? 0 : (float) (1 / Math.sqrt(norm));
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = v[i] * scale;
    }
    return out;
  }
}

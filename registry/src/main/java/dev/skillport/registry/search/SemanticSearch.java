package dev.skillport.registry.search;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The semantic side of search: a sentence-embedding model and the embeddings of every skill and
 * tool text it has seen, keyed by a digest of the text. Embedding runs on one background thread,
 * never on the start-up path: until a catalog's texts are all embedded its searches are lexical. A
 * reload re-embeds only texts whose digest is new, and with a cache file neither does a restart.
 * Without a model (lexical mode, a build without the model jar, or a load failure) every search
 * stays lexical, said in one log line.
 */
public final class SemanticSearch implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SemanticSearch.class);
  private static final int CACHE_VERSION = 1;
  private static final int CLOSE_WAIT_SECONDS = 10;

  /** How search ranks: by words only, or by words and meaning fused. */
  public enum Mode {
    LEXICAL,
    HYBRID;

    /** The mode named {@code text} ({@code lexical} or {@code hybrid}). */
    public static Optional<Mode> parse(String text) {
      for (Mode m : values()) {
        if (m.name().equalsIgnoreCase(text)) {
          return Optional.of(m);
        }
      }
      return Optional.empty();
    }
  }

  /** Where semantic ranking stands, as search results and {@code /readyz} report it. */
  public enum State {
    /** Lexical only: not asked for, or no model. */
    OFF,
    /** The model is loading or the current texts are being embedded; searches are lexical. */
    EMBEDDING,
    /** Searches over fully embedded texts are hybrid. */
    READY;

    /**
     * How searches rank in this state, as {@code search_skills} and {@code /readyz} say it: {@code
     * lexical}, {@code embedding} (lexical until the texts are embedded) or {@code hybrid}.
     */
    public String ranking() {
      return switch (this) {
        case OFF -> "lexical";
        case EMBEDDING -> "embedding";
        case READY -> "hybrid";
      };
    }
  }

  private final Supplier<TextEmbedder> loader;
  private final Path cacheFile;
  private final ExecutorService worker;
  private final Map<String, float[]> vectors = new ConcurrentHashMap<>();
  private final Set<String> queued = ConcurrentHashMap.newKeySet();
  private final Cache<String, float[]> queries = Caffeine.newBuilder().maximumSize(512).build();
  private volatile TextEmbedder embedder;
  private volatile boolean failed;
  private volatile boolean pending;
  private final AtomicBoolean loading = new AtomicBoolean();

  private SemanticSearch(Supplier<TextEmbedder> loader, Path cacheFile) {
    this.loader = loader;
    this.cacheFile = cacheFile;
    this.worker =
        loader == null
            ? null
            : Executors.newSingleThreadExecutor(
                r -> {
                  Thread t = new Thread(r, "skillport-embed");
                  t.setDaemon(true);
                  t.setPriority(Thread.MIN_PRIORITY);
                  return t;
                });
  }

  private static final SemanticSearch OFF = new SemanticSearch(null, null);

  /** Lexical search only. */
  public static SemanticSearch off() {
    return OFF;
  }

  /**
   * Search in {@code mode}; in hybrid mode the shipped model loads in the background, and with a
   * {@code cacheFile} embeddings are kept across restarts there.
   */
  public static SemanticSearch start(Mode mode, Path cacheFile) {
    return switch (mode) {
      case LEXICAL -> off();
      case HYBRID ->
          with(
              () -> {
                unpackNativesBeside(cacheFile);
                return OnnxEmbedder.load(modelName());
              },
              cacheFile);
    };
  }

  /**
   * The tokenizer's native library (and its loader's temp files) are unpacked into a folder beside
   * the embeddings, not into the user's home (their runtimes' default), unless the operator named a
   * folder.
   */
  private static void unpackNativesBeside(Path cacheFile) {
    if (cacheFile == null
        || System.getProperty("ENGINE_CACHE_DIR") != null
        || System.getenv("ENGINE_CACHE_DIR") != null
        || System.getenv("DJL_CACHE_DIR") != null) {
      return;
    }
    Path natives = cacheFile.resolveSibling("native");
    System.setProperty("ENGINE_CACHE_DIR", natives.toString());
    if (System.getProperty("jna.tmpdir") == null) {
      System.setProperty("jna.tmpdir", natives.resolve("jna").toString());
    }
  }

  /** Hybrid search with the embedder {@code loader} makes (loaded in the background). */
  public static SemanticSearch with(Supplier<TextEmbedder> loader, Path cacheFile) {
    return new SemanticSearch(loader, cacheFile);
  }

  private static String modelName() {
    return System.getProperty("skillport.search.model", OnnxEmbedder.DEFAULT_MODEL);
  }

  /** Where semantic ranking stands for the texts asked for last. */
  public State state() {
    if (loader == null || failed) {
      return State.OFF;
    }
    return embedder == null || pending ? State.EMBEDDING : State.READY;
  }

  /** How many texts have an embedding. */
  public int embedded() {
    return vectors.size();
  }

  /**
   * The embeddings of {@code texts} (whose {@link #digest digests} are {@code keys}), or empty
   * while some are missing (those are queued, and embedded in the background).
   */
  Optional<float[][]> vectors(List<String> keys, List<String> texts) {
    TextEmbedder e = embedder;
    if (loader == null || failed) {
      return Optional.empty();
    }
    if (loading.compareAndSet(false, true)) {
      // Loaded when the first index asks, not at construction: start-up keeps the machine.
      worker.execute(this::loadModel);
    }
    List<String> missing = new ArrayList<>();
    float[][] out = new float[texts.size()][];
    for (int i = 0; i < texts.size(); i++) {
      out[i] = vectors.get(keys.get(i));
      if (out[i] == null) {
        missing.add(texts.get(i));
      }
    }
    if (missing.isEmpty() && e != null) {
      pending = false;
      return Optional.of(out);
    }
    pending = true;
    List<String> fresh = new ArrayList<>();
    for (String text : missing) {
      if (queued.add(digest(text))) {
        fresh.add(text);
      }
    }
    if (!fresh.isEmpty()) {
      worker.execute(() -> embedAll(fresh));
    }
    return Optional.empty();
  }

  /** The embedding of a query, or empty when semantic ranking is not ready. */
  Optional<float[]> query(String text) {
    TextEmbedder e = embedder;
    if (e == null || failed) {
      return Optional.empty();
    }
    return Optional.of(queries.get(text, e::embedQuery));
  }

  private void loadModel() {
    long start = System.nanoTime();
    try {
      TextEmbedder e = loader.get();
      readCache(e.model());
      embedder = e;
      LOG.info(
          "semantic search: model {} loaded in {} ms, {} cached embeddings",
          e.model(),
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start),
          vectors.size());
    } catch (RuntimeException | LinkageError e) {
      failed = true;
      LOG.warn("semantic search is off, search stays lexical: {}", e.toString());
    }
  }

  private void embedAll(List<String> texts) {
    TextEmbedder e = embedder;
    if (e == null) {
      return;
    }
    long start = System.nanoTime();
    int done = 0;
    for (String text : texts) {
      if (Thread.currentThread().isInterrupted()) {
        return; // closing
      }
      String key = digest(text);
      try {
        if (!vectors.containsKey(key)) {
          vectors.put(key, e.embedDocument(text));
          done++;
        }
      } catch (RuntimeException ex) {
        LOG.warn("a search text could not be embedded, it ranks lexically only: {}", ex.toString());
        vectors.put(key, new float[0]);
      } finally {
        queued.remove(key);
      }
    }
    if (done > 0) {
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      LOG.info("semantic search: embedded {} texts in {} ms", done, ms);
      writeCache(e.model());
    }
  }

  /** The key of a text's embedding: its SHA-256, which changes whenever the text does. */
  static String digest(String text) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(sha.digest(text.getBytes(StandardCharsets.UTF_8)), 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private void readCache(String model) {
    if (cacheFile == null || !Files.isRegularFile(cacheFile)) {
      return;
    }
    try (InputStream raw = Files.newInputStream(cacheFile);
        DataInputStream in = new DataInputStream(new BufferedInputStream(raw))) {
      if (in.readInt() != CACHE_VERSION || !in.readUTF().equals(model)) {
        return; // another model's vectors: embed again
      }
      int count = in.readInt();
      for (int i = 0; i < count; i++) {
        String key = in.readUTF();
        float[] v = new float[in.readInt()];
        for (int j = 0; j < v.length; j++) {
          v[j] = in.readFloat();
        }
        vectors.put(key, v);
      }
    } catch (IOException e) {
      LOG.warn(
          "embedding cache {} is unreadable, texts are embedded again: {}",
          cacheFile,
          e.toString());
    }
  }

  private void writeCache(String model) {
    if (cacheFile == null) {
      return;
    }
    Path tmp = cacheFile.resolveSibling(cacheFile.getFileName() + ".tmp");
    try {
      Files.createDirectories(cacheFile.toAbsolutePath().getParent());
      Map<String, float[]> snapshot = Map.copyOf(vectors);
      try (OutputStream raw = Files.newOutputStream(tmp);
          DataOutputStream out = new DataOutputStream(new BufferedOutputStream(raw))) {
        out.writeInt(CACHE_VERSION);
        out.writeUTF(model);
        out.writeInt(snapshot.size());
        for (Map.Entry<String, float[]> entry : snapshot.entrySet()) {
          out.writeUTF(entry.getKey());
          out.writeInt(entry.getValue().length);
          for (float f : entry.getValue()) {
            out.writeFloat(f);
          }
        }
      }
      Files.move(
          tmp, cacheFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      LOG.warn("embedding cache {} is not written: {}", cacheFile, e.toString());
    }
  }

  /**
   * Stops the background thread, waiting a little for a model load or an embedding under way: the
   * JVM must not exit while the native runtime is in the middle of one.
   */
  @Override
  public void close() {
    if (worker != null) {
      worker.shutdownNow();
      try {
        if (!worker.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
          LOG.warn("semantic search: embedding still running after {} s", CLOSE_WAIT_SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}

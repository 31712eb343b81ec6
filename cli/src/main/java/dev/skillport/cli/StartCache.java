package dev.skillport.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What a stdio server answered to the opening of its conversation ({@code initialize}, then tool
 * listings), kept in {@code ~/.skillport/start-cache/} so that the next start of the same command,
 * in the same environment, over the same files, answers that opening at once while the server loads
 * behind it (decision record 0037).
 *
 * <p>A cache file is named after its key: a 128-bit hash of the process's arguments, environment
 * variables and system properties ({@link Hasher}). Only the hash is stored, never a value. The
 * file lists the files the start depended on (skill roots and plugin folders, walked whole; the
 * trust and state key files; the class path), holds a digest of their names, sizes and modification
 * times, and the opening's steps: each message's method and parameters, and the result a request
 * got.
 *
 * <p>Only the JDK and Jackson's streaming parser are used here: this runs before anything else of
 * the program is loaded.
 */
final class StartCache {
  /** The {@code serve} option that turns the cache off, read before the command line is parsed. */
  static final String OFF_OPTION = "--no-start-cache";

  /** Steps of an opening kept at most; a longer opening keeps its first ones. */
  static final int MAX_STEPS = 16;

  /** A result larger than this ends the opening: it is not kept. */
  static final int MAX_RESULT_BYTES = 8 * 1024 * 1024;

  /**
   * A file changed this recently, before the start read it, may change again within its
   * modification time's resolution unseen: such an opening is not kept.
   */
  static final long RACY_MILLIS = 2_000;

  /** Files and folders walked at most for the fingerprint; a larger tree is not cached. */
  static final int MAX_ENTRIES = 20_000;

  /** Cache files kept; older ones are deleted when a new one is written. */
  static final int KEPT_FILES = 8;

  private static final int MAGIC = 0x53504f31; // "SPO1"
  private static final int MAX_DEPS = 4096;
  private static final long MAX_FILE_BYTES = 64L * 1024 * 1024;
  private static final int MAX_PARAMS_BYTES = 64 * 1024;
  private static final int MAX_DEPTH = 32;
  private static final String SUFFIX = ".opening";
  private static final JsonFactory JSON = new JsonFactory();

  private final Path folder;
  private final byte[] key;
  private final Path file;

  StartCache(Path folder, byte[] key) {
    this.folder = folder;
    this.key = key.clone();
    this.file = folder.resolve(HexFormat.of().formatHex(key, 0, 8) + SUFFIX);
  }

  /**
   * The cache of this process: for {@code serve} without {@code --http} or {@value #OFF_OPTION},
   * with a home directory; else null.
   */
  static StartCache forProcess(String[] args) {
    return of(args, System.getenv(), System.getProperties());
  }

  static StartCache of(String[] args, Map<String, String> env, Properties properties) {
    if (args.length == 0 || !"serve".equals(args[0])) {
      return null;
    }
    for (String arg : args) {
      if (arg.equals("--http") || arg.equals(OFF_OPTION)) {
        return null;
      }
    }
    String home = properties.getProperty("user.home");
    if (home == null || home.isBlank()) {
      return null;
    }
    Hasher digest = new Hasher();
    update(digest, "skillport start cache");
    update(digest, Integer.toString(args.length));
    for (String arg : args) {
      update(digest, arg);
    }
    new TreeMap<>(env)
        .forEach(
            (name, value) -> {
              update(digest, name);
              update(digest, value);
            });
    TreeMap<String, String> sorted = new TreeMap<>();
    for (String name : properties.stringPropertyNames()) {
      sorted.put(name, properties.getProperty(name));
    }
    sorted.forEach(
        (name, value) -> {
          update(digest, name);
          update(digest, value);
        });
    return new StartCache(Path.of(home, ".skillport", "start-cache"), digest.digest());
  }

  /** The file this process's opening is kept in. */
  Path file() {
    return file;
  }

  /** One message of an opening: a notification when {@code result} is null. */
  record Step(String method, byte[] params, byte[] result) {
    boolean matches(OpeningMessage message) {
      return method.equals(message.method())
          && Arrays.equals(params, message.params())
          && (result == null) == (message.id() == null);
    }

    boolean sameAs(Step other) {
      return method.equals(other.method)
          && Arrays.equals(params, other.params)
          && Arrays.equals(result, other.result);
    }
  }

  /** A kept opening and the files it depended on. */
  record Opening(List<Path> files, byte[] filesDigest, List<Step> steps) {
    boolean sameAs(Opening other) {
      if (!files.equals(other.files)
          || !Arrays.equals(filesDigest, other.filesDigest)
          || steps.size() != other.steps.size()) {
        return false;
      }
      for (int i = 0; i < steps.size(); i++) {
        if (!steps.get(i).sameAs(other.steps.get(i))) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * The kept opening, if its file is whole, has this process's key, and none of the files it lists
   * changed since; else null. Never throws: a cache that cannot be used is a normal start.
   */
  Opening valid() {
    try {
      Opening kept = read();
      if (kept == null) {
        return null;
      }
      Fingerprint now = fingerprint(kept.files());
      return now != null && Arrays.equals(now.digest(), kept.filesDigest()) ? kept : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private Opening read() throws IOException {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
    // Only a plain file is read: a FIFO would block the start, a link could point anywhere.
    if (!attributes.isRegularFile() || attributes.size() > MAX_FILE_BYTES) {
      return null;
    }
    byte[] bytes = Files.readAllBytes(file);
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
    if (in.readInt() != MAGIC || !Arrays.equals(bytes(in, 16), key)) {
      return null;
    }
    int count = count(in, MAX_DEPS);
    List<Path> files = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      files.add(Path.of(in.readUTF()));
    }
    byte[] filesDigest = bytes(in, 16);
    int steps = count(in, MAX_STEPS);
    List<Step> list = new ArrayList<>(steps);
    for (int i = 0; i < steps; i++) {
      String method = in.readUTF();
      byte[] params = bytes(in, MAX_PARAMS_BYTES);
      byte[] result = in.readBoolean() ? bytes(in, MAX_RESULT_BYTES) : null;
      list.add(new Step(method, params, result));
    }
    if (in.read() != -1) {
      return null;
    }
    return new Opening(List.copyOf(files), filesDigest, List.copyOf(list));
  }

  /**
   * Keeps {@code opening} in this process's file, replacing it whole (a reader sees the old file or
   * the new one), and deletes the oldest files past {@link #KEPT_FILES}. The folder is the user's
   * alone.
   */
  void save(Opening opening) throws IOException {
    boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    if (!Files.isDirectory(folder)) {
      if (posix) {
        Files.createDirectories(
            folder,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } else {
        Files.createDirectories(folder);
      }
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(MAGIC);
    writeBytes(out, key);
    out.writeInt(opening.files().size());
    for (Path path : opening.files()) {
      out.writeUTF(path.toString());
    }
    writeBytes(out, opening.filesDigest());
    out.writeInt(opening.steps().size());
    for (Step step : opening.steps()) {
      out.writeUTF(step.method());
      writeBytes(out, step.params());
      out.writeBoolean(step.result() != null);
      if (step.result() != null) {
        writeBytes(out, step.result());
      }
    }
    out.flush();
    // Created readable by the user alone.
    Path temporary = Files.createTempFile(folder, "opening-", ".tmp");
    try {
      Files.write(temporary, bytes.toByteArray());
      try {
        Files.move(
            temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temporary);
    }
    prune();
  }

  private void prune() throws IOException {
    List<Path> all;
    try (Stream<Path> list = Files.list(folder)) {
      all = list.toList();
    }
    // A file half written by a process that ended meanwhile.
    long stale = System.currentTimeMillis() - 60_000;
    for (Path path : all) {
      if (path.getFileName().toString().endsWith(".tmp") && modified(path) < stale) {
        Files.deleteIfExists(path);
      }
    }
    List<Path> files =
        all.stream()
            .filter(p -> p.getFileName().toString().endsWith(SUFFIX))
            .sorted(Comparator.comparingLong(StartCache::modified).reversed())
            .toList();
    for (Path old : files.subList(Math.min(KEPT_FILES, files.size()), files.size())) {
      if (!old.equals(file)) {
        Files.deleteIfExists(old);
      }
    }
  }

  private static long modified(Path path) {
    try {
      return Files.getLastModifiedTime(path).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }

  /**
   * What the files a start depends on look like: a digest of each path, and of every file and
   * folder under a folder (in name order), with its size and modification time; and the newest
   * modification time among them. Null when the tree is larger than {@link #MAX_ENTRIES} or deeper
   * than it could sensibly be (a link loop), or cannot be read.
   */
  record Fingerprint(byte[] digest, long newestMillis) {}

  static Fingerprint fingerprint(List<Path> files) {
    Hasher digest = new Hasher();
    long[] state = {0, Long.MIN_VALUE}; // entries seen, newest modification
    try {
      for (Path path : files) {
        if (!visit(digest, path, 0, state)) {
          return null;
        }
      }
    } catch (IOException e) {
      return null;
    }
    return new Fingerprint(digest.digest(), state[1]);
  }

  private static boolean visit(Hasher digest, Path path, int depth, long[] state)
      throws IOException {
    if (++state[0] > MAX_ENTRIES || depth > MAX_DEPTH) {
      return false;
    }
    update(digest, path.toString());
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(path, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      update(digest, "absent");
      return true;
    }
    long modified = attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS);
    state[1] = Math.max(state[1], TimeUnit.NANOSECONDS.toMillis(modified));
    update(digest, attributes.isDirectory() ? "folder" : "file");
    update(digest, Long.toString(attributes.size()));
    update(digest, Long.toString(modified));
    if (attributes.isDirectory()) {
      List<Path> children = new ArrayList<>();
      try (DirectoryStream<Path> list = Files.newDirectoryStream(path)) {
        list.forEach(children::add);
      }
      children.sort(Comparator.comparing(p -> p.getFileName().toString()));
      for (Path child : children) {
        if (!visit(digest, child, depth + 1, state)) {
          return false;
        }
      }
    }
    return true;
  }

  // ---------------------------------------------------------------- messages

  /** A message of an opening read from its line: method, parameters as compact JSON, raw id. */
  record OpeningMessage(String method, byte[] params, String id) {
    /** The message on {@code line}, or null when it is not a request or notification we know. */
    static OpeningMessage parse(byte[] line, int length) {
      try (JsonParser p = JSON.createParser(line, 0, length)) {
        if (p.nextToken() != JsonToken.START_OBJECT) {
          return null;
        }
        String method = null;
        byte[] params = new byte[0];
        String id = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          JsonToken value = p.nextToken();
          switch (name) {
            case "method" -> {
              if (value != JsonToken.VALUE_STRING) {
                return null;
              }
              method = p.getText();
            }
            case "params" -> params = compact(p);
            case "id" -> {
              id = rawScalar(p, value);
              if (id == null) {
                return null;
              }
            }
            case "jsonrpc" -> {
              if (value != JsonToken.VALUE_STRING || !"2.0".equals(p.getText())) {
                return null;
              }
            }
            default -> {
              return null;
            }
          }
        }
        return method == null || p.nextToken() != null
            ? null
            : new OpeningMessage(method, params, id);
      } catch (IOException e) {
        return null;
      }
    }
  }

  /** A response read from its line: the raw id, and the result's bytes (null for an error). */
  record Answer(String id, byte[] result) {
    /** The response on {@code line}, or null when the line holds something else. */
    static Answer parse(byte[] line) {
      try (JsonParser p = JSON.createParser(line)) {
        if (p.nextToken() != JsonToken.START_OBJECT) {
          return null;
        }
        String id = null;
        byte[] result = null;
        boolean answer = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          JsonToken value = p.nextToken();
          switch (name) {
            case "id" -> id = rawScalar(p, value);
            case "result" -> {
              if (value != JsonToken.START_OBJECT) {
                return null;
              }
              int start = (int) p.currentTokenLocation().getByteOffset();
              p.skipChildren();
              int end = (int) p.currentLocation().getByteOffset();
              result = Arrays.copyOfRange(line, start, end);
              answer = true;
            }
            case "error" -> {
              p.skipChildren();
              answer = true;
            }
            case "method" -> {
              return null;
            }
            default -> p.skipChildren();
          }
        }
        return answer && id != null ? new Answer(id, result) : null;
      } catch (IOException e) {
        return null;
      }
    }
  }

  /**
   * A response's id and whether it carries a result, read without reading the result: a listing's
   * answer is hundreds of kilobytes, which {@link Answer#parse} walks through.
   */
  record Head(String id, boolean result) {
    /** The head of the response on {@code line}, or null when the line holds something else. */
    static Head parse(byte[] line) {
      try (JsonParser p = JSON.createParser(line)) {
        if (p.nextToken() != JsonToken.START_OBJECT) {
          return null;
        }
        String id = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          JsonToken value = p.nextToken();
          switch (name) {
            case "id" -> id = rawScalar(p, value);
            case "result", "error" -> {
              if (id != null) {
                return new Head(id, name.equals("result"));
              }
              // The id comes after the result: read the whole line.
              Answer answer = Answer.parse(line);
              return answer == null ? null : new Head(answer.id(), answer.result() != null);
            }
            case "method" -> {
              return null;
            }
            default -> p.skipChildren();
          }
        }
        return null;
      } catch (IOException e) {
        return null;
      }
    }
  }

  /** The response line answering request {@code id} with {@code result}. */
  static byte[] response(String id, byte[] result) {
    byte[] head =
        ("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":").getBytes(StandardCharsets.UTF_8);
    byte[] line = Arrays.copyOf(head, head.length + result.length + 2);
    System.arraycopy(result, 0, line, head.length, result.length);
    line[line.length - 2] = '}';
    line[line.length - 1] = '\n';
    return line;
  }

  private static byte[] compact(JsonParser p) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.copyCurrentStructure(p);
    }
    return out.toByteArray();
  }

  /** A string or integer id as the JSON text that writes it; null for anything else. */
  private static String rawScalar(JsonParser p, JsonToken value) throws IOException {
    if (value == JsonToken.VALUE_NUMBER_INT) {
      return p.getText();
    }
    if (value != JsonToken.VALUE_STRING) {
      return null;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeString(p.getText());
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  // ---------------------------------------------------------------- helpers

  /**
   * A 128-bit hash: two 64-bit lanes, each multiplying in one byte at a time with its own odd
   * constant, mixed at the end. It tells inputs apart; it is not a cryptographic digest, which
   * would cost a start about 25 ms to set up and run interpreted. The cache folder is readable by
   * the user alone, who can read the environment it hashes anyway.
   */
  static final class Hasher {
    private long a = 0xcbf29ce484222325L;
    private long b = 0x6a09e667f3bcc909L;

    void update(byte[] bytes) {
      long x = a;
      long y = b;
      for (byte value : bytes) {
        int v = value & 0xff;
        x = (x ^ v) * 0x100000001b3L;
        y = (y ^ v) * 0x9e3779b97f4a7c15L;
      }
      a = x;
      b = y;
    }

    byte[] digest() {
      long x = mix(a ^ Long.rotateLeft(b, 29));
      long y = mix(b ^ Long.rotateLeft(a, 17));
      byte[] out = new byte[16];
      for (int i = 0; i < 8; i++) {
        out[i] = (byte) (x >>> (56 - 8 * i));
        out[8 + i] = (byte) (y >>> (56 - 8 * i));
      }
      return out;
    }

    /** The 64-bit finalizer of MurmurHash3: every input bit reaches every output bit. */
    private static long mix(long h) {
      h ^= h >>> 33;
      h *= 0xff51afd7ed558ccdL;
      h ^= h >>> 33;
      h *= 0xc4ceb9fe1a85ec53L;
      h ^= h >>> 33;
      return h;
    }
  }

  /** Feeds {@code text} with its length first, so that no two sequences feed the same bytes. */
  private static void update(Hasher digest, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    digest.update(
        new byte[] {
          (byte) (bytes.length >>> 24),
          (byte) (bytes.length >>> 16),
          (byte) (bytes.length >>> 8),
          (byte) bytes.length
        });
    digest.update(bytes);
  }

  private static int count(DataInputStream in, int max) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > max) {
      throw new IOException("not a start cache file");
    }
    return n;
  }

  private static byte[] bytes(DataInputStream in, int max) throws IOException {
    byte[] bytes = new byte[count(in, max)];
    in.readFully(bytes);
    return bytes;
  }

  private static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
    out.writeInt(bytes.length);
    out.write(bytes);
  }
}

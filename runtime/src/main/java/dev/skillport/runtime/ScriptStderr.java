package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.tool.ClientRequest;
import dev.skillport.api.tool.ToolContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a script's stderr line by line. Lines of the progress protocol ({@code ::progress DONE
 * [TOTAL|?] [MESSAGE]}, {@code ::log LEVEL MESSAGE}) go to the tool context; questions for the
 * client ({@code ::ask KEY METHOD PARAMS_JSON}) are collected for the runner; every other line is
 * kept in a tail bounded by characters, so a script that writes without end costs no more memory
 * than the cap.
 */
final class ScriptStderr {
  /** Bytes of one line that are kept; the rest of an overlong line is dropped. */
  static final int MAX_LINE = 8192;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  private static final Set<String> METHODS =
      Set.of("elicitation/create", "sampling/createMessage", "roots/list");

  /** Questions one run may ask; more are kept as ordinary stderr. */
  private static final int MAX_ASKS = 16;

  private static final Set<String> LEVELS =
      Set.of("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency");

  private final ToolContext context;
  private final int maxChars;
  private final Deque<String> tail = new ArrayDeque<>();
  private final Map<String, ClientRequest> asks = new LinkedHashMap<>();
  private int chars;
  private boolean truncated;

  ScriptStderr(ToolContext context, int maxChars) {
    this.context = context;
    this.maxChars = maxChars;
  }

  /**
   * Reads {@code in} to its end. Bytes are scanned for line ends in bulk and only the kept start of
   * a line is copied, so a gigabyte on one line costs a scan, not a copy per byte.
   */
  void read(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    byte[] buf = new byte[64 * 1024];
    int n;
    while ((n = in.read(buf)) >= 0) {
      int start = 0;
      for (int i = 0; i < n; i++) {
        if (buf[i] == '\n') {
          keepStart(line, buf, start, i - start);
          accept(line.toString(StandardCharsets.UTF_8));
          line.reset();
          start = i + 1;
        }
      }
      keepStart(line, buf, start, n - start);
    }
    if (line.size() > 0) {
      accept(line.toString(StandardCharsets.UTF_8));
    }
  }

  /** Appends to {@code line} what of {@code length} bytes still fits in {@link #MAX_LINE}. */
  private static void keepStart(ByteArrayOutputStream line, byte[] buf, int from, int length) {
    int room = MAX_LINE - line.size();
    if (room > 0 && length > 0) {
      line.write(buf, from, Math.min(room, length));
    }
  }

  /** The kept tail of ordinary stderr lines. */
  synchronized String tail() {
    return String.join("\n", tail);
  }

  /** The questions the script asked ({@code ::ask}), in order, keyed as the script chose. */
  synchronized Map<String, ClientRequest> asks() {
    return new LinkedHashMap<>(asks);
  }

  /** Whether older lines were dropped to respect the cap. */
  synchronized boolean truncated() {
    return truncated;
  }

  private void accept(String raw) {
    String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
    if (line.startsWith("::") && protocol(line)) {
      return;
    }
    keep(line);
  }

  private synchronized void keep(String line) {
    tail.addLast(line);
    chars += line.length() + 1;
    while (chars > maxChars && tail.size() > 1) {
      chars -= tail.removeFirst().length() + 1;
      truncated = true;
    }
    if (chars > maxChars) {
      String only = tail.removeFirst();
      String cut = only.substring(only.length() - Math.max(0, maxChars - 1));
      tail.addFirst(cut);
      chars = cut.length() + 1;
      truncated = true;
    }
  }

  /** Handles a protocol line; false when it is malformed (it is then kept as ordinary text). */
  private boolean protocol(String line) {
    String[] parts = line.split(" +", 4);
    if (parts[0].equals("::progress") && parts.length >= 2) {
      Double done = number(parts[1]);
      if (done == null) {
        return false;
      }
      Double total = null;
      int messageAt = 2;
      if (parts.length >= 3) {
        if (parts[2].equals("?")) {
          messageAt = 3;
        } else {
          total = number(parts[2]);
          messageAt = total == null ? 2 : 3;
        }
      }
      String message = messageAt < parts.length ? String.join(" ", rest(parts, messageAt)) : null;
      context.progress(done, total, message);
      return true;
    }
    if (parts[0].equals("::ask") && parts.length == 4) {
      return ask(parts[1], parts[2], parts[3]);
    }
    if (parts[0].equals("::log") && parts.length >= 3) {
      String level = parts[1].toLowerCase(Locale.ROOT);
      if (!LEVELS.contains(level)) {
        return false;
      }
      context.log(level, String.join(" ", rest(parts, 2)));
      return true;
    }
    return false;
  }

  private boolean ask(String key, String method, String json) {
    if (!KEY.matcher(key).matches() || !METHODS.contains(method)) {
      return false;
    }
    JsonNode params;
    try {
      params = JSON.readTree(json);
    } catch (IOException e) {
      return false;
    }
    if (params == null || !params.isObject()) {
      return false;
    }
    synchronized (this) {
      if (asks.size() >= MAX_ASKS) {
        return false;
      }
      asks.put(key, new ClientRequest(method, params));
    }
    return true;
  }

  private static String[] rest(String[] parts, int from) {
    String[] out = new String[parts.length - from];
    System.arraycopy(parts, from, out, 0, out.length);
    return out;
  }

  private static Double number(String text) {
    try {
      double d = Double.parseDouble(text);
      return Double.isFinite(d) ? d : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}

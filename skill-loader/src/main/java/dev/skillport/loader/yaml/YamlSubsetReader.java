package dev.skillport.loader.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.skillport.model.skill.FrozenJson;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * Reads the plain subset of YAML that skill files are written in, many times faster than the
 * general engine, into exactly the tree and positions {@link SafeYaml}'s engine path builds.
 *
 * <p>The subset: one document (optionally opened by a bare {@code ---} line) whose root is a block
 * mapping or block sequence; block mappings with plain or quoted single-line keys; block sequences,
 * including ones written at their key's indentation; plain scalars on one line; single- and
 * double-quoted scalars on one line; flow sequences and mappings of those scalars, nested, on one
 * line; comments and blank lines; spaces for indentation, {@code \n} line breaks.
 *
 * <p>Anything else declines: {@link #read} returns null and the caller parses the text with the
 * engine, which applies every limit and reports every problem itself. That covers anchors, aliases,
 * tags, block scalars other than the plain {@code |}, {@code |-}, {@code >} and {@code >-} mapping
 * values, other multi-line scalars, explicit keys, directives, several documents, tabs, carriage
 * returns, byte order marks, unusual characters, duplicate keys, empty sequence entries and every
 * syntax error, so this reader never has to produce a diagnostic and cannot accept a text the
 * engine would refuse. Depth and size limits decline at the same points where the engine path would
 * reject.
 *
 * <p>The tree is built frozen ({@link FrozenJson}): each collection's entries are gathered on a
 * stack and become exact-size arrays when it ends, so no mutable map is built only to be copied
 * later by {@code ToolSpec}.
 */
final class YamlSubsetReader {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** 1 for the ASCII chars the subset reads differently: controls except line feed, and DEL. */
  private static final byte[] ODD_ASCII = oddAscii();

  /** Per-thread text buffers, see {@link #buffer}. */
  private static final ThreadLocal<char[]> BUFFERS = new ThreadLocal<>();

  private static final int MAX_KEPT_BUFFER = 64 * 1024;

  /** Texts up to this length are looked up in {@link #SHARED}. */
  private static final int MAX_SHARED_LENGTH = 24;

  /** Recently read short texts (keys), see {@link #text}; a power of two in size. */
  private static final Shared[] SHARED = new Shared[2048];

  /**
   * Recently read short plain scalars with their values, see {@link #plainValue}; a power of two.
   */
  private static final Shared[] SHARED_PLAIN = new Shared[2048];

  /** A mapping with more entries than this finds duplicate keys with a set instead of a scan. */
  private static final int MAX_SCANNED_KEYS = 16;

  /**
   * A simple key (one not introduced by {@code ?}) may span at most this many characters before its
   * {@code :} in the engine; well under its 1024 so the two never disagree at the edge.
   */
  private static final int MAX_KEY_SPAN = 1000;

  private final String s;

  /**
   * The text's chars, indexed without the String's per-call checks: the first {@link #n} chars of
   * this thread's buffer. Never kept past {@link #read}.
   */
  private final char[] chars;

  private final int n;
  private final YamlLimits limits;
  private final int lineOffset;

  /** Where positions are recorded; null when they are not read. */
  private final PositionTable table;

  /** True when the text holds surrogate pairs, so columns must be counted in code points. */
  private boolean wide;

  private int pos;
  private int line;
  private int lineStart;

  /** The indentation of the content line at {@link #pos}, or -1 at the end of the text. */
  private int indent;

  private int nodes;

  /** The text last given to {@link #pack}, eight Latin-1 chars to a long. */
  private long packA;

  private long packB;
  private long packC;

  /**
   * Keys (null in sequences) and values of the collections being read, innermost last; a
   * collection's entries start where the stack stood when it began and are taken off when it ends.
   */
  private String[] keyStack = new String[64];

  private JsonNode[] valueStack = new JsonNode[64];
  private int top;

  private YamlSubsetReader(String text, YamlLimits limits, int lineOffset, boolean positions) {
    this.s = text;
    this.n = text.length();
    this.chars = buffer(n);
    text.getChars(0, n, chars, 0);
    this.limits = limits;
    this.lineOffset = lineOffset;
    // Roughly one position per line or flow item: sized so most files grow the table once at most.
    this.table = positions ? new PositionTable(Math.max(32, n / 24)) : null;
  }

  /**
   * The document {@code text} holds, or null when it is outside the subset (or not valid YAML) and
   * must be parsed by the engine.
   *
   * <p>Positions are only needed for diagnostics, and most documents have none: the tree is read
   * without them, and the document reads the text again with {@link #positions} when a position is
   * first asked for.
   */
  static YamlDocument read(String text, YamlLimits limits, int lineOffset) {
    YamlSubsetReader reader = new YamlSubsetReader(text, limits, lineOffset, false);
    try {
      return new YamlDocument(reader.document(), text, limits, lineOffset);
    } catch (Decline declined) {
      return null;
    }
  }

  /**
   * The positions of a text {@link #read} accepted with the same limits and offset: the same
   * reading again, recording where every value is.
   */
  static PositionTable positions(String text, YamlLimits limits, int lineOffset) {
    YamlSubsetReader reader = new YamlSubsetReader(text, limits, lineOffset, true);
    try {
      reader.document();
    } catch (Decline declined) {
      throw new IllegalStateException("the text was accepted before and declined now", declined);
    }
    return reader.table;
  }

  /** Thrown (preallocated, without a stack trace) to leave the subset from any depth. */
  private static final class Decline extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final Decline INSTANCE = new Decline();

    private Decline() {
      super("outside the YAML subset", null, false, false);
    }
  }

  /**
   * A char buffer of at least {@code length} for this thread. Every document used to get a fresh
   * copy of its text; reusing one per thread saves allocating and clearing it. Buffers past {@link
   * #MAX_KEPT_BUFFER} chars are not kept.
   */
  private static char[] buffer(int length) {
    char[] kept = BUFFERS.get();
    if (kept != null && kept.length >= length) {
      return kept;
    }
    char[] fresh = new char[Math.max(length, 4096)];
    if (fresh.length <= MAX_KEPT_BUFFER) {
      BUFFERS.set(fresh);
    }
    return fresh;
  }

  private static byte[] oddAscii() {
    byte[] odd = new byte[128];
    for (int c = 0; c < 0x20; c++) {
      odd[c] = (byte) (c == '\n' ? 0 : 1);
    }
    odd[0x7F] = 1;
    return odd;
  }

  private static Decline decline() {
    return Decline.INSTANCE;
  }

  private JsonNode document() {
    checkCharacters();
    firstContentLine();
    if (indent < 0) {
      // An empty document: rare, and the engine's null document is the reference.
      throw decline();
    }
    JsonNode root = blockNode(PositionTable.NONE, -1, 1);
    if (indent >= 0) {
      throw decline();
    }
    return root;
  }

  /**
   * Declines texts with any character the subset does not handle the way the engine does: tabs,
   * carriage returns and other control characters, the engine's extra line breaks (NEL, LS, PS),
   * byte order marks, non-characters and unpaired surrogates.
   */
  private void checkCharacters() {
    // One branch-free pass first: almost every text is printable ASCII and line feeds only.
    int odd = 0;
    for (int i = 0; i < n; i++) {
      char c = chars[i];
      odd |= (c >>> 7) | ODD_ASCII[c & 0x7F];
    }
    if (odd == 0) {
      return;
    }
    for (int i = 0; i < n; i++) {
      char c = chars[i];
      if (c >= 0x20 && c < 0x7F || c == '\n') {
        continue;
      }
      if (c < 0xA0 || c == '\u2028' || c == '\u2029' || c == '\uFEFF' || c >= '\uFFFE') {
        throw decline();
      }
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= n || !Character.isLowSurrogate(chars[i + 1])) {
          throw decline();
        }
        wide = true;
        i++;
      } else if (Character.isLowSurrogate(c)) {
        throw decline();
      }
    }
  }

  // ---------------------------------------------------------------- lines

  /** Like {@link #nextContentLine} from the start, also stepping over one bare {@code ---} line. */
  private void firstContentLine() {
    nextContentLine(true);
    if (indent == 0 && s.startsWith("---", pos)) {
      pos += 3;
      restOfLine();
    }
  }

  /**
   * From the start of a line, skips blank and comment-only lines and stops on the first character
   * of the next content line, setting {@link #indent}; -1 at the end of the text.
   */
  private void nextContentLine() {
    nextContentLine(false);
  }

  private void nextContentLine(boolean allowDocumentStart) {
    while (true) {
      int p = pos;
      while (p < n && chars[p] == ' ') {
        p++;
      }
      if (p >= n) {
        pos = n;
        indent = -1;
        return;
      }
      char c = chars[p];
      if (c == '\n') {
        newLine(p + 1);
        continue;
      }
      if (c == '#') {
        int end = s.indexOf('\n', p);
        if (end < 0) {
          pos = n;
          indent = -1;
          return;
        }
        newLine(end + 1);
        continue;
      }
      pos = p;
      indent = p - lineStart;
      if (indent == 0 && (s.startsWith("---", p) || s.startsWith("...", p))) {
        boolean bareStart = allowDocumentStart && s.startsWith("---", p) && blankOrComment(p + 3);
        if (!bareStart) {
          // Document markers, or plain text that starts like one: the engine decides.
          throw decline();
        }
      }
      return;
    }
  }

  /** True when only spaces, then optionally a comment, follow {@code p} on its line. */
  private boolean blankOrComment(int p) {
    int q = p;
    while (q < n && chars[q] == ' ') {
      q++;
    }
    if (q >= n || chars[q] == '\n') {
      return true;
    }
    return chars[q] == '#' && q > p;
  }

  private void newLine(int start) {
    pos = start;
    line++;
    lineStart = start;
  }

  /**
   * Finishes the current line after a value: only spaces and a comment (after a space) may follow.
   * Then moves to the next content line.
   */
  private void restOfLine() {
    int p = pos;
    while (p < n && chars[p] == ' ') {
      p++;
    }
    if (p < n && chars[p] == '#') {
      // A comment needs a space before it; "a"#b is not one.
      if (p == 0 || chars[p - 1] != ' ') {
        throw decline();
      }
      p = s.indexOf('\n', p);
      if (p < 0) {
        p = n;
      }
    }
    if (p >= n) {
      pos = n;
      indent = -1;
      return;
    }
    if (chars[p] != '\n') {
      throw decline();
    }
    newLine(p + 1);
    nextContentLine();
  }

  private int column(int p) {
    return 1 + (wide ? s.codePointCount(lineStart, p) : p - lineStart);
  }

  /** Records the position of the value at {@link #pos} when positions are read; its row. */
  private int here(int parent, String key, int index) {
    return table == null ? 0 : table.add(parent, key, index, line + 1 + lineOffset, column(pos));
  }

  private char at(int p) {
    return p < n ? chars[p] : '\n';
  }

  private static boolean blank(char c) {
    return c == ' ' || c == '\n';
  }

  /** True at a block sequence entry: {@code -} followed by a space or the end of the line. */
  private boolean sequenceEntry() {
    return at(pos) == '-' && blank(at(pos + 1));
  }

  private void count() {
    if (++nodes > limits.maxNodes()) {
      throw decline();
    }
  }

  private void enter(int depth) {
    if (depth > limits.maxDepth()) {
      throw decline();
    }
    count();
  }

  // ---------------------------------------------------------------- block collections

  /**
   * A block mapping or sequence starting at {@link #pos}, the first content character of its line
   * or the first character after a sequence entry's {@code - }.
   */
  private JsonNode blockNode(int parent, int index, int depth) {
    int row = here(parent, null, index);
    int column = pos - lineStart;
    if (sequenceEntry()) {
      return blockSequence(column, row, depth);
    }
    return blockMapping(column, row, depth);
  }

  private JsonNode blockMapping(int column, int row, int depth) {
    enter(depth);
    int base = top;
    Set<String> keys = null;
    while (true) {
      int keyLine = line + 1 + lineOffset;
      int keyColumn = table == null ? 0 : column(pos);
      String key = blockKey();
      keys = refuseDuplicate(base, key, keys);
      int keyRow = table == null ? 0 : table.add(row, key, 0, keyLine, keyColumn);
      push(key, blockValue(column, keyRow, depth));
      if (indent < column) {
        return mapping(base);
      }
      if (indent > column) {
        throw decline();
      }
    }
  }

  private JsonNode blockSequence(int column, int row, int depth) {
    enter(depth);
    int base = top;
    int index = 0;
    while (true) {
      pos++;
      skipSpaces();
      if (at(pos) == '\n' || at(pos) == '#') {
        restOfLine();
        if (indent <= column) {
          // An empty entry.
          throw decline();
        }
        push(null, blockNode(row, index, depth + 1));
      } else if (sequenceEntry()) {
        throw decline();
      } else if (mappingOnThisLine()) {
        push(null, blockNode(row, index, depth + 1));
      } else {
        int itemRow = here(row, null, index);
        push(null, value(itemRow, depth + 1, false));
        restOfLine();
      }
      index++;
      if (indent > column) {
        throw decline();
      }
      if (indent < column || !sequenceEntry()) {
        return sequence(base);
      }
    }
  }

  /** The value after a block mapping key's {@code :}, leaving {@link #pos} on the next content. */
  private JsonNode blockValue(int column, int keyRow, int depth) {
    skipSpaces();
    char c = at(pos);
    if (c == '\n' || c == '#') {
      restOfLine();
      if (indent > column || (indent == column && sequenceEntry())) {
        int childColumn = indent;
        if (sequenceEntry()) {
          return blockSequence(childColumn, keyRow, depth + 1);
        }
        return blockMapping(childColumn, keyRow, depth + 1);
      }
      count();
      return NODES.nullNode();
    }
    if (c == '|' || c == '>') {
      count();
      return NODES.textNode(blockScalar(column));
    }
    JsonNode value = value(keyRow, depth + 1, false);
    restOfLine();
    return value;
  }

  /**
   * A literal ({@code |}) or folded ({@code >}) block scalar with clip or strip ({@code -})
   * chomping and detected indentation, as a mapping value whose key is at {@code column}. Declines
   * explicit indentation, keep chomping ({@code +}), leading blank lines, blank lines holding more
   * spaces than the content's indentation, more-indented lines in a folded scalar, and empty
   * scalars. Leaves {@link #pos} on the next content line.
   */
  private String blockScalar(int column) {
    boolean folded = chars[pos] == '>';
    pos++;
    boolean strip = at(pos) == '-';
    if (strip) {
      pos++;
    }
    char after = at(pos);
    if (after == '+' || after == '-' || (after >= '0' && after <= '9')) {
      throw decline();
    }
    int p = pos;
    while (p < n && chars[p] == ' ') {
      p++;
    }
    if (p < n && chars[p] == '#' && p > pos) {
      while (p < n && chars[p] != '\n') {
        p++;
      }
    }
    if (p >= n || chars[p] != '\n') {
      throw decline();
    }
    newLine(p + 1);
    StringBuilder out = new StringBuilder();
    int contentIndent = -1;
    int blankLines = 0;
    boolean any = false;
    while (pos < n) {
      int q = pos;
      while (q < n && chars[q] == ' ') {
        q++;
      }
      int spaces = q - pos;
      if (q >= n || chars[q] == '\n') {
        if (contentIndent < 0 || spaces > contentIndent) {
          throw decline();
        }
        blankLines++;
        if (q >= n) {
          pos = n;
          break;
        }
        newLine(q + 1);
        continue;
      }
      if (contentIndent < 0) {
        if (spaces <= column) {
          throw decline();
        }
        contentIndent = spaces;
      }
      if (spaces < contentIndent) {
        break;
      }
      if (folded && spaces > contentIndent) {
        throw decline();
      }
      int eol = q;
      while (eol < n && chars[eol] != '\n') {
        eol++;
      }
      if (any) {
        if (folded && blankLines == 0) {
          out.append(' ');
        } else {
          for (int i = folded ? 0 : -1; i < blankLines; i++) {
            out.append('\n');
          }
        }
      }
      out.append(chars, pos + contentIndent, eol - pos - contentIndent);
      blankLines = 0;
      any = true;
      if (eol >= n) {
        pos = n;
        break;
      }
      newLine(eol + 1);
    }
    if (!any) {
      throw decline();
    }
    if (!strip) {
      // Clip keeps one final line break, also for content that ends the text without one.
      out.append('\n');
    }
    if (pos < n) {
      nextContentLine();
    } else {
      indent = -1;
    }
    return out.toString();
  }

  /** Reads a block mapping key and its {@code :}, leaving {@link #pos} after the colon. */
  private String blockKey() {
    int start = pos;
    char c = at(pos);
    String key;
    if (c == '"' || c == '\'') {
      key = quoted();
      skipSpaces();
      if (at(pos) != ':') {
        throw decline();
      }
    } else {
      plainStart(false);
      int colon = plainKeyColon(pos);
      if (colon < 0) {
        throw decline();
      }
      key = plainText(pos, colon);
      pos = colon;
    }
    if (pos - start > MAX_KEY_SPAN || !blank(at(pos + 1))) {
      throw decline();
    }
    pos++;
    return key;
  }

  /**
   * The index of the {@code :} that ends a plain key starting at {@code from} on this line, or -1
   * when the line has no such colon before its end or a comment.
   */
  private int plainKeyColon(int from) {
    for (int p = from; p < n; p++) {
      char c = chars[p];
      if (c == '\n') {
        return -1;
      }
      if (c == ':' && blank(at(p + 1))) {
        return p;
      }
      if (c == '#' && p > from && chars[p - 1] == ' ') {
        return -1;
      }
    }
    return -1;
  }

  /** True when a block mapping key starts at {@link #pos} (after a sequence entry's dash). */
  private boolean mappingOnThisLine() {
    char c = at(pos);
    if (c == '"' || c == '\'') {
      int saved = pos;
      quoted();
      skipSpaces();
      boolean key = at(pos) == ':' && blank(at(pos + 1));
      pos = saved;
      return key;
    }
    if (c == '[' || c == '{') {
      return false;
    }
    return plainKeyColon(pos) >= 0;
  }

  private void skipSpaces() {
    while (pos < n && chars[pos] == ' ') {
      pos++;
    }
  }

  // ---------------------------------------------------------------- scalars and flow

  /**
   * A value that starts and ends on the current line: a scalar or a flow collection.
   *
   * @param flow whether the value is inside a flow collection, where plain scalars end at {@code ,}
   *     and brackets
   */
  private JsonNode value(int row, int depth, boolean flow) {
    char c = at(pos);
    switch (c) {
      case '[':
        return flowSequence(row, depth);
      case '{':
        return flowMapping(row, depth);
      case '"':
      case '\'':
        count();
        return NODES.textNode(quoted());
      default:
        count();
        return flow ? flowPlain() : blockPlain();
    }
  }

  /**
   * Declines a plain scalar start the subset does not read as the engine does: indicators, and
   * {@code -}, {@code ?} or {@code :} followed by a blank (or, in flow, by a flow indicator).
   */
  private void plainStart(boolean flow) {
    char c = at(pos);
    switch (c) {
      case '-':
        char next = at(pos + 1);
        if (blank(next) || (flow && ",[]{}".indexOf(next) >= 0)) {
          throw decline();
        }
        return;
      case '?':
      case ':':
      case ',':
      case '[':
      case ']':
      case '{':
      case '}':
      case '#':
      case '&':
      case '*':
      case '!':
      case '|':
      case '>':
      case '\'':
      case '"':
      case '%':
      case '@':
      case '`':
      case ' ':
      case '\n':
        throw decline();
      default:
        return;
    }
  }

  /**
   * A plain scalar in block context, ending at the end of the line or at a comment; a {@code :}
   * followed by a blank inside it (a mapping where none may start) declines.
   */
  private JsonNode blockPlain() {
    plainStart(false);
    int start = pos;
    int p = pos;
    while (p < n) {
      char c = chars[p];
      if (c == '\n') {
        break;
      }
      if (c == ':' && blank(at(p + 1))) {
        throw decline();
      }
      if (c == '#' && chars[p - 1] == ' ') {
        break;
      }
      p++;
    }
    return plainValue(start, p);
  }

  /**
   * The plain scalar from {@code start} to {@code end} without trailing spaces, leaving {@link
   * #pos} after its last character.
   */
  private String plainText(int start, int end) {
    int last = plainEnd(end);
    pos = last;
    return text(start, last);
  }

  /** {@code end} moved back over the spaces that end a plain scalar (it has one other char). */
  private int plainEnd(int end) {
    int last = end;
    while (chars[last - 1] == ' ') {
      last--;
    }
    return last;
  }

  /**
   * The text of {@code chars[start, end)}. Short texts (keys, type names, enum words) come from a
   * small shared table, so the same word is one String whose hash is computed once, for the tree's
   * maps and every later lookup; it is also the JVM's interned String, so looking a key up by a
   * constant finds it at the first comparison. The table is racy on purpose: an entry is immutable
   * and safely published, so a thread sees either a complete entry or none, and a miss only
   * allocates.
   */
  private String text(int start, int end) {
    int length = end - start;
    if (length > MAX_SHARED_LENGTH || !pack(start, end)) {
      return s.substring(start, end);
    }
    int slot = slot(length, SHARED.length - 1);
    Shared shared = SHARED[slot];
    if (packed(shared, length)) {
      return shared.text();
    }
    String fresh = s.substring(start, end).intern();
    SHARED[slot] = new Shared(packA, packB, packC, length, fresh, null);
    return fresh;
  }

  /**
   * The value of the plain scalar from {@code start} to {@code end} without trailing spaces,
   * leaving {@link #pos} after its last character. A plain scalar's value depends on its text
   * alone, so short ones ({@code string}, {@code true}, {@code 0.001}) come from a shared table
   * like {@link #text}'s, resolved once.
   */
  private JsonNode plainValue(int start, int end) {
    int last = plainEnd(end);
    pos = last;
    int length = last - start;
    if (length > MAX_SHARED_LENGTH || !pack(start, last)) {
      return SafeYaml.plainScalar(s.substring(start, last));
    }
    int slot = slot(length, SHARED_PLAIN.length - 1);
    Shared shared = SHARED_PLAIN[slot];
    if (packed(shared, length)) {
      return shared.value();
    }
    JsonNode value = SafeYaml.plainScalar(s.substring(start, last));
    SHARED_PLAIN[slot] = new Shared(packA, packB, packC, length, null, value);
    return value;
  }

  /**
   * A shared short text, identified by its chars packed eight to a long ({@link #pack}) and its
   * length: two texts of one length with equal packs are equal, so a lookup compares four numbers
   * and never the chars. {@code text} is set in {@link #SHARED}, {@code value} in {@link
   * #SHARED_PLAIN}.
   */
  private record Shared(long a, long b, long c, int length, String text, JsonNode value) {}

  /**
   * Packs the (at most 24) chars from {@code start} to {@code end} into {@link #packA}, {@link
   * #packB} and {@link #packC}, eight Latin-1 chars to a long; false when one is not Latin-1.
   */
  private boolean pack(int start, int end) {
    int any = 0;
    int i = start;
    long a = 0;
    for (int stop = Math.min(end, start + 8), shift = 0; i < stop; i++, shift += 8) {
      any |= chars[i];
      a |= (long) chars[i] << shift;
    }
    long b = 0;
    for (int stop = Math.min(end, start + 16), shift = 0; i < stop; i++, shift += 8) {
      any |= chars[i];
      b |= (long) chars[i] << shift;
    }
    long c = 0;
    for (int shift = 0; i < end; i++, shift += 8) {
      any |= chars[i];
      c |= (long) chars[i] << shift;
    }
    packA = a;
    packB = b;
    packC = c;
    return any <= 0xFF;
  }

  /** The table slot of the text just packed; {@code mask} is the table size less one. */
  private int slot(int length, int mask) {
    long h =
        packA * 0x9E3779B97F4A7C15L
            + packB * 0xC2B2AE3D27D4EB4FL
            + packC * 0x165667B19E3779F9L
            + length;
    return (int) (h ^ (h >>> 32) ^ (h >>> 19)) & mask;
  }

  /** True when {@code shared} holds the text just packed. */
  private boolean packed(Shared shared, int length) {
    return shared != null
        && shared.a() == packA
        && shared.b() == packB
        && shared.c() == packC
        && shared.length() == length;
  }

  /**
   * A plain scalar inside a flow collection, ending before {@code ,}, a bracket or a brace. A
   * {@code :} or {@code #} inside one, or the end of the line, declines.
   */
  private JsonNode flowPlain() {
    plainStart(true);
    int start = pos;
    int p = pos;
    while (true) {
      char c = at(p);
      if (c == ',' || c == ']' || c == '}') {
        break;
      }
      if (c == '\n' || c == ':' || c == '#' || c == '[' || c == '{') {
        throw decline();
      }
      p++;
    }
    return plainValue(start, p);
  }

  /** A plain key inside a flow mapping, leaving {@link #pos} on its {@code :}. */
  private String flowKey() {
    char c = at(pos);
    String key;
    if (c == '"' || c == '\'') {
      key = quoted();
    } else {
      plainStart(true);
      int start = pos;
      int p = pos;
      while (true) {
        char k = at(p);
        if (k == ':') {
          break;
        }
        if (k == '\n' || k == ',' || k == '[' || k == ']' || k == '{' || k == '}' || k == '#'
            || k == ' ') {
          throw decline();
        }
        p++;
      }
      key = text(start, p);
      pos = p;
    }
    if (at(pos) != ':' || at(pos + 1) != ' ') {
      throw decline();
    }
    pos++;
    return key;
  }

  private JsonNode flowSequence(int row, int depth) {
    enter(depth);
    int base = top;
    if (!openFlow(']')) {
      int index = 0;
      do {
        int itemRow = here(row, null, index++);
        push(null, value(itemRow, depth + 1, true));
      } while (!flowEntryEnds(']'));
    }
    return sequence(base);
  }

  private JsonNode flowMapping(int row, int depth) {
    enter(depth);
    int base = top;
    if (openFlow('}')) {
      return mapping(base);
    }
    Set<String> keys = null;
    do {
      int keyLine = line + 1 + lineOffset;
      int keyColumn = table == null ? 0 : column(pos);
      String key = flowKey();
      keys = refuseDuplicate(base, key, keys);
      int keyRow = table == null ? 0 : table.add(row, key, 0, keyLine, keyColumn);
      skipSpaces();
      char v = at(pos);
      if (v == ',' || v == '}' || v == '\n') {
        throw decline();
      }
      push(key, value(keyRow, depth + 1, true));
    } while (!flowEntryEnds('}'));
    return mapping(base);
  }

  // ---------------------------------------------------------------- building the tree

  private void push(String key, JsonNode value) {
    if (top == valueStack.length) {
      keyStack = Arrays.copyOf(keyStack, top * 2);
      valueStack = Arrays.copyOf(valueStack, top * 2);
    }
    keyStack[top] = key;
    valueStack[top] = value;
    top++;
  }

  /**
   * Declines a key the mapping whose entries start at {@code base} already has (the engine refuses
   * duplicates). Small mappings are scanned; a large one keeps its keys in a set, returned to be
   * passed in again.
   */
  private Set<String> refuseDuplicate(int base, String key, Set<String> keys) {
    int size = top - base;
    if (keys == null && size <= MAX_SCANNED_KEYS) {
      for (int i = base; i < top; i++) {
        if (keyStack[i].equals(key)) {
          throw decline();
        }
      }
      return null;
    }
    Set<String> seen = keys;
    if (seen == null) {
      seen = new HashSet<>(Arrays.asList(keyStack).subList(base, top));
    }
    if (!seen.add(key)) {
      throw decline();
    }
    return seen;
  }

  /** The mapping of the entries above {@code base}, taken off the stack. */
  private JsonNode mapping(int base) {
    String[] names = Arrays.copyOfRange(keyStack, base, top);
    JsonNode[] values = Arrays.copyOfRange(valueStack, base, top);
    pop(base);
    return FrozenJson.object(names, values);
  }

  /** The sequence of the entries above {@code base}, taken off the stack. */
  private JsonNode sequence(int base) {
    JsonNode[] values = Arrays.copyOfRange(valueStack, base, top);
    pop(base);
    return FrozenJson.array(values);
  }

  /** Takes the entries above {@code base} off; the slots are overwritten by later entries. */
  private void pop(int base) {
    top = base;
  }

  /** Steps over a flow collection's opening bracket; true when it is closed right away. */
  private boolean openFlow(char close) {
    pos++;
    skipSpaces();
    if (at(pos) == close) {
      pos++;
      return true;
    }
    return false;
  }

  /**
   * After a flow entry: true when {@code close} ends the collection, false when a comma announces
   * another entry. A trailing comma and anything else decline.
   */
  private boolean flowEntryEnds(char close) {
    skipSpaces();
    char c = at(pos);
    if (c == close) {
      pos++;
      return true;
    }
    if (c != ',') {
      throw decline();
    }
    pos++;
    skipSpaces();
    if (at(pos) == close) {
      throw decline();
    }
    return false;
  }

  /** The quoted scalar at {@link #pos}, single or double. */
  private String quoted() {
    return at(pos) == '"' ? doubleQuoted() : singleQuoted();
  }

  /** A single-quoted scalar closed on its own line, leaving {@link #pos} after the quote. */
  private String singleQuoted() {
    int p = pos + 1;
    StringBuilder out = null;
    int chunk = p;
    while (true) {
      char c = at(p);
      if (c == '\n') {
        throw decline();
      }
      if (c == '\'') {
        if (at(p + 1) != '\'') {
          break;
        }
        if (out == null) {
          out = new StringBuilder();
        }
        out.append(s, chunk, p + 1);
        p += 2;
        chunk = p;
        continue;
      }
      p++;
    }
    pos = p + 1;
    if (out == null) {
      return s.substring(chunk, p);
    }
    return out.append(s, chunk, p).toString();
  }

  /** A double-quoted scalar closed on its own line, leaving {@link #pos} after the quote. */
  private String doubleQuoted() {
    int p = pos + 1;
    StringBuilder out = null;
    int chunk = p;
    while (true) {
      char c = at(p);
      if (c == '\n') {
        throw decline();
      }
      if (c == '"') {
        break;
      }
      if (c != '\\') {
        p++;
        continue;
      }
      if (out == null) {
        out = new StringBuilder();
      }
      out.append(s, chunk, p);
      p = escape(p + 1, out);
      chunk = p;
    }
    pos = p + 1;
    if (out == null) {
      return s.substring(chunk, p);
    }
    return out.append(s, chunk, p).toString();
  }

  /**
   * Appends the escape whose letter is at {@code p} and returns the index after it. The engine's
   * set: YAML's escapes without {@code \L} and {@code \P}, which it refuses.
   */
  private int escape(int p, StringBuilder out) {
    char c = at(p);
    switch (c) {
      case 'x':
        return hex(p + 1, 2, out);
      case 'u':
        return hex(p + 1, 4, out);
      case 'U':
        return hex(p + 1, 8, out);
      default:
        out.append(singleEscape(c));
        return p + 1;
    }
  }

  /** The character a one-letter escape stands for; anything else declines. */
  private static char singleEscape(char c) {
    return switch (c) {
      case '0' -> '\0';
      case 'a' -> '\u0007';
      case 'b' -> '\b';
      case 't' -> '\t';
      case 'n' -> '\n';
      case 'v' -> '\u000B';
      case 'f' -> '\f';
      case 'r' -> '\r';
      case 'e' -> '\u001B';
      case ' ', '"', '/', '\\' -> c;
      case 'N' -> '\u0085';
      case '_' -> '\u00A0';
      default -> throw decline();
    };
  }

  private int hex(int from, int digits, StringBuilder out) {
    int codePoint = 0;
    for (int i = 0; i < digits; i++) {
      int d = Character.digit(at(from + i), 16);
      if (d < 0) {
        throw decline();
      }
      codePoint = codePoint * 16 + d;
      if (codePoint > Character.MAX_CODE_POINT) {
        throw decline();
      }
    }
    if (codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE) {
      throw decline();
    }
    out.appendCodePoint(codePoint);
    return from + digits;
  }
}

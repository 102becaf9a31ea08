package io.sdmfabric.gdbmi;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Parses one line of GDB/MI output into an {@link MiRecord}, following the grammar in the GDB
 * manual, section "GDB/MI Output Syntax"
 * (https://sourceware.org/gdb/current/onlinedocs/gdb.html/GDB_002fMI-Output-Syntax.html).
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>The input is one line without its {@code \n}; one trailing {@code \r} is ignored, so CR-LF
 *       output parses the same.
 *   <li>Every line is either a complete record or a {@link MiParseException}: nothing is skipped,
 *       repaired, or passed on as program output. Bytes after a complete record are an error.
 *   <li>C-strings accept the C escapes {@code \n \t \r \\ \" \' \a \b \f \v \? \e} (ESC, a GNU
 *       extension gdb uses), octal {@code \NNN} (one to three digits, at most {@code \377}) and hex
 *       {@code \xHH} (one or two digits). Octal and hex escapes stand for bytes; the bytes of the
 *       whole string, raw and escaped, are decoded as UTF-8 together, because gdb escapes each byte
 *       of a multi-byte character separately ({@code "\303\251"} is "é"). Byte sequences that are
 *       not UTF-8 decode to U+FFFD, since they are legal MI that gdb prints for non-UTF-8 program
 *       data.
 *   <li>Variable and async-class names are runs of printable ASCII other than {@code = , { } [ ]
 *       "}: the manual leaves both open, and gdb uses letters, digits, {@code -} and {@code _}.
 *   <li>Tuples and lists may nest at most {@value #MAX_DEPTH} deep, so that hostile input ends in a
 *       parse error rather than a {@link StackOverflowError}.
 *   <li>Time is linear in the line length: one pass over the bytes, no regular expressions, no
 *       backtracking; the one decision that needs lookahead (value list or result list) looks at a
 *       single byte.
 * </ul>
 *
 * <p>The parser is stateless between calls and safe to use from any thread.
 */
public final class MiParser {

  /** The deepest nesting of tuples and lists accepted; gdb's output stays far below it. */
  public static final int MAX_DEPTH = 512;

  private static final byte[] PROMPT = "(gdb)".getBytes(StandardCharsets.US_ASCII);

  private final byte[] in;
  private final int from;
  private final int end;
  private int pos;

  /** Decoded bytes of the c-string being read; reused across strings, grown by doubling. */
  private byte[] scratch = new byte[64];

  private MiParser(byte[] in, int from, int end) {
    this.in = in;
    this.from = from;
    this.end = end;
    this.pos = from;
  }

  /**
   * Parses one line of gdb output.
   *
   * @param line the bytes of the line as gdb wrote them, without the trailing {@code \n}; a
   *     trailing {@code \r} is ignored. Not modified.
   * @return the record
   * @throws MiParseException if the line does not follow the GDB/MI output grammar
   */
  public static MiRecord parse(byte[] line) throws MiParseException {
    Objects.requireNonNull(line, "line");
    return parse(line, 0, line.length);
  }

  /**
   * Parses one line held in part of a buffer, so that a reader need not copy each line out.
   *
   * @param buffer holds the line; not modified
   * @param from the index of the first byte of the line
   * @param to the index after the last byte, excluding the {@code \n}; a trailing {@code \r} is
   *     ignored
   * @return the record
   * @throws MiParseException if the line does not follow the GDB/MI output grammar; its offsets
   *     count from {@code from}
   */
  public static MiRecord parse(byte[] buffer, int from, int to) throws MiParseException {
    Objects.checkFromToIndex(from, to, buffer.length);
    int end = to > from && buffer[to - 1] == '\r' ? to - 1 : to;
    return new MiParser(buffer, from, end).record();
  }

  /**
   * Parses one line given as text, by encoding it as UTF-8 first.
   *
   * @see #parse(byte[])
   */
  public static MiRecord parse(String line) throws MiParseException {
    Objects.requireNonNull(line, "line");
    return parse(line.getBytes(StandardCharsets.UTF_8));
  }

  // record → stream-record | [token] ("^" result-class | ("*"|"+"|"=") async-class)
  //          ("," result)* | "(gdb)"
  private MiRecord record() throws MiParseException {
    if (pos == end) {
      throw error("expected a GDB/MI record but the line is empty");
    }
    byte c = in[pos];
    switch (c) {
      case '~':
        return streamRecord(MiStreamKind.CONSOLE);
      case '@':
        return streamRecord(MiStreamKind.TARGET);
      case '&':
        return streamRecord(MiStreamKind.LOG);
      case '(':
        return prompt();
      default:
        break;
    }
    long token = MiResultRecord.NO_TOKEN;
    if (isDigit(c)) {
      token = token();
      if (pos == end) {
        throw error("expected '^', '*', '+' or '=' after the token");
      }
      c = in[pos];
    }
    switch (c) {
      case '^':
        pos++;
        MiResultClass resultClass = resultClass();
        return new MiResultRecord(token, resultClass, recordResults());
      case '*':
        return asyncRecord(token, MiAsyncKind.EXEC);
      case '+':
        return asyncRecord(token, MiAsyncKind.STATUS);
      case '=':
        return asyncRecord(token, MiAsyncKind.NOTIFY);
      default:
        throw error(
            token == MiResultRecord.NO_TOKEN
                ? "expected a GDB/MI record: one of '~', '@', '&', '^', '*', '+', '=', a numeric"
                    + " token or '(gdb)'"
                : "expected '^', '*', '+' or '=' after the token");
    }
  }

  private MiStreamRecord streamRecord(MiStreamKind kind) throws MiParseException {
    pos++;
    if (pos == end || in[pos] != '"') {
      throw error("expected '\"' to start the text of the stream record");
    }
    String text = cString();
    expectEnd();
    return new MiStreamRecord(kind, text);
  }

  private MiPrompt prompt() throws MiParseException {
    for (byte b : PROMPT) {
      if (pos == end || in[pos] != b) {
        throw error("expected '(gdb)'");
      }
      pos++;
    }
    // gdb writes "(gdb) " with a trailing space; tolerate any number of them.
    while (pos < end && in[pos] == ' ') {
      pos++;
    }
    if (pos != end) {
      throw error("expected end of line after '(gdb)'");
    }
    return MiPrompt.INSTANCE;
  }

  private long token() throws MiParseException {
    int start = pos;
    long value = 0;
    while (pos < end && isDigit(in[pos])) {
      int digit = in[pos] - '0';
      if (value > (Long.MAX_VALUE - digit) / 10) {
        pos = start;
        throw error("expected a token that fits in a long");
      }
      value = value * 10 + digit;
      pos++;
    }
    return value;
  }

  private MiResultClass resultClass() throws MiParseException {
    int start = pos;
    String word = name();
    for (MiResultClass rc : MiResultClass.values()) {
      if (rc.wireName().equals(word)) {
        return rc;
      }
    }
    pos = start;
    throw error("expected a result class: done, running, connected, error or exit");
  }

  private MiAsyncRecord asyncRecord(long token, MiAsyncKind kind) throws MiParseException {
    pos++;
    String asyncClass = name();
    if (asyncClass.isEmpty()) {
      throw error("expected an async class name after '" + kind.prefix() + "'");
    }
    return new MiAsyncRecord(token, kind, asyncClass, recordResults());
  }

  // ("," result)* up to the end of the line.
  private MiTuple recordResults() throws MiParseException {
    if (pos == end) {
      return MiTuple.EMPTY;
    }
    List<MiResult> results = new ArrayList<>();
    while (pos < end && in[pos] == ',') {
      pos++;
      results.add(result(0));
    }
    expectEnd();
    return new MiTuple(results);
  }

  // result → variable "=" value
  private MiResult result(int depth) throws MiParseException {
    String name = name();
    if (name.isEmpty()) {
      throw error("expected a variable name");
    }
    if (pos == end || in[pos] != '=') {
      throw error("expected '=' after variable name '" + name + "'");
    }
    pos++;
    return new MiResult(name, value(depth));
  }

  // value → const | tuple | list
  private MiValue value(int depth) throws MiParseException {
    if (pos < end) {
      switch (in[pos]) {
        case '"':
          return new MiConst(cString());
        case '{':
          return tuple(depth + 1);
        case '[':
          return list(depth + 1);
        default:
          break;
      }
    }
    throw error("expected a value: '\"', '{' or '['");
  }

  // tuple → "{}" | "{" result ("," result)* "}"
  private MiTuple tuple(int depth) throws MiParseException {
    checkDepth(depth);
    pos++;
    if (pos < end && in[pos] == '}') {
      pos++;
      return MiTuple.EMPTY;
    }
    List<MiResult> results = new ArrayList<>();
    while (true) {
      results.add(result(depth));
      if (pos < end && in[pos] == ',') {
        pos++;
      } else if (pos < end && in[pos] == '}') {
        pos++;
        return new MiTuple(results);
      } else {
        throw error("expected ',' or '}' in tuple");
      }
    }
  }

  // list → "[]" | "[" value ("," value)* "]" | "[" result ("," result)* "]"
  private MiList list(int depth) throws MiParseException {
    checkDepth(depth);
    pos++;
    if (pos < end && in[pos] == ']') {
      pos++;
      return MiList.EMPTY;
    }
    // A value starts with one of '"', '{', '['; a result starts with a name, which cannot.
    boolean ofValues = pos < end && (in[pos] == '"' || in[pos] == '{' || in[pos] == '[');
    if (ofValues) {
      List<MiValue> values = new ArrayList<>();
      while (true) {
        values.add(value(depth));
        if (!listContinues()) {
          return MiList.ofValues(values);
        }
      }
    }
    List<MiResult> results = new ArrayList<>();
    while (true) {
      results.add(result(depth));
      if (!listContinues()) {
        return MiList.ofResults(results);
      }
    }
  }

  /** Consumes ',' (true: another element follows) or ']' (false: the list ended). */
  private boolean listContinues() throws MiParseException {
    if (pos < end && in[pos] == ',') {
      pos++;
      return true;
    }
    if (pos < end && in[pos] == ']') {
      pos++;
      return false;
    }
    throw error("expected ',' or ']' in list");
  }

  private void checkDepth(int depth) throws MiParseException {
    if (depth > MAX_DEPTH) {
      throw error("expected tuples and lists nested at most " + MAX_DEPTH + " deep");
    }
  }

  /** Reads a possibly empty name: variable, async class or result class. */
  private String name() {
    int start = pos;
    while (pos < end && isNameByte(in[pos])) {
      pos++;
    }
    // Name bytes are ASCII, so Latin-1 decodes them exactly and without validation.
    return new String(in, start, pos - start, StandardCharsets.ISO_8859_1);
  }

  /**
   * Reads a c-string starting at the opening quote. Strings without escapes, the common case, are
   * decoded straight from the input; the first backslash switches to copying decoded bytes into
   * {@link #scratch}.
   */
  private String cString() throws MiParseException {
    int open = pos;
    pos++;
    int start = pos;
    while (pos < end) {
      byte b = in[pos];
      if (b == '"') {
        pos++;
        return new String(in, start, pos - 1 - start, StandardCharsets.UTF_8);
      }
      if (b == '\\') {
        return escapedCString(open, start);
      }
      pos++;
    }
    throw unterminated(open);
  }

  private String escapedCString(int open, int start) throws MiParseException {
    int len = pos - start;
    ensureScratch(len);
    System.arraycopy(in, start, scratch, 0, len);
    while (pos < end) {
      byte b = in[pos];
      if (b == '"') {
        pos++;
        return new String(scratch, 0, len, StandardCharsets.UTF_8);
      }
      if (len == scratch.length) {
        ensureScratch(len + 1);
      }
      if (b == '\\') {
        scratch[len++] = escape();
      } else {
        scratch[len++] = b;
        pos++;
      }
    }
    throw unterminated(open);
  }

  /** Reads one escape sequence starting at the backslash, returning the byte it stands for. */
  private byte escape() throws MiParseException {
    int backslash = pos;
    pos++;
    if (pos == end) {
      pos = backslash;
      throw error("expected an escape character after '\\' but the line ended");
    }
    byte e = in[pos++];
    switch (e) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case '\\':
        return '\\';
      case '"':
        return '"';
      case '\'':
        return '\'';
      case '?':
        return '?';
      case 'a':
        return 0x07;
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'v':
        return 0x0b;
      case 'e':
        return 0x1b;
      case 'x':
        return hexEscape(backslash);
      default:
        if (e >= '0' && e <= '7') {
          return octalEscape(backslash, e - '0');
        }
        pos = backslash;
        throw error(
            "expected a C escape (one of n t r \\ \" ' ? a b f v e, octal or \\x) after '\\'");
    }
  }

  private byte octalEscape(int backslash, int firstDigit) throws MiParseException {
    int value = firstDigit;
    for (int i = 1; i < 3 && pos < end && in[pos] >= '0' && in[pos] <= '7'; i++) {
      value = value * 8 + (in[pos++] - '0');
    }
    if (value > 0xff) {
      pos = backslash;
      throw error("expected an octal escape of at most \\377");
    }
    return (byte) value;
  }

  private byte hexEscape(int backslash) throws MiParseException {
    int value = 0;
    int digits = 0;
    while (digits < 2 && pos < end && hexValue(in[pos]) >= 0) {
      value = value * 16 + hexValue(in[pos++]);
      digits++;
    }
    if (digits == 0) {
      pos = backslash;
      throw error("expected a hex digit after '\\x'");
    }
    return (byte) value;
  }

  private void ensureScratch(int needed) {
    if (needed > scratch.length) {
      byte[] bigger = new byte[Math.max(needed, scratch.length * 2)];
      System.arraycopy(scratch, 0, bigger, 0, scratch.length);
      scratch = bigger;
    }
  }

  private void expectEnd() throws MiParseException {
    if (pos != end) {
      throw error("expected ',' or end of line after the record");
    }
  }

  private MiParseException unterminated(int open) {
    return error(
        "expected '\"' to close the string opened at offset "
            + charOffset(open)
            + " but the line"
            + " ended");
  }

  /** An exception for the current position, with the offset converted from bytes to chars. */
  private MiParseException error(String expected) {
    String line = new String(in, from, end - from, StandardCharsets.UTF_8);
    return new MiParseException(expected, line, Math.min(charOffset(pos), line.length()));
  }

  /** The char offset in the decoded line of the byte at {@code bytePos}. */
  private int charOffset(int bytePos) {
    return new String(in, from, bytePos - from, StandardCharsets.UTF_8).length();
  }

  private static boolean isDigit(byte b) {
    return b >= '0' && b <= '9';
  }

  private static boolean isNameByte(byte b) {
    if (b <= ' ' || b >= 0x7f) {
      return false;
    }
    switch (b) {
      case '=':
      case ',':
      case '{':
      case '}':
      case '[':
      case ']':
      case '"':
        return false;
      default:
        return true;
    }
  }

  private static int hexValue(byte b) {
    if (b >= '0' && b <= '9') {
      return b - '0';
    }
    if (b >= 'a' && b <= 'f') {
      return b - 'a' + 10;
    }
    if (b >= 'A' && b <= 'F') {
      return b - 'A' + 10;
    }
    return -1;
  }
}

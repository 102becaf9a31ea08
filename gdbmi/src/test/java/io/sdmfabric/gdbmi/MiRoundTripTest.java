package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random syntax trees, written out the way gdb escapes them, parse back to themselves. This covers
 * combinations the recorded transcripts do not: every byte value in strings, deep mixes of tuples
 * and lists, tokens on every record kind.
 */
class MiRoundTripTest {

  private static final String NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCZ0123456789-_";

  private final Random random = new Random(20240613L);

  @Test
  void randomRecordsSurviveWriteAndParse() throws MiParseException {
    for (int i = 0; i < 2_000; i++) {
      MiRecord record = randomRecord();
      byte[] line = write(record);
      assertEquals(
          record, MiParser.parse(line), new String(line, StandardCharsets.UTF_8) + " (case " + i);
    }
  }

  private MiRecord randomRecord() {
    long token = random.nextBoolean() ? MiResultRecord.NO_TOKEN : random.nextInt(100_000);
    switch (random.nextInt(4)) {
      case 0:
        MiResultClass[] classes = MiResultClass.values();
        return new MiResultRecord(
            token, classes[random.nextInt(classes.length)], randomTuple(0, true));
      case 1:
        MiAsyncKind[] kinds = MiAsyncKind.values();
        return new MiAsyncRecord(
            token, kinds[random.nextInt(kinds.length)], randomName(), randomTuple(0, true));
      case 2:
        MiStreamKind[] streams = MiStreamKind.values();
        return new MiStreamRecord(streams[random.nextInt(streams.length)], randomText());
      default:
        return MiPrompt.INSTANCE;
    }
  }

  private MiTuple randomTuple(int depth, boolean allowEmpty) {
    int n = random.nextInt(depth > 3 ? 2 : 5) + (allowEmpty ? 0 : 1);
    if (n == 0) {
      return MiTuple.EMPTY;
    }
    List<MiResult> results = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      // Reusing names checks that duplicates survive in order.
      String name = i > 0 && random.nextInt(4) == 0 ? results.get(0).name() : randomName();
      results.add(new MiResult(name, randomValue(depth + 1)));
    }
    return new MiTuple(results);
  }

  private MiValue randomValue(int depth) {
    int kind = depth > 5 ? 0 : random.nextInt(4);
    switch (kind) {
      case 0:
      case 1:
        return new MiConst(randomText());
      case 2:
        return randomTuple(depth, true);
      default:
        int n = random.nextInt(4);
        if (n == 0) {
          return MiList.EMPTY;
        }
        if (random.nextBoolean()) {
          List<MiValue> values = new ArrayList<>();
          for (int i = 0; i < n; i++) {
            values.add(randomValue(depth + 1));
          }
          return MiList.ofValues(values);
        }
        List<MiResult> results = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          results.add(new MiResult(randomName(), randomValue(depth + 1)));
        }
        return MiList.ofResults(results);
    }
  }

  private String randomName() {
    int n = 1 + random.nextInt(12);
    StringBuilder sb = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      sb.append(NAME_CHARS.charAt(random.nextInt(NAME_CHARS.length())));
    }
    return sb.toString();
  }

  /** Text with ASCII, control characters, quotes, backslashes and multi-byte characters. */
  private String randomText() {
    int n = random.nextInt(20);
    StringBuilder sb = new StringBuilder();
    String specials = "\"\\'?\n\t\r\u0007\b\f\u000b\u001b\u0000\u007féü€日\uD83D\uDE00";
    for (int i = 0; i < n; i++) {
      if (random.nextInt(3) == 0) {
        int at = random.nextInt(specials.length());
        char c = specials.charAt(at);
        // Keep surrogate pairs whole: a lone surrogate is not valid UTF-8 and cannot round-trip.
        if (Character.isHighSurrogate(c)) {
          sb.append(c).append(specials.charAt(at + 1));
        } else if (!Character.isLowSurrogate(c)) {
          sb.append(c);
        }
      } else {
        sb.append((char) (' ' + random.nextInt(95)));
      }
    }
    return sb.toString();
  }

  private byte[] write(MiRecord record) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (record instanceof MiResultRecord r) {
      writeToken(out, r.token());
      out.write('^');
      ascii(out, r.resultClass().wireName());
      writeResults(out, r.results());
    } else if (record instanceof MiAsyncRecord a) {
      writeToken(out, a.token());
      out.write(a.kind().prefix());
      ascii(out, a.asyncClass());
      writeResults(out, a.results());
    } else if (record instanceof MiStreamRecord s) {
      out.write(s.kind().prefix());
      writeString(out, s.text());
    } else {
      ascii(out, random.nextBoolean() ? "(gdb) " : "(gdb)");
    }
    if (random.nextInt(5) == 0) {
      out.write('\r');
    }
    return out.toByteArray();
  }

  private static void writeToken(ByteArrayOutputStream out, long token) {
    if (token != MiResultRecord.NO_TOKEN) {
      ascii(out, Long.toString(token));
    }
  }

  private void writeResults(ByteArrayOutputStream out, MiTuple results) {
    for (MiResult r : results.results()) {
      out.write(',');
      writeResult(out, r);
    }
  }

  private void writeResult(ByteArrayOutputStream out, MiResult r) {
    ascii(out, r.name());
    out.write('=');
    writeValue(out, r.value());
  }

  private void writeValue(ByteArrayOutputStream out, MiValue v) {
    if (v instanceof MiConst c) {
      writeString(out, c.value());
    } else if (v instanceof MiTuple t) {
      out.write('{');
      for (int i = 0; i < t.size(); i++) {
        if (i > 0) {
          out.write(',');
        }
        writeResult(out, t.results().get(i));
      }
      out.write('}');
    } else {
      MiList l = (MiList) v;
      out.write('[');
      for (int i = 0; i < l.values().size(); i++) {
        if (i > 0) {
          out.write(',');
        }
        writeValue(out, l.values().get(i));
      }
      for (int i = 0; i < l.results().size(); i++) {
        if (i > 0) {
          out.write(',');
        }
        writeResult(out, l.results().get(i));
      }
      out.write(']');
    }
  }

  /**
   * Writes a c-string, picking at random among the ways the same byte can be spelled: raw, a named
   * escape, octal or hex. Multi-byte characters are split into escaped bytes at random, as gdb
   * does.
   */
  private void writeString(ByteArrayOutputStream out, String text) {
    out.write('"');
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      int u = b & 0xff;
      int choice = random.nextInt(3);
      if (b == '"' || b == '\\') {
        out.write('\\');
        out.write(b);
      } else if (choice == 0 && u >= 0x20 && u != 0x7f) {
        out.write(b);
      } else if (choice == 1 && named(u) != 0) {
        out.write('\\');
        out.write(named(u));
      } else if (random.nextBoolean()) {
        // Three digits always, so that a following digit cannot extend the escape.
        ascii(out, String.format("\\%03o", u));
      } else {
        ascii(out, String.format("\\x%02x", u));
      }
    }
    out.write('"');
  }

  private static char named(int u) {
    switch (u) {
      case '\n':
        return 'n';
      case '\t':
        return 't';
      case '\r':
        return 'r';
      case '\'':
        return '\'';
      case '?':
        return '?';
      case 0x07:
        return 'a';
      case '\b':
        return 'b';
      case '\f':
        return 'f';
      case 0x0b:
        return 'v';
      case 0x1b:
        return 'e';
      default:
        return 0;
    }
  }

  private static void ascii(ByteArrayOutputStream out, String s) {
    out.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
  }
}

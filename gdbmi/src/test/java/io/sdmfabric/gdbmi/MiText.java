package io.sdmfabric.gdbmi;

import java.nio.charset.StandardCharsets;

/**
 * Writes MI records back as MI text, in one canonical spelling, to check that parsing loses
 * nothing.
 */
final class MiText {
  private MiText() {}

  static String write(MiRecord record) {
    StringBuilder b = new StringBuilder();
    if (record instanceof MiResultRecord r) {
      token(b, r.token());
      b.append('^').append(r.resultClass().name().toLowerCase(java.util.Locale.ROOT));
      results(b, r.results(), true);
    } else if (record instanceof MiAsyncRecord a) {
      token(b, a.token());
      b.append(
              switch (a.kind()) {
                case EXEC -> '*';
                case STATUS -> '+';
                case NOTIFY -> '=';
              })
          .append(a.asyncClass());
      results(b, a.results(), true);
    } else if (record instanceof MiStreamRecord s) {
      b.append(
          switch (s.kind()) {
            case CONSOLE -> '~';
            case TARGET -> '@';
            case LOG -> '&';
          });
      string(b, s.text());
    } else {
      b.append("(gdb) ");
    }
    return b.toString();
  }

  private static void token(StringBuilder b, long token) {
    if (token != MiResultRecord.NO_TOKEN) {
      b.append(token);
    }
  }

  private static void results(StringBuilder b, MiTuple t, boolean leadingComma) {
    boolean first = !leadingComma;
    for (MiResult r : t.results()) {
      if (!first) {
        b.append(',');
      }
      first = false;
      b.append(r.name()).append('=');
      value(b, r.value());
    }
  }

  private static void value(StringBuilder b, MiValue v) {
    if (v instanceof MiConst c) {
      string(b, c.value());
    } else if (v instanceof MiTuple t) {
      b.append('{');
      results(b, t, false);
      b.append('}');
    } else {
      MiList l = (MiList) v;
      b.append('[');
      if (!l.results().isEmpty()) {
        results(b, new MiTuple(l.results()), false);
      } else {
        for (int i = 0; i < l.values().size(); i++) {
          b.append(i == 0 ? "" : ",");
          value(b, l.values().get(i));
        }
      }
      b.append(']');
    }
  }

  /** A C string: quotes, backslashes and control bytes escaped, other UTF-8 bytes as octal. */
  private static void string(StringBuilder b, String s) {
    b.append('"');
    for (byte x : s.getBytes(StandardCharsets.UTF_8)) {
      int u = x & 0xff;
      if (u == '"' || u == '\\') {
        b.append('\\').append((char) u);
      } else if (u < 0x20 || u >= 0x7f) {
        b.append('\\').append(String.format("%03o", u));
      } else {
        b.append((char) u);
      }
    }
    b.append('"');
  }
}

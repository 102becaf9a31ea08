package io.sdmfabric.gdbmi;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The second layer of the MI parser: typed results from the syntax tree of particular commands'
 * answers ({@code -stack-list-frames}, {@code -break-insert}, {@code -thread-info}, {@code
 * *stopped} ...). Field names follow the GDB manual's "GDB/MI Breakpoint Information", "GDB/MI
 * Frame Information" and "GDB/MI Thread Information".
 */
final class GdbResults {
  private GdbResults() {}

  /** A {@code frame={level,addr,func,file,line,from}} tuple; level 0 when absent. */
  static Frame frame(MiTuple t) {
    return new Frame(
        intOr(t, "level", 0),
        address(t.optString("addr").orElse("0")),
        t.optString("func").orElse("??"),
        t.optString("file").orElse(""),
        intOr(t, "line", 0),
        t.optString("from").orElse(""));
  }

  /** The frames of a {@code stack=[frame={...},...]} list. */
  static List<Frame> frames(MiList stack) {
    List<Frame> frames = new ArrayList<>(stack.items().size());
    for (MiValue v : stack.items()) {
      frames.add(frame(asTuple(v)));
    }
    return frames;
  }

  /** A {@code bkpt={...}} or {@code wpt={number,exp}} tuple. */
  static Breakpoint breakpoint(MiTuple t) {
    String type = t.optString("type").orElse("breakpoint");
    Breakpoint.Kind kind =
        switch (type) {
          case "breakpoint" -> Breakpoint.Kind.BREAKPOINT;
          case "hw watchpoint", "watchpoint" -> Breakpoint.Kind.WATCHPOINT;
          case "read watchpoint" -> Breakpoint.Kind.READ_WATCHPOINT;
          case "acc watchpoint" -> Breakpoint.Kind.ACCESS_WATCHPOINT;
          default -> Breakpoint.Kind.OTHER;
        };
    String file = t.optString("file").orElse("");
    int line = intOr(t, "line", 0);
    String location;
    if (t.get("what").isPresent() || t.get("exp").isPresent()) {
      location = t.optString("what").or(() -> t.optString("exp")).orElse("");
    } else if (!file.isEmpty() && line > 0) {
      location = t.optString("func").map(f -> f + " at ").orElse("") + file + ":" + line;
    } else {
      location =
          t.optString("pending")
              .or(() -> t.optString("original-location"))
              .or(() -> t.optString("func"))
              .orElse(t.optString("addr").orElse("?"));
    }
    return new Breakpoint(
        (int) Double.parseDouble(t.string("number")),
        kind,
        location,
        file,
        line,
        !"n".equals(t.optString("enabled").orElse("y")),
        "del".equals(t.optString("disp").orElse("keep")),
        t.optString("cond").orElse(""),
        intOr(t, "ignore", 0),
        intOr(t, "times", 0));
  }

  /**
   * A breakpoint as a {@code bkpt} tuple describes it, where it is in the program of thread group
   * {@code group}: a breakpoint of a gdb with several programs has a location in each of them
   * ({@code addr="<MULTIPLE>"} and a list of {@code locations}, each naming its {@code
   * thread-groups}).
   */
  /**
   * Whether a {@code bkpt} tuple has a location in the program of thread group {@code group}: not
   * when it is pending, nor when it was found only in other programs of the gdb.
   */
  static boolean hasLocationIn(MiTuple t, String group) {
    if (t.has("pending")) {
      return false;
    }
    List<MiTuple> places = new ArrayList<>();
    places.add(t);
    t.get("locations")
        .filter(l -> l instanceof MiList)
        .ifPresent(l -> ((MiList) l).items().forEach(v -> places.add(asTuple(v))));
    for (MiTuple place : places) {
      boolean here =
          place.get("thread-groups").stream()
              .flatMap(
                  g -> g instanceof MiList l ? l.items().stream() : java.util.stream.Stream.empty())
              .anyMatch(g -> g instanceof MiConst c && c.value().equals(group));
      if (here) {
        return true;
      }
    }
    return false;
  }

  static Breakpoint breakpoint(MiTuple t, String group) {
    Breakpoint b = breakpoint(t);
    if (b.kind() != Breakpoint.Kind.BREAKPOINT || t.get("locations").isEmpty()) {
      return b;
    }
    for (MiValue v : t.list("locations").items()) {
      MiTuple location = asTuple(v);
      boolean here =
          location.get("thread-groups").stream()
              .flatMap(
                  g -> g instanceof MiList l ? l.items().stream() : java.util.stream.Stream.empty())
              .anyMatch(g -> g instanceof MiConst c && c.value().equals(group));
      String file = location.optString("file").orElse("");
      int line = intOr(location, "line", 0);
      if (here && !file.isEmpty() && line > 0) {
        String where =
            location.optString("func").map(f -> f + " at ").orElse("") + file + ":" + line;
        return new Breakpoint(
            b.id(),
            b.kind(),
            where,
            file,
            line,
            b.enabled(),
            b.temporary(),
            b.condition(),
            b.ignoreCount(),
            b.hits());
      }
    }
    return b;
  }

  /** A thread of {@code -thread-info}. */
  static ThreadInfo thread(MiTuple t) {
    boolean stopped = "stopped".equals(t.optString("state").orElse(""));
    Frame frame = t.get("frame").map(v -> frame(asTuple(v))).orElse(Frame.UNKNOWN);
    return new ThreadInfo(
        Integer.parseInt(t.string("id")),
        t.optString("target-id").orElse(""),
        t.optString("name").orElse(""),
        stopped,
        frame);
  }

  /** The reason of a {@code *stopped} record. */
  static StopReason stopReason(String reason) {
    if (reason.isEmpty()) {
      return StopReason.UNKNOWN;
    }
    try {
      return StopReason.valueOf(reason.replace('-', '_').toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return StopReason.UNKNOWN;
    }
  }

  /** An exit code as gdb writes it in MI: octal with a leading zero ({@code "012"} is 10). */
  static int exitCode(String code) {
    return Integer.parseInt(code, 8);
  }

  /**
   * The rows of gdb's signal table ({@code info signals}, {@code handle}): {@code NAME Yes/No
   * Yes/No Yes/No Description}, separated by blanks and tabs.
   */
  static List<SignalInfo> signalTable(String text) {
    List<SignalInfo> signals = new ArrayList<>();
    for (String line : text.split("\n")) {
      String[] f = line.strip().split("\\s+", 5);
      if (f.length >= 4
          && f[0].startsWith("SIG")
          && isYesNo(f[1])
          && isYesNo(f[2])
          && isYesNo(f[3])) {
        signals.add(
            new SignalInfo(
                f[0], yes(f[1]), yes(f[2]), yes(f[3]), f.length == 5 ? f[4].strip() : ""));
      }
    }
    return signals;
  }

  /**
   * A variable of {@code -stack-list-variables --simple-values}: no children, {@code {...}} for
   * composites.
   */
  static Value variable(MiTuple t) {
    String type = t.optString("type").orElse("");
    String text = t.optString("value").orElse("{...}");
    return Value.scalar(t.string("name"), type, ValueKinds.classify(type, text, 0), 0, text);
  }

  /** Bytes from the hex {@code contents} of {@code -data-read-memory-bytes}. */
  static byte[] hex(String contents) {
    if (contents.length() % 2 != 0) {
      throw new MiShapeException("odd number of hex digits in memory contents");
    }
    byte[] bytes = new byte[contents.length() / 2];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) Integer.parseInt(contents, 2 * i, 2 * i + 2, 16);
    }
    return bytes;
  }

  /** Hex digits for {@code -data-write-memory-bytes}. */
  static String hex(byte[] bytes) {
    StringBuilder b = new StringBuilder(bytes.length * 2);
    for (byte x : bytes) {
      b.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
    }
    return b.toString();
  }

  static MiTuple asTuple(MiValue v) {
    if (v instanceof MiTuple t) {
      return t;
    }
    throw new MiShapeException("expected a tuple, got " + v);
  }

  private static boolean isYesNo(String s) {
    return s.equals("Yes") || s.equals("No");
  }

  private static boolean yes(String s) {
    return s.equals("Yes");
  }

  private static int intOr(MiTuple t, String name, int fallback) {
    return t.optString(name).map(Integer::parseInt).orElse(fallback);
  }

  private static long address(String addr) {
    try {
      return Long.parseUnsignedLong(addr.startsWith("0x") ? addr.substring(2) : addr, 16);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}

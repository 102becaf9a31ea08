package io.sdmfabric.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.NodeState;
import io.sdmfabric.model.ProcessState;
import io.sdmfabric.model.ProgramInfo;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.StackTree;
import io.sdmfabric.wire.proto.EventBody;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * What others chose (gdb's messages and answers, the names in the program's debugging information,
 * a master's reasons), shown as text and as JSON: on a terminal it can neither act (clear the
 * screen, set the title, move the cursor, reorder the line) nor forge a line of sdm's; as JSON it
 * stays valid and reads back to what was sent. The program's own output is shown as it wrote it.
 */
class OthersTextTest {
  /** A line that rank 5 could not have said: the forgery. */
  private static final String FORGED = "[0-3] stopped: breakpoint 1 in forged";

  private static final String NASTY =
      "\u001b[2J\u001b]0;owned\u0007\r\n" + FORGED + "\u202eevil\u2066\u009b1m\u007f\b";

  private static final RankSet RANK = RankSet.of(5);
  private static final Frame FRAME = new Frame(0, 0, "fn" + NASTY, "f" + NASTY + ".c", 3, "");

  /** The program's own output: colours, as the program wrote them. */
  private static final String COLOURED = "\u001b[31mred\u001b[0m";

  private static List<EventBody> replies() {
    Value value = new Value("v" + NASTY, "int", Value.Kind.INTEGER, 4, NASTY, 0, List.of());
    return List.of(
        EventBodies.error(NASTY),
        EventBodies.loaded(new ProgramInfo("/bin/" + NASTY, false)),
        EventBodies.breakpoint(
            new Breakpoint(
                1,
                Breakpoint.Kind.BREAKPOINT,
                "main" + NASTY,
                "f.c",
                3,
                true,
                false,
                "x" + NASTY,
                0,
                1)),
        EventBodies.breakpoints(
            List.of(
                new Breakpoint(
                    2, Breakpoint.Kind.WATCHPOINT, NASTY, "", 0, false, false, "", 0, 0))),
        EventBodies.frame(FRAME),
        EventBodies.frames(List.of(FRAME, FRAME)),
        EventBodies.value(value),
        EventBodies.type("struct s" + NASTY),
        EventBodies.variables(List.of(value)),
        EventBodies.threads(
            List.of(new ThreadInfo(1, "Thread 0x1 \"" + NASTY + "\"", NASTY, true, FRAME))),
        EventBodies.thread(new ThreadInfo(1, NASTY, NASTY, true, FRAME)),
        EventBodies.signals(List.of(new SignalInfo("SIG" + NASTY, true, true, false, NASTY))),
        EventBodies.text("line 1\n" + NASTY + "\nline 3"));
  }

  private static List<EventBody> events() {
    return List.of(
        EventBodies.event(
            new DebugEvent.Stopped(StopReason.SIGNAL_RECEIVED, "SIG" + NASTY, FRAME, 1, 0)),
        EventBodies.event(new DebugEvent.Exited(0, "SIG" + NASTY)),
        EventBodies.event(new DebugEvent.DebuggerEnded(NASTY)),
        EventBodies.error(NASTY));
  }

  /** Everything a renderer shows, each kind with {@code NASTY} wherever there is text. */
  private static String render(Function<PrintStream, Renderer> make) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Renderer r = make.apply(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    for (EventBody b : replies()) {
      r.reply("p", "expr" + NASTY, new RankReply(RANK, b));
    }
    for (EventBody b : events()) {
      r.event(new RankReply(RANK, b));
    }
    r.stacks(StackTree.of(List.of(FRAME), RANK));
    r.procs(
        new ProcessTable.Listing(
            List.of(new ProcessTable.Row(ProcessState.ERROR, NASTY, RANK)),
            List.of(new ProcessTable.Node(NASTY, NodeState.UP, 7, RANK)),
            List.of(
                new ProcessTable.Process(RANK.first(), ProcessState.ERROR, NASTY, NASTY, 8, 1))),
        io.sdmfabric.wire.SessionClient.Started.SHIM);
    r.error(RANK, NASTY);
    r.error(RankSet.empty(), NASTY);
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static String programOutput(Function<PrintStream, Renderer> make) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Renderer r = make.apply(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    r.event(
        new RankReply(
            RANK,
            EventBodies.event(
                new DebugEvent.Output((COLOURED + "\n").getBytes(StandardCharsets.UTF_8)))));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /** A character a terminal acts on, but the line feed: none may be in sdm's lines. */
  private static boolean acts(int c) {
    return (c < 0x20 && c != '\n' && c != '\t')
        || (c >= 0x7f && c <= 0x9f)
        || (c >= 0x202a && c <= 0x202e)
        || (c >= 0x2066 && c <= 0x2069);
  }

  private static void assertHarmless(String out) {
    out.chars().forEach(c -> assertFalse(acts(c), "char " + c + " in:\n" + out));
  }

  @Test
  void textShowsOthersTextVisiblyAndNoneOfItCanForgeALine() {
    String out = render(TextRenderer::new);
    assertHarmless(out);
    assertTrue(out.contains("\\x1b[2J\\x1b]0;owned\\x07"), out);
    assertTrue(out.contains("\\u202eevil\\u2066\\x9b1m\\x7f\\x08"), out);
    for (String line : out.split("\n")) {
      assertFalse(line.startsWith(FORGED), "a forged line:\n" + out);
      // Every line is the rank's, the continuation of one (indented), a table's, or an error.
      assertTrue(
          line.startsWith("[5] ")
              || line.startsWith("  ")
              || line.startsWith("fn\\x1b") // the root of the stack tree
              || line.startsWith("state ")
              || line.startsWith("error ") // the row of procs
              || line.startsWith("host ") // procs' nodes
              || line.startsWith("\\x1b[2J") // a node named with the text
              || line.startsWith("rank ") // procs -l
              || line.startsWith("5      error ") // procs -l, rank 5
              || line.equals("(started by the launcher under sdm's rank shim)") // procs' last
              || line.startsWith("error: "), // an error of no rank
          line);
    }
    // One line where one is meant.
    assertTrue(out.contains("[5] stopped: signal SIG\\x1b[2J\\x1b]0;owned\\x07\\x0d\\x0a"), out);
    // gdb's answers and reasons with lines of their own keep them, indented.
    assertTrue(out.contains("[5] error: \\x1b[2J\\x1b]0;owned\\x07\\x0d\n  " + FORGED), out);
    assertTrue(out.contains("[5] \n  line 1\n  \\x1b[2J"), out);
    assertTrue(out.contains("\\x0d\n  " + FORGED), out);
  }

  @Test
  void theProgramsOwnOutputIsShownAsItWroteIt() {
    assertEquals("[5] " + COLOURED + System.lineSeparator(), programOutput(TextRenderer::new));
  }

  @Test
  void jsonStaysValidKeepsOffTheTerminalAndReadsBackToWhatWasSent() {
    String out = render(JsonRenderer::new);
    assertHarmless(out);
    List<Object> parsed = new ArrayList<>();
    for (String line : out.split("\n")) {
      parsed.add(new JsonReader(line).document());
    }
    // A line for each reply and event, the stacks, the procs and the two errors.
    assertEquals(replies().size() + events().size() + 4, parsed.size(), out);
    assertTrue(parsed.contains(Map.of("event", "error", "ranks", "5", "message", NASTY)), out);
    Object output = new JsonReader(programOutput(JsonRenderer::new).strip()).document();
    assertEquals(
        Map.of("event", "output", "ranks", "5", "stream", "stdout", "text", COLOURED + "\n"),
        output);
  }

  @Test
  void dotLabelsAreQuotedWholeWithNothingATerminalActsOn() {
    Frame quoted = new Frame(0, 0, "f\"]; evil [label=\"\\" + NASTY, "", 0, "");
    String dot = Dot.write(StackTree.of(List.of(quoted), RANK));
    assertHarmless(dot);
    String[] lines = dot.split("\n");
    // The label is one DOT string: quotes and backslashes inside it escaped.
    assertTrue(lines[2].matches("  n0 \\[label=\"(?:[^\"\\\\]|\\\\.)*\"\\];"), lines[2]);
    assertTrue(lines[2].contains("\\\\x1b[2J"), lines[2]);
  }

  /** A strict reader of one JSON document (RFC 8259), for the test: objects, arrays, strings. */
  private static final class JsonReader {
    private final String s;
    private int i;

    JsonReader(String s) {
      this.s = s;
    }

    Object document() {
      Object v = value();
      assertEquals(s.length(), i, "trailing text in " + s);
      return v;
    }

    private Object value() {
      char c = s.charAt(i);
      if (c == '{') {
        Map<String, Object> m = new LinkedHashMap<>();
        i++;
        if (s.charAt(i) == '}') {
          i++;
          return m;
        }
        while (true) {
          String key = string();
          expect(':');
          m.put(key, value());
          if (s.charAt(i) == '}') {
            i++;
            return m;
          }
          expect(',');
        }
      } else if (c == '[') {
        List<Object> l = new ArrayList<>();
        i++;
        if (s.charAt(i) == ']') {
          i++;
          return l;
        }
        while (true) {
          l.add(value());
          if (s.charAt(i) == ']') {
            i++;
            return l;
          }
          expect(',');
        }
      } else if (c == '"') {
        return string();
      }
      int start = i;
      while (i < s.length() && "+-0123456789.eEtruefalsn".indexOf(s.charAt(i)) >= 0) {
        i++;
      }
      String word = s.substring(start, i);
      assertTrue(word.matches("-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?|true|false|null"), word);
      return word;
    }

    private void expect(char c) {
      assertEquals(c, s.charAt(i), "at " + i + " of " + s);
      i++;
    }

    private String string() {
      expect('"');
      StringBuilder b = new StringBuilder();
      while (true) {
        char c = s.charAt(i++);
        if (c == '"') {
          return b.toString();
        }
        assertTrue(c >= 0x20, "a raw control character in a JSON string: " + s);
        if (c != '\\') {
          b.append(c);
          continue;
        }
        char e = s.charAt(i++);
        switch (e) {
          case '"', '\\', '/' -> b.append(e);
          case 'b' -> b.append('\b');
          case 'f' -> b.append('\f');
          case 'n' -> b.append('\n');
          case 'r' -> b.append('\r');
          case 't' -> b.append('\t');
          case 'u' -> {
            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
            i += 4;
          }
          default -> throw new AssertionError("bad escape \\" + e + " in " + s);
        }
      }
    }
  }
}

package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.StopReason;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The corpus of real gdb transcripts (recorded by {@link TranscriptRecorder}) parses without error,
 * loses nothing when written back, and yields the typed results the debugger relies on.
 */
class TranscriptCorpusTest {

  static Stream<Path> transcripts() throws IOException, URISyntaxException {
    Path dir = Path.of(TranscriptCorpusTest.class.getResource("/transcripts").toURI());
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".mi")).sorted().toList().stream();
    }
  }

  private static List<MiRecord> records(Path transcript) throws IOException {
    List<MiRecord> records = new ArrayList<>();
    int n = 0;
    for (String line : Files.readAllLines(transcript, StandardCharsets.UTF_8)) {
      n++;
      if (line.startsWith("#") || line.isEmpty()) {
        continue;
      }
      try {
        records.add(MiParser.parse(line));
      } catch (MiParseException e) {
        throw new AssertionError(transcript.getFileName() + ":" + n + ": " + e.getMessage(), e);
      }
    }
    return records;
  }

  @ParameterizedTest
  @MethodSource("transcripts")
  void everyLineParsesAndWritesBackToTheSameRecord(Path transcript) throws Exception {
    List<MiRecord> records = records(transcript);
    assertFalse(records.isEmpty());
    for (MiRecord r : records) {
      assertEquals(r, MiParser.parse(MiText.write(r)), () -> "round trip of " + r);
    }
  }

  @ParameterizedTest
  @MethodSource("transcripts")
  void typedResultsComeOutOfEveryRecordThatCarriesThem(Path transcript) throws Exception {
    for (MiRecord r : records(transcript)) {
      MiTuple t =
          r instanceof MiResultRecord rr
              ? rr.results()
              : r instanceof MiAsyncRecord a ? a.results() : MiTuple.EMPTY;
      t.get("frame")
          .ifPresent(f -> assertFalse(GdbResults.frame((MiTuple) f).function().isEmpty()));
      t.get("bkpt").ifPresent(b -> assertTrue(GdbResults.breakpoint((MiTuple) b).id() > 0));
      t.get("stack").ifPresent(s -> assertFalse(GdbResults.frames((MiList) s).isEmpty()));
      t.get("threads")
          .ifPresent(
              ts ->
                  ((MiList) ts)
                      .items()
                      .forEach(x -> assertTrue(GdbResults.thread((MiTuple) x).id() > 0)));
      if (r instanceof MiAsyncRecord a && a.asyncClass().equals("stopped")) {
        t.optString("reason")
            .filter(reason -> !reason.startsWith("exited"))
            .ifPresent(
                reason -> assertFalse(GdbResults.stopReason(reason) == StopReason.UNKNOWN, reason));
      }
    }
  }

  @Test
  void theValuesSessionYieldsWhatTheDebuggerReports() throws Exception {
    Path values = transcripts().filter(p -> p.endsWith("values.mi")).findFirst().orElseThrow();
    List<MiRecord> records = records(values);
    List<Frame> stops = new ArrayList<>();
    List<Breakpoint> breakpoints = new ArrayList<>();
    StringBuilder console = new StringBuilder();
    for (MiRecord r : records) {
      if (r instanceof MiAsyncRecord a && a.asyncClass().equals("stopped")) {
        a.results().get("frame").ifPresent(f -> stops.add(GdbResults.frame((MiTuple) f)));
      } else if (r instanceof MiResultRecord rr && rr.results().get("bkpt").isPresent()) {
        breakpoints.add(GdbResults.breakpoint(rr.results().tuple("bkpt")));
      } else if (r instanceof MiStreamRecord s) {
        console.append(s.text());
      }
    }
    assertEquals("main", stops.get(0).function());
    assertEquals(37, stops.get(0).line());
    assertEquals("square", stops.get(1).function());
    assertEquals("values.c", breakpoints.get(0).file());
    assertEquals("v > 100", breakpoints.get(1).condition());
    assertEquals(2, breakpoints.get(1).ignoreCount());
    assertTrue(breakpoints.get(1).temporary());
    assertTrue(console.toString().contains("exited normally"), console.toString());
  }
}

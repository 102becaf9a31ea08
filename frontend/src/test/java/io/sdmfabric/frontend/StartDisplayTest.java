package io.sdmfabric.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StartProgress;
import io.sdmfabric.wire.SessionClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A start's progress as JSON events, and the terminal line never left in front of what the console
 * or the launcher prints.
 */
class StartDisplayTest {
  private long nanos = 5_000_000_000L;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

  private String written() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private void advance(Duration d) {
    nanos += d.toNanos();
  }

  @Test
  void jsonGetsEachPhaseItsUpdatesAtMostFiveTimesASecondAndTheEnd() {
    StartDisplay display = StartDisplay.asJson(new JsonRenderer(out), () -> nanos);
    display.accept(new StartProgress.Joining(RankSet.range(0, 4), 4, 4));
    advance(Duration.ofMillis(100));
    display.accept(new StartProgress.Joining(RankSet.range(2, 4), 4, 4)); // within 200 ms: dropped
    advance(Duration.ofMillis(150));
    display.accept(new StartProgress.Joining(RankSet.of(3), 4, 4));
    advance(Duration.ofMillis(300));
    display.accept(new StartProgress.Joining(RankSet.of(3), 4, 4)); // no news: dropped
    advance(Duration.ofMillis(10));
    display.accept(new StartProgress.Loading(4)); // a new phase: always
    advance(Duration.ofMillis(10));
    display.accept(new StartProgress.Ready(4));
    display.accept(new StartProgress.Ready(4)); // an end outside a wait: nothing
    assertEquals(
        List.of(
            "{\"event\":\"progress\",\"ranks\":\"0-3\",\"phase\":\"joining\",\"held\":0,"
                + "\"total\":4,\"waiting\":\"0-3\",\"elapsedMs\":0}",
            "{\"event\":\"progress\",\"ranks\":\"0-3\",\"phase\":\"joining\",\"held\":3,"
                + "\"total\":4,\"waiting\":\"3\",\"elapsedMs\":250}",
            "{\"event\":\"progress\",\"ranks\":\"0-3\",\"phase\":\"loading\",\"total\":4,"
                + "\"elapsedMs\":560}",
            "{\"event\":\"progress\",\"ranks\":\"0-3\",\"phase\":\"ready\",\"total\":4,"
                + "\"elapsedMs\":570}"),
        written().lines().toList());
  }

  @Test
  void theConsoleRendererGetsTheProgressThatProgramLoadGivesIt() {
    StartDisplay display = StartDisplay.asJson(new JsonRenderer(out), () -> nanos);
    Renderer renderer = display.around(new JsonRenderer(out));
    renderer.session(RankSet.all(2), SessionClient.Started.GDB);
    advance(Duration.ofMillis(1500));
    renderer.progress(new StartProgress.Loading(2));
    renderer.progress(new StartProgress.Ready(2));
    assertEquals(
        List.of(
            "{\"event\":\"session\",\"ranks\":\"0,1\",\"started\":\"gdb\"}",
            "{\"event\":\"progress\",\"ranks\":\"0,1\",\"phase\":\"loading\",\"total\":2,"
                + "\"elapsedMs\":1500}",
            "{\"event\":\"progress\",\"ranks\":\"0,1\",\"phase\":\"ready\",\"total\":2,"
                + "\"elapsedMs\":1500}"),
        written().lines().toList());
  }

  @Test
  void whatTheConsoleAndTheLauncherPrintErasesTheLineFirst() {
    StartDisplay display = StartDisplay.onTerminal(out, () -> nanos);
    Renderer renderer = display.around(new TextRenderer(display.around(out)));
    PrintStream err = display.around(out);
    display.accept(new StartProgress.Loading(4));
    advance(Duration.ofSeconds(2));
    display.refresh();
    renderer.info("hello");
    display.refresh();
    err.println("mpirun: a line");
    display.close();
    assertEquals(
        "\rloading the program on 4 ranks (2 s)\033[K"
            + "\r\033[K"
            + "hello"
            + System.lineSeparator()
            + "\rloading the program on 4 ranks (2 s)\033[K"
            + "\r\033[K"
            + "mpirun: a line"
            + System.lineSeparator(),
        written());
  }

  @Test
  void aPartLineIsNotDrawnOverUntilItsLineEnds() {
    StartDisplay display = StartDisplay.onTerminal(out, () -> nanos);
    PrintStream program = display.around(out);
    display.accept(new StartProgress.Stopping(0, 2, 2));
    advance(Duration.ofSeconds(2));
    program.print("a number? ");
    display.refresh();
    display.accept(new StartProgress.Stopping(1, 2, 2));
    assertEquals("a number? ", written());
    program.println("7");
    display.refresh();
    assertEquals(
        "a number? 7"
            + System.lineSeparator()
            + "\r2 ranks: 1 stopped, waiting for 1 running (2 s)\033[K",
        written());
  }

  @Test
  void aRunToTheFirstStopIsAWaitOfItsOwnTimedFromItsBeginning() {
    StartDisplay display = StartDisplay.onTerminal(out, () -> nanos);
    display.accept(new StartProgress.Ready(8));
    advance(Duration.ofSeconds(30));
    display.accept(new StartProgress.Stopping(0, 8, 8));
    advance(Duration.ofMillis(1500));
    display.accept(new StartProgress.Stopping(5, 8, 8));
    display.refresh();
    advance(Duration.ofMillis(200));
    display.accept(new StartProgress.Stopping(8, 8, 8));
    display.refresh();
    assertEquals("\r8 ranks: 5 stopped, waiting for 3 running (1 s)\033[K" + "\r\033[K", written());
  }

  @Test
  void whileThePromptShowsNothingIsDrawn() {
    StartDisplay display = StartDisplay.onTerminal(out, () -> nanos);
    display.accept(new StartProgress.Ready(8));
    display.accept(new StartProgress.Stopping(0, 8, 8));
    display.suspend();
    advance(Duration.ofSeconds(3));
    display.accept(new StartProgress.Stopping(5, 8, 8));
    display.refresh();
    assertEquals("", written());
    display.resume();
    display.accept(new StartProgress.Stopping(6, 8, 8));
    advance(Duration.ofSeconds(1));
    display.refresh();
    assertEquals("\r8 ranks: 6 stopped, waiting for 2 running (1 s)\033[K", written());
  }

  @Test
  void withNothingToShowTheRendererIsTheConsolesOwn() {
    TextRenderer text = new TextRenderer(out);
    assertEquals(text, StartDisplay.none().around(text));
  }
}

package io.sdmfabric.cli;

import static io.sdmfabric.cli.Sdm.contains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.gdbmi.TestPrograms;
import io.sdmfabric.model.RankSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** sdm debug and sdm stacks end to end: the fat jar, real gdb, the example programs. */
@Tag("gdb")
class SdmDebugIT {

  @BeforeAll
  static void needsGdbAndGcc() throws Exception {
    TestPrograms.assumeGdbAndGcc();
  }

  @AfterEach
  void nothingIsLeftBehind() throws Exception {
    Sdm.assertNothingLeftBehind();
  }

  @Test
  void stacksShowsWhereAHangingJobIsStuck() throws Exception {
    Sdm.Result r =
        Sdm.run("", "stacks", "-n", "4", "--after", "1s", Sdm.example("hang", true).toString());
    assertEquals(0, r.exitCode(), r.toString());
    contains(r, "barrier at hang.c:8  [0,3]");
    contains(r, "receive_from at hang.c:12  [1]");
    contains(r, "receive_from at hang.c:12  [2]");
  }

  @Test
  void stacksShowEveryThreadWithTheOneThatSpinsOnOneRank() throws Exception {
    // Every main thread waits in pthread_join: only the workers show rank 1's spinning one.
    String program = Sdm.example("threads", true).toString();
    Sdm.Result r =
        threadsStarted(after -> Sdm.run("", "stacks", "-n", "3", "--after", after, program));
    assertEquals(0, r.exitCode(), r.toString());
    contains(r, "main at threads.c:30  [0-2] 3 threads");
    contains(r, "worker_a at threads.c:13  [0-2] 8 threads");
    contains(r, "worker_b at threads.c:18  [1] 1 thread");
    Sdm.Result json =
        threadsStarted(
            after ->
                Sdm.run("", "stacks", "-n", "3", "--after", after, "--format", "json", program));
    contains(json, "\"func\":\"worker_b\",\"file\":\"threads.c\",\"line\":18,\"ranks\":\"1\"");
    contains(json, "\"threads\":8");
    Sdm.Result dot =
        threadsStarted(
            after ->
                Sdm.run("", "stacks", "-n", "3", "--after", after, "--format", "dot", program));
    contains(dot, "worker_b at threads.c:18\\n[1] (1, 1 thread)");
  }

  /**
   * {@code stacks} of examples/threads run with {@code --after 2s}, and once more with 10 s when a
   * rank was still starting its threads (in {@code pthread_create}): gdb stops at every thread's
   * start, and under the full suite's load a rank was still there after 2 s. Such a sample is
   * right, but not of the threads the test is about.
   */
  private static Sdm.Result threadsStarted(Sdm.StacksAfter stacks) throws Exception {
    Sdm.Result r = stacks.run("2s");
    if (r.out().contains("pthread_create")) {
      System.err.println("[tests] a rank was still starting its threads after 2 s; again, 10 s");
      r = stacks.run("10s");
    }
    return r;
  }

  @Test
  void btAllMergesEveryThreadOfTheRanksInTheConsole() throws Exception {
    Sdm.Result r =
        Sdm.run(
            "run\nwait 1\ninterrupt\nwait 10\nbt all\n[1] bt all\nprocs\nquit\n",
            "debug",
            "-n",
            "3",
            Sdm.example("threads", true).toString());
    assertEquals(0, r.exitCode(), r.toString());
    contains(r, "worker_a at threads.c:13  [0-2] 8 threads");
    contains(r, "worker_a at threads.c:13  [1] 2 threads");
    contains(r, "worker_b at threads.c:18  [1] 1 thread");
    // procs counts the threads of each group: four a rank (main and three workers).
    Matcher row = Pattern.compile("(?m)^stopped .* (\\d+) +\\[([^\\]]+)\\]$").matcher(r.out());
    int rows = 0;
    while (row.find()) {
      rows++;
      assertEquals(
          4L * RankSet.parse(row.group(2)).size(), Long.parseLong(row.group(1)), row.group());
    }
    assertTrue(rows > 0, "procs shows no stopped group with its threads:\n" + r);
  }

  @Test
  void aSegfaultOnOneRankStopsThatRankWhereItHappened() throws Exception {
    Sdm.Result r =
        Sdm.run(
            "run\nwait 20\nprocs\nbt\nquit\n",
            "debug",
            "-n",
            "4",
            Sdm.example("segv", true).toString());
    assertEquals(0, r.exitCode(), r.toString());
    contains(r, "[1] stopped: signal SIGSEGV in load at segv.c:5");
    contains(r, "exited with code 0");
    contains(r, "load at segv.c:5  [1]");
  }

  @Test
  void aValueThatDiffersOnOneRankStandsOut() throws Exception {
    Sdm.Result r =
        Sdm.run(
            "break compute\nrun\nwait 20\nnext\nwait 20\nprint value\n[0-1] print rank\nquit\n",
            "debug",
            "-n",
            "4",
            Sdm.example("ranks", true).toString());
    contains(r, "[0-3] breakpoint 1: compute at ranks.c:6");
    contains(r, "[0,1,3] value = 42");
    contains(r, "[2] value = -1");
    contains(r, "[0] rank = 0");
    contains(r, "[1] rank = 1");
  }

  @Test
  void breakpointStepNextAndFinish() throws Exception {
    Sdm.Result r =
        Sdm.run(
            "tbreak main\nrun\nwait 20\nnext\nwait 20\nnext\nwait 20\nnext\nwait 20\nnext\nwait 20\n"
                + "step\nwait 20\n"
                + "bt\nfinish\nwait 20\ncontinue\nwait 20\nprocs\nquit\n",
            "debug",
            "-n",
            "2",
            // The two programs start under gdb up to a second apart on a loaded machine; a wide
            // window lets their first stops meet.
            "--event-window",
            "1500",
            Sdm.example("ranks", true).toString());
    // Both ranks stopped there, in one line or, their gdbs far apart on a loaded machine, two.
    assertEquals(
        RankSet.of(0, 1),
        Sdm.ranksSaying(r, "stopped: breakpoint 1 in main at ranks.c:11"),
        r.toString());
    contains(r, "stopped: step in compute at ranks.c:6");
    contains(r, "  compute at ranks.c:6  [0,1]");
    contains(r, "stopped: finish in main at ranks.c:15");
    contains(r, "exited      ");
  }

  @Test
  void inputReachesThePrograms() throws Exception {
    Sdm.Result r =
        Sdm.run(
            // Each rank reads its lines in order and ends at "bye": the wait is for their end.
            "run\ninput hello ranks\n[1] input only one\n[0] input zero\ninput bye\nwait 30\nquit\n",
            "debug",
            "-n",
            "2",
            "--event-window",
            "1000",
            Sdm.example("echo", true).toString());
    contains(r, "[0,1] got: hello ranks");
    contains(r, "[1] got: only one");
    contains(r, "[0] got: zero");
    contains(r, "exited with code 0");
  }

  @Test
  void equalOutputLinesOfManyRanksPrintOnce() throws Exception {
    Sdm.Result r =
        Sdm.run(
            "run\nwait 20\nquit\n",
            "debug",
            "-n",
            "4",
            "--event-window",
            "3000",
            Sdm.example("ranks", true).toString());
    contains(r, "[0-3] hello from the program");
    contains(r, "[2] rank 2 of 4: x = -1");
  }

  @Test
  void jsonModeWritesOneObjectPerEvent() throws Exception {
    Sdm.Result r =
        Sdm.run(
            "break compute\nrun\nwait 20\nprint rank\nbt\nprocs\nfrobnicate\nquit\n",
            "debug",
            "-n",
            "2",
            "--json",
            Sdm.example("ranks", true).toString());
    for (String line : r.out().split("\n")) {
      assertTrue(
          line.startsWith("{\"event\":\"") && line.contains("\"ranks\":\"") && line.endsWith("}"),
          "not an event line: " + line + "\n" + r);
    }
    contains(r, "{\"event\":\"breakpoint\",\"ranks\":\"0,1\",\"id\":1");
    contains(r, "{\"event\":\"stopped\",\"ranks\":\"");
    contains(
        r,
        "\"reason\":\"breakpoint-hit\",\"frame\":{\"func\":\"compute\",\"file\":\"ranks.c\",\"line\":6}}");
    contains(
        r,
        "{\"event\":\"value\",\"ranks\":\"0\",\"expr\":\"rank\",\"value\":\"0\",\"type\":\"int\"}");
    contains(r, "{\"event\":\"stacks\",\"ranks\":\"0,1\",\"tree\":[{\"func\":\"main\"");
    contains(r, "{\"event\":\"procs\",\"ranks\":\"0,1\",\"rows\":[{\"state\":\"stopped\"");
    contains(r, "{\"event\":\"error\",\"ranks\":\"\",\"message\":\"unknown command");
    contains(r, "{\"event\":\"complete\",\"ranks\":\"\",\"command\":\"print\"}");
  }

  @Test
  void badInputGetsAClearMessageAndTheSessionGoesOn() throws Exception {
    Sdm.Result r =
        Sdm.run(
            "frobnicate\n[3-1] bt\n[7] print x\nbreak compute\nrun\nwait 20\n"
                + "print no_such_thing\nnext\nwait 20\nprint value\nquit\n",
            "debug",
            "-n",
            "2",
            Sdm.example("ranks", true).toString());
    assertEquals(0, r.exitCode(), r.toString());
    contains(r, "error: unknown command \"frobnicate\": try \"help\"");
    contains(r, "error: bad rank set");
    contains(r, "[7] error: rank 7 is out of range: the job has ranks 0-1");
    contains(r, "[0,1] error: No symbol \"no_such_thing\" in current context.");
    contains(r, "[0,1] value = 42");
  }

  @Test
  void aMissingOrNonExecutableProgramIsRefusedAtStart() throws Exception {
    Sdm.Result missing = Sdm.run("", "debug", "-n", "2", "/no/such/program");
    assertEquals(2, missing.exitCode(), missing.toString());
    assertTrue(
        missing.err().contains("sdm: program not found: /no/such/program"), missing.toString());
    Path text = Files.createTempFile("not-a-program", ".txt");
    try {
      Sdm.Result notExecutable = Sdm.run("", "debug", text.toString());
      assertEquals(2, notExecutable.exitCode());
      assertTrue(
          notExecutable.err().contains("program is not executable"), notExecutable.toString());
    } finally {
      Files.delete(text);
    }
  }

  @Test
  void anExpressionThatFailsOnSomeRanksIsAnErrorThereAndAValueElsewhere() throws Exception {
    Sdm.Result r =
        Sdm.run(
            "break compute\nrun\nwait 20\nprint 10 / (2 - rank)\nquit\n",
            "debug",
            "-n",
            "4",
            Sdm.example("ranks", true).toString());
    contains(r, "[2] error: Division by zero");
    contains(r, "[0] 10 / (2 - rank) = 5");
    contains(r, "[1] 10 / (2 - rank) = 10");
    contains(r, "[3] 10 / (2 - rank) = -10");
  }

  @Test
  void everyConsoleCommandAnswers() throws Exception {
    String script =
        String.join(
            "\n",
            "help",
            "break compute",
            "tbreak main",
            "run",
            "wait 20",
            "watch x",
            "info breakpoints",
            "disable 3",
            "info breakpoints",
            "enable 3",
            "delete 3",
            "continue",
            "wait 20",
            "frame 1",
            "up",
            "down",
            "args",
            "locals",
            "ptype rank",
            "x/4 &rank",
            "info threads",
            "thread 1",
            "handle SIGUSR1 nostop noprint",
            "info signals",
            "gdb info line compute",
            "[1] kill",
            "wait 10",
            "procs",
            "focus 0",
            "print rank",
            "focus all",
            "interrupt",
            "quit",
            "");
    Sdm.Result r = Sdm.run(script, "debug", "-n", "2", Sdm.example("ranks", true).toString());
    assertEquals(0, r.exitCode(), r.toString());
    contains(r, "Commands (an optional [SET] prefix picks the ranks");
    contains(r, "[0,1] breakpoint 1: compute at ranks.c:6");
    contains(r, "[0,1] watchpoint 3: x");
    contains(r, "  watchpoint 3: x (disabled)");
    contains(r, "[0,1] breakpoints:");
    contains(r, "stopped: breakpoint 2 in main at ranks.c:11");
    contains(r, "stopped: breakpoint 1 in compute at ranks.c:6");
    contains(r, "[0,1] #1 main at ranks.c:15");
    contains(r, "[0,1] error: No frame at level 2.");
    contains(r, "[0,1] #0 compute at ranks.c:6");
    contains(r, "  value = ");
    contains(r, "type = int");
    contains(r, "[0] &rank: ");
    contains(r, "] thread 1 Thread ");
    contains(r, "  SIGUSR1     No   No    Yes  User defined signal 1");
    contains(r, "starts at address");
    contains(r, "[1] killed by signal SIGKILL");
    assertTrue(
        r.out().matches("(?s).*\nstopped +compute at ranks.c:6 +1 +\\[0\\]\n.*"), r.toString());
    assertTrue(r.out().matches("(?s).*\nexited +signal SIGKILL +\\[1\\]\n.*"), r.toString());
    contains(r, "[0] rank = 0");
    assertEquals(1, r.out().split("error:", -1).length - 1, r.toString());
  }

  @Test
  void withoutGdbSdmSaysSoAndExits() throws Exception {
    Sdm.Result r =
        Sdm.runWithEnv(
            Map.of("SDM_GDB", "/no/such/gdb"),
            "",
            "debug",
            "-n",
            "2",
            Sdm.example("ranks", true).toString());
    assertEquals(2, r.exitCode(), r.toString());
    assertTrue(r.err().contains("is gdb installed"), r.toString());
  }

  @Test
  void aProgramWithoutDebugInfoIsLoadedWithAWarning() throws Exception {
    Sdm.Result r = Sdm.run("quit\n", "debug", "-n", "2", Sdm.example("ranks", false).toString());
    contains(r, "(no debugging symbols: no source lines or local variables; compile with -g)");
  }
}

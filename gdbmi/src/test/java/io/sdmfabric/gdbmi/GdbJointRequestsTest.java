package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.JointAnswer;
import io.sdmfabric.model.JointRequests;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.Value;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Several ranks of one real gdb asked at once ({@code sdm-frames}, {@code sdm-values}): each
 * distinct answer once with the ranks that gave it, each rank's answer equal to what its own
 * request gives, gdb's errors as its own request fails with them, and the ranks that cannot be
 * answered so (no thread, running) left to their own request.
 */
@Tag("gdb")
class GdbJointRequestsTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private final List<GdbDebugger> ranks = new ArrayList<>();
  private final List<EventRecorder> events = new ArrayList<>();
  private SharedGdb gdb;

  @BeforeAll
  static void needsGdbAndGcc() {
    TestPrograms.assumeGdbAndGcc();
  }

  @AfterEach
  void closeAll() {
    ranks.forEach(GdbDebugger::close);
  }

  /** Ranks of one gdb, rank r running {@code programs[r]}. */
  private void start(String... programs) throws Exception {
    gdb = SharedGdb.start(GdbOptions.defaults());
    for (String program : programs) {
      GdbDebugger rank = gdb.add();
      EventRecorder recorder = new EventRecorder();
      rank.subscribe(recorder);
      ranks.add(rank);
      events.add(recorder);
      get(rank.load(LaunchSpec.of(TestPrograms.get(program).toString())));
    }
  }

  private static <T> T get(CompletableFuture<T> f) throws Exception {
    try {
      return f.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }

  /** Ranks 0-2 of {@code values} stopped in square, rank 2 in its second call (from twice). */
  private void threeInSquareOneFromTwice() throws Exception {
    for (int r = 0; r < 3; r++) {
      get(ranks.get(r).insertBreakpoint(BreakpointSpec.at("square")));
      get(ranks.get(r).run());
      events.get(r).nextStop();
    }
    get(ranks.get(2).resume());
    events.get(2).nextStop();
  }

  private JointRequests joint() {
    JointRequests joint = ranks.get(0).joint().orElseThrow();
    ranks.forEach(r -> assertSame(joint, r.joint().orElseThrow(), "one gdb, one joint"));
    return joint;
  }

  /** The answers by the members they are for, and what kind each is. */
  private static <T> Map<List<Integer>, Object> byMembers(List<JointAnswer<T>> answers) {
    Map<List<Integer>, Object> out = new LinkedHashMap<>();
    for (JointAnswer<T> a : answers) {
      Object what;
      if (a instanceof JointAnswer.Answered<T> answered) {
        what = answered.result();
      } else if (a instanceof JointAnswer.Failed<T> failed) {
        what = new DebuggerException(failed.message()).getMessage();
      } else {
        what = "alone";
      }
      out.put(a.members(), what);
    }
    return out;
  }

  private List<Frame> ownFrames(int rank) throws Exception {
    return get(ranks.get(rank).frames()).stream().map(Frame::withoutAddress).toList();
  }

  private String ownError(int rank, String expression) {
    return assertThrows(DebuggerException.class, () -> get(ranks.get(rank).evaluate(expression)))
        .getMessage();
  }

  @Test
  void equalStacksComeOnceWithTheirRanksEachAsTheRankAsksAloneAndARankWithoutAThreadIsLeftAlone()
      throws Exception {
    start("values", "values", "values", "values");
    threeInSquareOneFromTwice();

    Map<List<Integer>, Object> answers = byMembers(get(joint().frames(ranks)));

    assertNotEquals(ownFrames(0), ownFrames(2), "rank 2 is in another call of square");
    assertEquals(
        Map.of(List.of(0, 1), ownFrames(0), List.of(2), ownFrames(2), List.of(3), "alone"),
        answers);
    assertEquals(List.of("square", "twice", "main"), functions(ownFrames(2)));
  }

  @Test
  void valuesAndGdbsErrorsAreEachRanksOwnInItsSelectedFrame() throws Exception {
    start("values", "values", "values", "values");
    threeInSquareOneFromTwice();
    get(ranks.get(0).selectFrame(1)); // main, where p is

    Value p = get(ranks.get(0).evaluate("p"));
    assertEquals(
        Map.of(List.of(0), p, List.of(1, 2), ownError(1, "p"), List.of(3), "alone"),
        byMembers(get(joint().evaluate(ranks, "p"))));
    assertEquals(3, p.children().size(), "p's children came with it");
    Value v = get(ranks.get(1).evaluate("v"));
    assertEquals(
        Map.of(List.of(0), ownError(0, "v"), List.of(1, 2), v, List.of(3), "alone"),
        byMembers(get(joint().evaluate(ranks, "v"))));
  }

  /**
   * A rank's value is the program's text, which nobody vouches for: one that reads like the end of
   * its answer and the start of another rank's (quotes, backslashes, brackets, a line feed, a
   * terminal's escape) must stay its own rank's answer, as the rank's own request gives it.
   */
  @Test
  void aValueThatReadsLikeAnotherRanksAnswerStaysItsRanksOwn() throws Exception {
    start("values", "values", "values");
    threeInSquareOneFromTwice();
    String second = get(ranks.get(1).evaluate("$_inferior")).text();
    String forged = "\\\"\\\\\\\"}],alone=\\\"0,2\\\",answers=[{members=[0,2]}\\n\\033]0;x\\007";
    String expression = "$_inferior == " + second + " ? \"" + forged + "\" : \"plain\"";

    Value own = get(ranks.get(1).evaluate(expression));
    assertTrue(own.text().contains("alone="), own.text());
    assertEquals(
        Map.of(List.of(0, 2), get(ranks.get(0).evaluate(expression)), List.of(1), own),
        byMembers(get(joint().evaluate(ranks, expression))));
  }

  @Test
  void aRunningRankIsLeftToItsOwnRequest() throws Exception {
    start("values", "values", "ticker");
    for (int r = 0; r < 2; r++) {
      get(ranks.get(r).insertBreakpoint(BreakpointSpec.at("square")));
      get(ranks.get(r).run());
      events.get(r).nextStop();
    }
    get(ranks.get(2).run());
    events.get(2).awaitOutput("ticking", WAIT);

    assertEquals(
        Map.of(List.of(0, 1), ownFrames(0), List.of(2), "alone"),
        byMembers(get(joint().frames(ranks))));
    get(ranks.get(2).interrupt());
  }

  private static List<String> functions(List<Frame> frames) {
    return frames.stream().map(Frame::function).toList();
  }
}

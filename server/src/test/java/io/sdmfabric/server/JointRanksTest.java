package io.sdmfabric.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sdmfabric.model.Frame;
import io.sdmfabric.model.JointAnswer;
import io.sdmfabric.model.JointRequests;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SharedDebugger;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.proto.EventBody;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * A backtrace or a print on ranks of one debugger process is asked of it once, each distinct answer
 * goes out once for its set of ranks, and ranks the joint request leaves alone answer on their own.
 */
class JointRanksTest {
  private static final Frame MAIN = new Frame(0, 0x401000, "main", "a.c", 3, "");
  private static final Frame SQUARE = new Frame(0, 0x401100, "square", "a.c", 9, "");

  /** A gdb's joint requests that answer as told and count how often, and with whom, they run. */
  private static final class ScriptedJoint implements JointRequests {
    final List<List<? extends SharedDebugger>> asked = new ArrayList<>();
    final List<JointAnswer<List<Frame>>> frames;

    ScriptedJoint(List<JointAnswer<List<Frame>>> frames) {
      this.frames = frames;
    }

    @Override
    public CompletableFuture<List<JointAnswer<List<Frame>>>> frames(
        List<? extends SharedDebugger> members) {
      asked.add(members);
      return frames == null
          ? CompletableFuture.failedFuture(new IllegalStateException("gdb is gone"))
          : CompletableFuture.completedFuture(frames);
    }

    @Override
    public CompletableFuture<List<JointAnswer<Value>>> evaluate(
        List<? extends SharedDebugger> members, String expression) {
      throw new UnsupportedOperationException("not asked in these tests");
    }
  }

  /**
   * A rank's debugger of a shared process ({@code joint}; none: it answers alone), whose own {@code
   * frames()} answers {@code own}; it does nothing else.
   */
  private static SharedDebugger debugger(JointRequests joint, List<Frame> own) {
    return (SharedDebugger)
        Proxy.newProxyInstance(
            JointRanksTest.class.getClassLoader(),
            new Class<?>[] {SharedDebugger.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "joint" -> Optional.ofNullable(joint);
                  case "frames" -> CompletableFuture.completedFuture(own);
                  case "hashCode" -> System.identityHashCode(proxy);
                  case "equals" -> proxy == args[0];
                  case "close", "subscribe" -> null;
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  /** Collects answers as they come: each a set of ranks and its body. */
  private static final class Answers implements NodeBackend.ReplySink {
    final Map<RankSet, EventBody> bySet = new ConcurrentHashMap<>();

    @Override
    public void reply(RankSet ranks, ReplyBody body) {
      if (bySet.put(ranks, body.body()) != null) {
        throw new AssertionError(ranks + " answered twice");
      }
    }
  }

  private static RankBackends node(RankSet ranks, IntFunction<SharedDebugger> debuggers) {
    ReplyCache cache = new ReplyCache();
    return RankBackends.of(ranks, rank -> new DebuggerBackend(debuggers.apply(rank), cache));
  }

  @Test
  void ranksOfOneGdbAreAskedOnceAndEachDistinctAnswerGoesOutOnceForItsRanks() {
    ScriptedJoint gdb =
        new ScriptedJoint(
            List.of(
                new JointAnswer.Answered<>(List.of(0, 2), List.of(SQUARE, MAIN)),
                new JointAnswer.Failed<>(List.of(1), "Selected thread is running."),
                new JointAnswer.AskAlone<>(List.of(3))));
    RankBackends node =
        node(RankSet.range(10, 14), rank -> debugger(gdb, rank == 13 ? List.of(MAIN) : null));
    Answers answers = new Answers();

    node.execute(RankSet.range(10, 14), Commands.listFrames(), answers);

    assertEquals(1, gdb.asked.size(), "one request to the gdb for its four ranks");
    assertEquals(4, gdb.asked.get(0).size());
    assertEquals(
        Map.of(
            RankSet.of(10, 12),
            EventBodies.frames(List.of(SQUARE.withoutAddress(), MAIN.withoutAddress())),
            RankSet.of(11),
            EventBodies.error("Selected thread is running."),
            RankSet.of(13),
            EventBodies.frames(List.of(MAIN.withoutAddress()))),
        Map.copyOf(answers.bySet));
  }

  @Test
  void eachGdbOfANodeIsAskedForItsOwnRanksAndALoneRankOfAGdbAsksAlone() {
    ScriptedJoint first =
        new ScriptedJoint(List.of(new JointAnswer.Answered<>(List.of(0, 1), List.of(MAIN))));
    ScriptedJoint second = new ScriptedJoint(List.of());
    RankBackends node =
        node(
            RankSet.range(0, 4),
            rank ->
                switch (rank) {
                  case 0, 1 -> debugger(first, null);
                  case 2 -> debugger(second, List.of(SQUARE));
                  default -> debugger(null, List.of(MAIN));
                });
    Answers answers = new Answers();

    node.execute(RankSet.range(0, 4), Commands.listFrames(), answers);

    assertEquals(1, first.asked.size());
    assertEquals(0, second.asked.size(), "a gdb with one rank of the command answers alone");
    assertEquals(
        Map.of(
            RankSet.of(0, 1),
            EventBodies.frames(List.of(MAIN.withoutAddress())),
            RankSet.of(2),
            EventBodies.frames(List.of(SQUARE.withoutAddress())),
            RankSet.of(3),
            EventBodies.frames(List.of(MAIN.withoutAddress()))),
        Map.copyOf(answers.bySet));
  }

  @Test
  void whenTheJointRequestFailsEveryRankAnswersAlone() {
    ScriptedJoint gone = new ScriptedJoint(null);
    RankBackends node = node(RankSet.range(0, 2), rank -> debugger(gone, List.of(MAIN)));
    Answers answers = new Answers();

    node.execute(RankSet.range(0, 2), Commands.listFrames(), answers);

    assertEquals(
        Map.of(
            RankSet.of(0),
            EventBodies.frames(List.of(MAIN.withoutAddress())),
            RankSet.of(1),
            EventBodies.frames(List.of(MAIN.withoutAddress()))),
        Map.copyOf(answers.bySet));
  }

  @Test
  void aCommandOtherThanBacktraceOrPrintIsNotAskedJointly() {
    ScriptedJoint gdb = new ScriptedJoint(List.of());
    RankBackends node = node(RankSet.range(0, 2), rank -> debugger(gdb, List.of(MAIN)));
    Answers answers = new Answers();

    node.execute(RankSet.range(0, 2), Commands.stackDepth(), answers);

    assertEquals(0, gdb.asked.size());
    assertEquals(2, answers.bySet.size(), "each rank answered (its error) on its own");
  }
}

package io.sdmfabric.gdbmi;

import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.JointAnswer;
import io.sdmfabric.model.JointRequests;
import io.sdmfabric.model.SharedDebugger;
import io.sdmfabric.model.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * One gdb's answers for several of its ranks at once: a backtrace through sdm's gdb command {@code
 * sdm-frames} and a value through {@code sdm-values} ({@code sdm_values.py}), each one MI command
 * for all the ranks asked, in which gdb makes each distinct answer once with the ranks that gave
 * it, and {@code -gdb-show sdm-answer} right after it, which writes that answer in one piece. gdb's
 * cost per rank stays (it unwinds and evaluates in each program), but the MI round trip, the
 * reply's parsing and the caller's work are per gdb and per distinct answer, not per rank.
 *
 * <p>A rank answers here as its own request would: in its selected thread and frame ({@link
 * Inferior}), with gdb's own error. Ranks that cannot (no thread, detached, a thread not stopped, a
 * frame not there, a C++ value whose children only variable objects list) and all of them when the
 * command itself fails (gdb gone, say) are {@link JointAnswer.AskAlone}: their own request then
 * says what it says today.
 */
final class GdbJointRequests implements JointRequests {
  private final SharedGdb gdb;

  /** Marks each joint command, so that its answer is known for its own. */
  private final AtomicLong ids = new AtomicLong();

  GdbJointRequests(SharedGdb gdb) {
    this.gdb = gdb;
  }

  @Override
  public CompletableFuture<List<JointAnswer<List<Frame>>>> frames(
      List<? extends SharedDebugger> members) {
    Asked<Integer> asked = new Asked<>(members.size());
    for (int i = 0; i < members.size(); i++) {
      if (scope(members.get(i), Inferior::onThread) instanceof MiScope.OnThread t) {
        asked.add(i, t.global());
      } else {
        asked.alone(i);
      }
    }
    return asked.send(MiCommands::sdmFrames, answer -> GdbResults.frames(answer.list("stack")));
  }

  @Override
  public CompletableFuture<List<JointAnswer<Value>>> evaluate(
      List<? extends SharedDebugger> members, String expression) {
    Asked<MiScope.AtFrame> asked = new Asked<>(members.size());
    for (int i = 0; i < members.size(); i++) {
      if (scope(members.get(i), Inferior::here) instanceof MiScope.AtFrame f) {
        asked.add(i, f);
      } else {
        asked.alone(i);
      }
    }
    return asked.send(
        (id, where) ->
            MiCommands.sdmValues(
                id, where, GdbDebugger.CHILD_DEPTH, GdbDebugger.MAX_CHILDREN, expression),
        answer -> ValueReader.fromHelper(expression, answer.tuple("value")));
  }

  /**
   * The rank's scope for the request ({@code which}) when it is one of this gdb's and has not
   * detached; gdb's own selection (asked of no rank) otherwise.
   */
  private MiScope scope(SharedDebugger member, Function<Inferior, MiScope> which) {
    if (member instanceof GdbDebugger d && d.link().gdb == gdb && !d.link().detached) {
      return which.apply(d.link().inferior);
    }
    return MiScope.GDB;
  }

  /** The members a joint command asks, with where each is, and those it leaves alone. */
  private final class Asked<W> {
    private final List<Integer> positions = new ArrayList<>();
    private final List<W> where = new ArrayList<>();
    private final List<Integer> alone = new ArrayList<>();
    private final int size;

    Asked(int size) {
      this.size = size;
    }

    void add(int position, W at) {
      positions.add(position);
      where.add(at);
    }

    void alone(int position) {
      alone.add(position);
    }

    <T> CompletableFuture<List<JointAnswer<T>>> send(
        BiFunction<Long, List<W>, MiCommand> command, Function<MiTuple, T> result) {
      if (where.isEmpty()) {
        return CompletableFuture.completedFuture(List.of(new JointAnswer.AskAlone<>(alone)));
      }
      long id = ids.incrementAndGet();
      return gdb.driver()
          .sendTogether(command.apply(id, where), MiCommands.jointAnswer())
          .thenApply(reply -> answers(answer(id, reply), result))
          .exceptionally(failure -> List.of(new JointAnswer.AskAlone<>(all())));
    }

    /**
     * The answer {@code -gdb-show sdm-answer} gave, an MI result record; only that of the command
     * marked {@code id}: should the command have failed before it answered, the value is an earlier
     * command's, or none.
     */
    private static MiTuple answer(long id, MiReply reply) {
      String line = reply.results().string("value");
      MiTuple answer;
      try {
        if (!(MiParser.parse(line) instanceof MiResultRecord record)) {
          throw new DebuggerException("sdm-answer is not an MI result: " + line);
        }
        answer = record.results();
      } catch (MiParseException e) {
        throw new DebuggerException("sdm-answer is not MI: " + e.getMessage());
      }
      if (!answer.string("id").equals(Long.toString(id))) {
        throw new DebuggerException("sdm-answer is another command's: " + line);
      }
      return answer;
    }

    private <T> List<JointAnswer<T>> answers(MiTuple printed, Function<MiTuple, T> result) {
      List<JointAnswer<T>> answers = new ArrayList<>();
      for (MiValue v : printed.list("answers").items()) {
        MiTuple answer = GdbResults.asTuple(v);
        List<Integer> members = members(answer.string("members"));
        if (answer.get("error").isPresent()) {
          answers.add(new JointAnswer.Failed<>(members, answer.string("error")));
        } else {
          answers.add(new JointAnswer.Answered<>(members, result.apply(answer)));
        }
      }
      List<Integer> left = new ArrayList<>(alone);
      left.addAll(members(printed.string("alone")));
      if (!left.isEmpty()) {
        answers.add(new JointAnswer.AskAlone<>(left));
      }
      return answers;
    }

    /** The members' positions in the request for positions in the command ({@code "0,2,3"}). */
    private List<Integer> members(String text) {
      List<Integer> out = new ArrayList<>();
      if (!text.isEmpty()) {
        for (String word : text.split(",")) {
          out.add(positions.get(Integer.parseInt(word)));
        }
      }
      return out;
    }

    private List<Integer> all() {
      List<Integer> every = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        every.add(i);
      }
      return every;
    }
  }
}

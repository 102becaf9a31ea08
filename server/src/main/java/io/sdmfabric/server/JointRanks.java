package io.sdmfabric.server;

import io.sdmfabric.model.Frame;
import io.sdmfabric.model.JointAnswer;
import io.sdmfabric.model.JointRequests;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SharedDebugger;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.proto.CommandBody;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

/**
 * A backtrace or a print on several ranks of one debugger process (the ranks of one gdb) asked once
 * for all of them ({@link JointRequests}), and each distinct answer made into one reply for the set
 * of ranks that gave it: the node's work is per gdb and per distinct answer, not per rank. A rank
 * that cannot be asked so (its debugger answers alone, has ended, or the joint request left it to
 * itself: not stopped, say) runs the command on its own, and answers as it always has.
 */
final class JointRanks {
  private JointRanks() {}

  /** Whether {@code command} is one that ranks of one gdb answer jointly. */
  static boolean answers(CommandBody command) {
    return switch (command.getKindCase()) {
      case LIST_FRAMES, EVALUATE -> true;
      default -> false;
    };
  }

  /** The ranks of one debugger process asked together. */
  private record Members(List<Integer> ranks, List<DebuggerBackend> backends) {}

  /**
   * Runs {@code command} on {@code dest}: jointly for the ranks of each debugger process that has
   * more than one of them, through {@code alone} for every other rank.
   */
  static void execute(
      RankSet dest,
      IntFunction<RankBackend> backends,
      CommandBody command,
      NodeBackend.ReplySink replies,
      IntConsumer alone) {
    Map<JointRequests, Members> joint = new IdentityHashMap<>();
    List<Integer> single = new ArrayList<>();
    dest.forEach(
        rank -> {
          RankBackend backend = backends.apply(rank);
          Optional<JointRequests> requests =
              backend instanceof DebuggerBackend d ? d.joint() : Optional.empty();
          if (requests.isEmpty()) {
            single.add(rank);
            return;
          }
          Members members =
              joint.computeIfAbsent(
                  requests.get(), r -> new Members(new ArrayList<>(), new ArrayList<>()));
          members.ranks().add(rank);
          members.backends().add((DebuggerBackend) backend);
        });
    joint.forEach(
        (requests, members) -> {
          if (members.ranks().size() == 1) {
            single.add(members.ranks().get(0));
          } else {
            ask(requests, members, command, replies, alone);
          }
        });
    single.forEach(alone::accept);
  }

  private static void ask(
      JointRequests requests,
      Members members,
      CommandBody command,
      NodeBackend.ReplySink replies,
      IntConsumer alone) {
    List<SharedDebugger> debuggers =
        members.backends().stream().map(DebuggerBackend::shared).toList();
    DebuggerBackend replier = members.backends().get(0);
    CompletableFuture<? extends List<? extends JointAnswer<?>>> answers;
    try {
      answers =
          switch (command.getKindCase()) {
            case LIST_FRAMES -> requests.frames(debuggers);
            case EVALUATE -> requests.evaluate(debuggers, command.getEvaluate().getExpression());
            default -> throw new IllegalArgumentException("not a joint command: " + command);
          };
    } catch (RuntimeException e) {
      members.ranks().forEach(alone::accept);
      return;
    }
    answers.whenComplete(
        (all, failure) -> {
          if (failure != null) {
            members.ranks().forEach(alone::accept);
            return;
          }
          for (JointAnswer<?> answer : all) {
            RankSet ranks = ranksOf(answer.members(), members.ranks());
            if (answer instanceof JointAnswer.Answered<?> a) {
              replies.reply(ranks, reply(replier, command, a.result()));
            } else if (answer instanceof JointAnswer.Failed<?> f) {
              replies.reply(ranks, replier.failed(f.message()));
            } else {
              ranks.forEach(alone);
            }
          }
        });
  }

  private static ReplyBody reply(DebuggerBackend replier, CommandBody command, Object result) {
    if (command.getKindCase() == CommandBody.KindCase.LIST_FRAMES) {
      @SuppressWarnings("unchecked")
      List<Frame> frames = (List<Frame>) result;
      return replier.frames(command, frames);
    }
    return replier.value(command, (Value) result);
  }

  /** The ranks at {@code positions} of {@code ranks}. */
  private static RankSet ranksOf(List<Integer> positions, List<Integer> ranks) {
    RankSet.Builder set = RankSet.builder();
    positions.forEach(p -> set.add(ranks.get(p)));
    return set.build();
  }
}

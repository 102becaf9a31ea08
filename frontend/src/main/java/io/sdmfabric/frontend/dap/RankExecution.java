package io.sdmfabric.frontend.dap;

import io.sdmfabric.frontend.ProcessTable;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import io.sdmfabric.wire.proto.CommandBody;
import java.util.List;
import java.util.function.BiFunction;
import org.eclipse.lsp4j.debug.ContinueResponse;

/**
 * Running the ranks: continue, step and pause of a DAP thread's ranks (or of every stopped rank),
 * and the run of a launch. Ranks count as running from the request until their stop arrives; what
 * the client held of their groups (variable references) is forgotten as they go.
 */
final class RankExecution {
  private final RankThreads threads;
  private final ProcessTable table;
  private final VariableReferences references;
  private final BiFunction<CommandBody, RankSet, List<RankReply>> exchange;
  private final DapOutput out;

  RankExecution(
      RankThreads threads,
      ProcessTable table,
      VariableReferences references,
      BiFunction<CommandBody, RankSet, List<RankReply>> exchange,
      DapOutput out) {
    this.threads = threads;
    this.table = table;
    this.references = references;
    this.exchange = exchange;
    this.out = out;
  }

  /**
   * Continues thread {@code threadId}'s ranks when {@code singleThread}, else every stopped rank.
   * Ranks not started yet that stopped on entry (held in MPI_Init) are run.
   */
  ContinueResponse continue_(int threadId, Boolean singleThread) {
    boolean one = Boolean.TRUE.equals(singleThread);
    RankSet ranks = one ? threads.group(threadId).ranks() : threads.stopped().union(threads.held());
    RankSet held = ranks.intersect(threads.held());
    if (held.isEmpty()) {
      resume(ranks, Commands.go());
    } else {
      resume(held, Commands.run());
      if (!ranks.minus(held).isEmpty()) {
        resume(ranks.minus(held), Commands.go());
      }
    }
    ContinueResponse response = new ContinueResponse();
    response.setAllThreadsContinued(!one);
    return response;
  }

  /** Steps the ranks of thread {@code threadId}'s group; the other groups stay where they are. */
  void step(int threadId, StepKind kind) {
    resume(threads.group(threadId).ranks(), Commands.step(kind));
  }

  /** Interrupts the running ranks of thread {@code threadId}, or every rank when none runs. */
  void pause(int threadId) {
    RankSet running = threads.running(threads.group(threadId).ranks());
    exchange.apply(Commands.suspend(), running.isEmpty() ? threads.all() : running);
  }

  /** Resumes {@code ranks} with {@code body}: they count as running from now until they stop. */
  void resume(RankSet ranks, CommandBody body) {
    ProcessTable before = table.snapshot();
    references.forget(threads.touching(ranks));
    table.markRunning(ranks);
    for (RankReply r : exchange.apply(body, ranks)) {
      if (r.reply() instanceof Reply.Failure) {
        table.resumeFailed(r.ranks(), before);
        out.console("[" + r.ranks() + "] " + PerRankValues.of(List.of(r)) + "\n");
      }
    }
  }
}

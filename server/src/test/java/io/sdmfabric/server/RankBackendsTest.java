package io.sdmfabric.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class RankBackendsTest {
  private static final CompletableFuture<Void> NOW = CompletableFuture.completedFuture(null);

  private static ScriptedBackend scripted(int rank, CompletableFuture<Void> release) {
    return new ScriptedBackend(rank, ScriptedBackend::byRank, release, ScriptedBackend.newLog());
  }

  /** Collects answers, by rank. */
  private static final class Answers implements NodeBackend.ReplySink {
    final Map<Integer, EventBody> byRank = new ConcurrentHashMap<>();

    @Override
    public void reply(RankSet ranks, ReplyBody body) {
      ranks.forEach(
          rank ->
              byRank.merge(
                  rank,
                  body.body(),
                  (a, b) -> {
                    throw new AssertionError("rank " + rank + " answered twice");
                  }));
    }
  }

  @Test
  void readyAnswersComeBeforeExecuteReturnsAndHeldOnesWhenReleased() {
    CompletableFuture<Void> held = new CompletableFuture<>();
    RankBackends node =
        RankBackends.of(RankSet.range(10, 14), rank -> scripted(rank, rank == 12 ? held : NOW));
    Answers answers = new Answers();
    node.execute(RankSet.of(10, 12, 13), Commands.evaluate("x"), answers);
    assertEquals(
        Map.of(10, EventBodies.text("rank 10"), 13, EventBodies.text("rank 13")),
        Map.copyOf(answers.byRank));
    held.complete(null);
    assertEquals(EventBodies.text("rank 12"), answers.byRank.get(12));
  }

  @Test
  void aRankWithoutABackendAnswersWhy() {
    RankBackends node = RankBackends.growing();
    Answers answers = new Answers();
    node.execute(RankSet.of(3), Commands.evaluate("x"), answers);
    assertEquals(EventBodies.error(RankBackends.NO_BACKEND), answers.byRank.get(3));
  }

  @Test
  void ranksAddedBeforeOrAfterTheSubscriptionReportTheirEvents() {
    RankBackends node = RankBackends.growing();
    ScriptedBackend early = scripted(0, NOW);
    ScriptedBackend late = scripted(1, NOW);
    node.add(0, early);
    List<String> events = new CopyOnWriteArrayList<>();
    node.subscribe((ranks, body) -> events.add(ranks + " " + body.getText().getText()));
    node.add(1, late);
    early.report(EventBodies.text("stopped"));
    late.report(EventBodies.text("exited"));
    assertEquals(List.of("0 stopped", "1 exited"), events);
    Answers answers = new Answers();
    node.execute(RankSet.of(0, 1), Commands.evaluate("x"), answers);
    assertEquals(2, answers.byRank.size());
  }

  @Test
  void aNodesBackendsCloseSideBySide() {
    // Each rank's close waits (with a bound) until every rank's close has begun, as the last rank
    // of each gdb waits for gdb's end: closed one after another, each would wait out its bound.
    int size = 8;
    CountDownLatch begun = new CountDownLatch(size);
    List<Integer> closedBeforeAllBegan = new CopyOnWriteArrayList<>();
    RankBackends node =
        RankBackends.of(
            RankSet.range(0, size),
            rank ->
                new RankBackend() {
                  @Override
                  public CompletionStage<ReplyBody> execute(CommandBody command) {
                    return CompletableFuture.completedFuture(ReplyBody.of(EventBodies.text("")));
                  }

                  @Override
                  public void subscribe(Consumer<EventBody> events) {}

                  @Override
                  public void close() {
                    begun.countDown();
                    try {
                      if (!begun.await(10, TimeUnit.SECONDS)) {
                        closedBeforeAllBegan.add(rank);
                      }
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  }
                });
    node.close();
    assertEquals(0, begun.getCount(), "every rank's backend was closed");
    assertEquals(List.of(), closedBeforeAllBegan);
  }
}

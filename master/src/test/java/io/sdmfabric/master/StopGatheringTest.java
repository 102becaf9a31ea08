package io.sdmfabric.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.RankBackend;
import io.sdmfabric.server.ReplyBody;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The stops that follow a run, continue or step of a rank set are told once per distinct stop with
 * all its ranks, though the ranks stop hundreds of milliseconds apart (as programs that start one
 * after another do); ranks that never stop hold the others back only for the quiet period.
 */
class StopGatheringTest {
  private static final ActorTestKit testKit =
      ActorTestKit.create(
          ConfigFactory.parseString("pekko.actor.serialize-messages = on")
              .withFallback(ConfigFactory.load()));
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final EventBody AT_MAIN =
      EventBodies.event(
          new DebugEvent.Stopped(
              StopReason.BREAKPOINT_HIT, "", new Frame(0, 0, "main", "a.c", 3, ""), 1, 1));

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** A rank that, once run, stops at main after {@code delayMs}, or never when negative. */
  private record Staggered(long delayMs) implements RankBackend {
    private static final java.util.Map<Staggered, Consumer<EventBody>> LISTENERS =
        new java.util.concurrent.ConcurrentHashMap<>();

    @Override
    public CompletionStage<ReplyBody> execute(CommandBody command) {
      if (command.hasRun() && delayMs >= 0) {
        CompletableFuture.delayedExecutor(delayMs, TimeUnit.MILLISECONDS)
            .execute(() -> LISTENERS.get(this).accept(AT_MAIN));
      }
      return CompletableFuture.completedFuture(ReplyBody.of(EventBodies.running()));
    }

    @Override
    public void subscribe(Consumer<EventBody> events) {
      LISTENERS.put(this, events);
    }

    @Override
    public void close() {}
  }

  private static List<SessionEvent.Unsolicited> stopsAfterRun(
      List<Long> delays, Duration quiet, Duration within) {
    int ranks = delays.size();
    ActorRef<Session.Command> session =
        testKit.spawn(
            Session.embedded(
                ranks,
                FabricConfig.defaults().withEventWindow(Duration.ofMillis(50)).withStopQuiet(quiet),
                rank -> new Staggered(delays.get(rank))));
    TestProbe<SessionEvent> events = testKit.createTestProbe();
    session.tell(new Session.Subscribe(events.ref()));
    TestProbe<SessionEvent> replies = testKit.createTestProbe();
    session.tell(
        new Session.Submit(
            CommandBody.newBuilder()
                .setRun(io.sdmfabric.wire.proto.Empty.getDefaultInstance())
                .build(),
            RankSet.all(ranks),
            Duration.ZERO,
            replies.ref()));
    List<SessionEvent.Unsolicited> stops = new ArrayList<>();
    for (SessionEvent e : events.receiveSeveralMessages(1, within).subList(0, 1)) {
      stops.add((SessionEvent.Unsolicited) e);
    }
    return stops;
  }

  @Test
  void ranksThatStopAlikeFarApartAreToldAsOne() {
    // Four ranks stopping 0, 300, 600 and 900 ms after the run: far beyond the tree's 50 ms window.
    List<SessionEvent.Unsolicited> stops =
        stopsAfterRun(List.of(0L, 300L, 600L, 900L), Duration.ofSeconds(1), WAIT);
    assertEquals(1, stops.size());
    assertEquals(RankSet.all(4), stops.get(0).ranks());
    assertEquals(AT_MAIN, stops.get(0).body());
  }

  @Test
  void aRankThatNeverStopsHoldsTheOthersOnlyForTheQuietPeriod() {
    long start = System.nanoTime();
    List<SessionEvent.Unsolicited> stops =
        stopsAfterRun(List.of(0L, 100L, -1L), Duration.ofMillis(500), WAIT);
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertEquals(RankSet.of(0, 1), stops.get(0).ranks());
    assertTrue(tookMs < 10_000, "held for " + tookMs + " ms");
  }

  @Test
  void withoutAQuietPeriodEachBatchIsToldAsItComes() {
    List<SessionEvent.Unsolicited> first = stopsAfterRun(List.of(0L, 1500L), Duration.ZERO, WAIT);
    assertEquals(RankSet.of(0), first.get(0).ranks());
  }
}

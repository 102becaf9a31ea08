package io.sdmfabric.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.RankSet;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.Cancellable;
import org.junit.jupiter.api.Test;

/** Gathering each command's replies: when it is complete, its timeout, and ranks given up. */
class PendingCommandsTest {
  private static final byte[] A = body("a");
  private static final byte[] B = body("b");
  private static final byte[] LOST = body("lost");
  private static final byte[] REPLY_LOST = body("reply lost");

  private record Sent(long id, Map<String, RankSet> groups) {}

  private final List<Sent> sent = new ArrayList<>();
  private final PendingCommands pending =
      new PendingCommands((id, groups) -> sent.add(new Sent(id, byBody(groups))));

  private static byte[] body(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static Map<String, RankSet> byBody(List<ReplyGroup> groups) {
    Map<String, RankSet> out = new HashMap<>();
    for (ReplyGroup g : groups) {
      out.merge(new String(g.body(), StandardCharsets.UTF_8), g.ranks(), RankSet::union);
    }
    return out;
  }

  private static ReplyGroup group(RankSet ranks, byte[] body) {
    return new ReplyGroup(ranks, body);
  }

  /** A timer that only records that it was cancelled. */
  private static final class Timer implements Cancellable {
    boolean cancelled;

    @Override
    public boolean cancel() {
      cancelled = true;
      return true;
    }

    @Override
    public boolean isCancelled() {
      return cancelled;
    }
  }

  @Test
  void aCommandGoesUpOnceWhenItsLastRankAnswersAndItsTimerIsCancelled() {
    Timer timer = new Timer();
    pending.open(1, RankSet.range(0, 4), new ReplyMerger(), 4, timer);
    assertTrue(pending.mergeOwn(1, RankSet.of(0, 1), A));
    assertEquals(List.of(), sent);
    assertTrue(
        pending.mergeFromChild(1, List.of(group(RankSet.of(2), A), group(RankSet.of(3), B))));
    assertEquals(List.of(new Sent(1, Map.of("a", RankSet.range(0, 3), "b", RankSet.of(3)))), sent);
    assertTrue(timer.cancelled);
    assertTrue(pending.isEmpty());
  }

  @Test
  void repliesAlreadyMergedWhenOpenedCount() {
    ReplyMerger ready = new ReplyMerger();
    ready.add(RankSet.of(0), A);
    pending.open(2, RankSet.range(0, 2), ready, 1, null);
    pending.mergeOwn(2, RankSet.of(1), A);
    assertEquals(List.of(new Sent(2, Map.of("a", RankSet.range(0, 2)))), sent);
  }

  @Test
  void aReplyToACommandNotPendingIsNotTaken() {
    assertFalse(pending.mergeFromChild(9, List.of(group(RankSet.of(0), A))));
    assertFalse(pending.mergeOwn(9, RankSet.of(0), A));
    assertEquals(List.of(), sent);
  }

  @Test
  void aTimeoutSendsWhatCameAndLaterRepliesPassAsStragglers() {
    pending.open(3, RankSet.range(0, 4), new ReplyMerger(), 4, null);
    pending.mergeOwn(3, RankSet.of(0, 1), A);
    pending.flush(3);
    assertEquals(List.of(new Sent(3, Map.of("a", RankSet.of(0, 1)))), sent);
    assertTrue(pending.isEmpty());
    assertFalse(pending.mergeFromChild(3, List.of(group(RankSet.of(2, 3), A))));
  }

  @Test
  void aTimeoutWithNothingCameSendsNothing() {
    pending.open(4, RankSet.range(0, 4), new ReplyMerger(), 4, null);
    pending.flush(4);
    assertEquals(List.of(), sent);
    assertTrue(pending.isEmpty());
  }

  @Test
  void anOwedAnswerGoesOnlyToRanksACommandStillAwaits() {
    pending.open(5, RankSet.range(0, 4), new ReplyMerger(), 4, null);
    pending.mergeOwn(5, RankSet.of(0), A);
    pending.answerOwed(RankSet.of(0, 1, 7), B);
    assertEquals(List.of(), sent);
    pending.answerOwed(RankSet.of(2, 3), B);
    assertEquals(List.of(new Sent(5, Map.of("a", RankSet.of(0), "b", RankSet.range(1, 4)))), sent);
  }

  @Test
  void givenUpRanksAnswerLostOrReplyLostAndCompleteTheCommand() {
    pending.open(6, RankSet.range(0, 6), new ReplyMerger(), 6, null);
    pending.mergeOwn(6, RankSet.of(0, 1), A);
    pending.giveUp(RankSet.range(2, 6), RankSet.of(2, 3), LOST, REPLY_LOST);
    assertEquals(
        List.of(
            new Sent(
                6,
                Map.of(
                    "a",
                    RankSet.of(0, 1),
                    "lost",
                    RankSet.of(2, 3),
                    "reply lost",
                    RankSet.of(4, 5)))),
        sent);
  }

  @Test
  void aLateReplyOfAGivenUpRankIsDroppedAndTheOthersStillCount() {
    pending.open(7, RankSet.range(0, 4), new ReplyMerger(), 4, null);
    pending.giveUp(RankSet.of(2, 3), RankSet.empty(), LOST, REPLY_LOST);
    assertEquals(List.of(), sent);
    assertTrue(pending.mergeFromChild(7, List.of(group(RankSet.range(0, 4), A))));
    assertEquals(
        List.of(new Sent(7, Map.of("a", RankSet.of(0, 1), "reply lost", RankSet.of(2, 3)))), sent);
  }

  @Test
  void givingUpRanksNoCommandAwaitsChangesNothing() {
    pending.open(8, RankSet.range(0, 2), new ReplyMerger(), 2, null);
    pending.giveUp(RankSet.range(4, 8), RankSet.of(4), LOST, REPLY_LOST);
    pending.mergeOwn(8, RankSet.range(0, 2), A);
    assertEquals(List.of(new Sent(8, Map.of("a", RankSet.range(0, 2)))), sent);
  }

  @Test
  void stoppingCancelsEveryPendingTimer() {
    Timer first = new Timer();
    Timer second = new Timer();
    pending.open(9, RankSet.of(0), new ReplyMerger(), 1, first);
    pending.open(10, RankSet.of(1), new ReplyMerger(), 1, second);
    pending.open(11, RankSet.of(2), new ReplyMerger(), 1, null);
    pending.cancelTimers();
    assertTrue(first.cancelled);
    assertTrue(second.cancelled);
    assertFalse(pending.isEmpty());
  }
}

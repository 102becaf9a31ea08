package io.sdmfabric.master;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.proto.EventBody;
import java.time.Duration;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class SessionProbesTest {
  private static final ActorTestKit testKit = ActorTestKit.create();

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @Test
  void repliesUntilCompletedAreMergedByBodyWithTheRanksThatAnsweredEach() {
    TestProbe<SessionEvent> probe = testKit.createTestProbe();
    EventBody one = EventBodies.text("1");
    EventBody two = EventBodies.text("2");
    probe.ref().tell(new SessionEvent.Reply(7, RankSet.of(0), one));
    probe.ref().tell(new SessionEvent.Reply(7, RankSet.of(2), two));
    probe.ref().tell(new SessionEvent.Reply(7, RankSet.of(3), one));
    probe.ref().tell(new SessionEvent.Completed(7));
    probe.ref().tell(new SessionEvent.Reply(8, RankSet.of(1), two));

    assertEquals(
        Map.of(one, RankSet.of(0, 3), two, RankSet.of(2)),
        SessionProbes.replies(probe, Duration.ofSeconds(10)));
    // What came after Completed is the next command's.
    assertEquals(
        new SessionEvent.Reply(8, RankSet.of(1), two),
        probe.expectMessageClass(SessionEvent.Reply.class));
  }
}

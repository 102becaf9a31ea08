package io.sdmfabric.master;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * A command sent to a {@link Session} from a test and its replies taken back, written once for the
 * tests of every module (master's test-jar): a probe submits, the session accepts, and the {@link
 * SessionEvent.Reply replies} that come until {@link SessionEvent.Completed} are merged by body,
 * each body with the ranks that answered it.
 *
 * <p>Every wait is bounded by the {@code wait} given; a probe that receives anything else than
 * Accepted, Reply or Completed fails the test.
 */
public final class SessionProbes {
  private SessionProbes() {}

  /**
   * Submits {@code body} to the ranks {@code dest} with a probe of {@code testKit} as the reply
   * address, and returns the probe once the session has accepted the command.
   */
  public static TestProbe<SessionEvent> submit(
      ActorTestKit testKit,
      ActorRef<Session.Command> session,
      CommandBody body,
      RankSet dest,
      Duration wait) {
    TestProbe<SessionEvent> probe = testKit.createTestProbe();
    session.tell(new Session.Submit(body, dest, Duration.ZERO, probe.ref()));
    probe.expectMessageClass(SessionEvent.Accepted.class, wait);
    return probe;
  }

  /**
   * The replies to a submitted command, taken from {@code probe} until the command completes: each
   * body with the union of the ranks that answered it.
   */
  public static Map<EventBody, RankSet> replies(TestProbe<SessionEvent> probe, Duration wait) {
    Map<EventBody, RankSet> replies = new HashMap<>();
    while (true) {
      SessionEvent e = probe.expectMessageClass(SessionEvent.class, wait);
      if (e instanceof SessionEvent.Completed) {
        return replies;
      }
      SessionEvent.Reply r = (SessionEvent.Reply) e;
      replies.merge(r.body(), r.ranks(), RankSet::union);
    }
  }

  /** {@link #submit} and then its {@link #replies}. */
  public static Map<EventBody, RankSet> call(
      ActorTestKit testKit,
      ActorRef<Session.Command> session,
      CommandBody body,
      RankSet dest,
      Duration wait) {
    return replies(submit(testKit, session, body, dest, wait), wait);
  }
}

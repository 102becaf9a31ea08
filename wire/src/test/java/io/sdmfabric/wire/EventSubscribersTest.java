package io.sdmfabric.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sdmfabric.model.RankSet;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class EventSubscribersTest {
  private static final RankReply FIRST = new RankReply(RankSet.of(0), EventBodies.running());
  private static final RankReply SECOND = new RankReply(RankSet.of(1), EventBodies.detached());

  @Test
  void everySubscriberHearsEveryEventInTheOrderTheySubscribed() {
    EventSubscribers subscribers = new EventSubscribers();
    List<String> heard = new ArrayList<>();
    subscribers.subscribe(e -> heard.add("a" + e.ranks()));
    subscribers.subscribe(e -> heard.add("b" + e.ranks()));
    subscribers.publish(FIRST);
    subscribers.publish(SECOND);
    assertEquals(List.of("a0", "b0", "a1", "b1"), heard);
  }

  @Test
  void aClosedSubscriptionHearsNothingMoreAndLeavesTheOthers() {
    EventSubscribers subscribers = new EventSubscribers();
    List<RankReply> a = new ArrayList<>();
    List<RankReply> b = new ArrayList<>();
    Subscription sa = subscribers.subscribe(a::add);
    subscribers.subscribe(b::add);
    subscribers.publish(FIRST);
    sa.close();
    sa.close();
    subscribers.publish(SECOND);
    assertEquals(List.of(FIRST), a);
    assertEquals(List.of(FIRST, SECOND), b);
  }

  @Test
  void aListenerSubscribedTwiceKeepsOneSubscriptionWhenTheOtherCloses() {
    EventSubscribers subscribers = new EventSubscribers();
    List<RankReply> heard = new ArrayList<>();
    Consumer<RankReply> listener = heard::add;
    Subscription one = subscribers.subscribe(listener);
    subscribers.subscribe(listener);
    one.close();
    subscribers.publish(FIRST);
    assertEquals(List.of(FIRST), heard);
  }

  @Test
  void clearingRemovesEverySubscriber() {
    EventSubscribers subscribers = new EventSubscribers();
    List<RankReply> heard = new ArrayList<>();
    subscribers.subscribe(heard::add);
    subscribers.clear();
    subscribers.publish(FIRST);
    assertEquals(List.of(), heard);
  }
}

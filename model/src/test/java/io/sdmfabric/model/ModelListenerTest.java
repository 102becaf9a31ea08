package io.sdmfabric.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ModelListenerTest {

  /** System.Logger delegates to java.util.logging when no other backend is installed. */
  private final Logger julLogger = Logger.getLogger("io.sdmfabric.model");

  private final List<LogRecord> logged = new ArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          logged.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  private boolean parentHandlers;

  @BeforeEach
  void captureLog() {
    parentHandlers = julLogger.getUseParentHandlers();
    julLogger.setUseParentHandlers(false);
    julLogger.addHandler(capture);
  }

  @AfterEach
  void restoreLog() {
    julLogger.removeHandler(capture);
    julLogger.setUseParentHandlers(parentHandlers);
  }

  @Test
  void notifiesStateChangeAfterItHappened() {
    DebugJob job = new DebugJob("j");
    List<JobState> seenState = new ArrayList<>();
    List<ModelEvent> events = new ArrayList<>();
    job.addListener(
        e -> {
          seenState.add(job.state());
          events.add(e);
        });
    job.moveTo(JobState.STARTED);
    assertEquals(List.of(JobState.STARTED), seenState);
    assertEquals(
        List.of(new ModelEvent.StateChanged<>(job, JobState.PENDING, JobState.STARTED)), events);
  }

  @Test
  void staysSilentWhenStateOrAttributeDoNotChange() {
    DebugJob job = new DebugJob("j");
    List<ModelEvent> events = new ArrayList<>();
    job.addListener(events::add);
    assertFalse(job.moveTo(JobState.PENDING));
    job.setAttribute(Attributes.SERVER_PID, -1);
    assertEquals(List.of(), events);
  }

  @Test
  void notifiesAttributeChangeWithOldValueOrDefault() {
    DebugJob job = new DebugJob("j");
    List<ModelEvent> events = new ArrayList<>();
    job.addListener(events::add);
    job.setAttribute(Attributes.SERVER_PID, 7);
    job.setAttribute(Attributes.SERVER_PID, 8);
    assertEquals(
        List.of(
            new ModelEvent.AttributeChanged<>(job, Attributes.SERVER_PID, -1, 7),
            new ModelEvent.AttributeChanged<>(job, Attributes.SERVER_PID, 7, 8)),
        events);
  }

  @Test
  void notifiesListenersInRegistrationOrder() {
    DebugJob job = new DebugJob("j");
    List<String> calls = new ArrayList<>();
    job.addListener(e -> calls.add("first"));
    job.addListener(e -> calls.add("second"));
    job.addListener(e -> calls.add("third"));
    job.moveTo(JobState.RUNNING);
    assertEquals(List.of("first", "second", "third"), calls);
  }

  @Test
  void registeringTheSameListenerTwiceDeliversOnce() {
    DebugJob job = new DebugJob("j");
    List<ModelEvent> events = new ArrayList<>();
    ModelListener listener = events::add;
    job.addListener(listener);
    job.addListener(listener);
    job.moveTo(JobState.RUNNING);
    assertEquals(1, events.size());
  }

  @Test
  void removedListenerHearsNothingMore() {
    DebugJob job = new DebugJob("j");
    List<ModelEvent> events = new ArrayList<>();
    ModelListener listener = events::add;
    job.addListener(listener);
    assertTrue(job.removeListener(listener));
    assertFalse(job.removeListener(listener));
    job.moveTo(JobState.RUNNING);
    assertEquals(List.of(), events);
  }

  @Test
  void listenerRemovingItselfDuringDeliveryDoesNotDisturbOthers() {
    DebugJob job = new DebugJob("j");
    List<String> calls = new ArrayList<>();
    ModelListener[] self = new ModelListener[1];
    self[0] =
        e -> {
          calls.add("once");
          job.removeListener(self[0]);
        };
    job.addListener(self[0]);
    job.addListener(e -> calls.add("always"));
    job.moveTo(JobState.RUNNING);
    job.moveTo(JobState.SUSPENDED);
    assertEquals(List.of("once", "always", "always"), calls);
  }

  @Test
  void throwingListenerIsLoggedAndDoesNotStopTheOthers() {
    DebugJob job = new DebugJob("j");
    List<String> calls = new ArrayList<>();
    job.addListener(e -> calls.add("before"));
    job.addListener(
        e -> {
          throw new IllegalStateException("listener bug");
        });
    job.addListener(e -> calls.add("after"));
    assertTrue(job.moveTo(JobState.RUNNING));
    assertEquals(List.of("before", "after"), calls);
    assertEquals(JobState.RUNNING, job.state());
    assertEquals(1, logged.size());
    assertEquals(Level.WARNING, logged.get(0).getLevel());
    assertEquals("listener bug", logged.get(0).getThrown().getMessage());
  }

  @Test
  void childListenersHearProcessAndNodeStateChangesAfterTheElementsOwnListeners() {
    DebugJob job = new DebugJob("j");
    ComputeNode node = job.addNode("n");
    DebugProcess process = job.addProcess(3, "n");
    List<String> calls = new ArrayList<>();
    List<ModelEvent> childEvents = new ArrayList<>();
    process.addListener(e -> calls.add("process"));
    job.addChildListener(
        e -> {
          calls.add("job-children");
          childEvents.add(e);
        });
    job.addListener(e -> calls.add("job-own"));
    process.moveTo(ProcessState.RUNNING);
    node.moveTo(NodeState.UP);
    assertEquals(List.of("process", "job-children", "job-children"), calls);
    assertEquals(
        List.of(
            new ModelEvent.StateChanged<>(process, ProcessState.NOT_STARTED, ProcessState.RUNNING),
            new ModelEvent.StateChanged<>(node, NodeState.UNKNOWN, NodeState.UP)),
        childEvents);
  }

  @Test
  void childListenersHearAdditions() {
    DebugJob job = new DebugJob("j");
    List<ModelEvent> events = new ArrayList<>();
    job.addChildListener(events::add);
    ComputeNode node = job.addNode("n");
    DebugProcess process = job.addProcess(0, "n");
    job.addProcesses("n", RankSet.range(1, 4));
    assertEquals(
        List.of(
            new ModelEvent.ChildAdded(job, node),
            new ModelEvent.ChildAdded(job, process),
            new ModelEvent.ProcessesAdded(job, "n", RankSet.parse("1-3"))),
        events);
  }

  @Test
  void childListenersDoNotHearAttributeChangesOfChildren() {
    DebugJob job = new DebugJob("j");
    job.addNode("n");
    DebugProcess process = job.addProcess(0, "n");
    List<ModelEvent> events = new ArrayList<>();
    job.addChildListener(events::add);
    process.setAttribute(Attributes.PID, 77);
    assertEquals(List.of(), events);
  }

  @Test
  void removedChildListenerHearsNothingMore() {
    DebugJob job = new DebugJob("j");
    List<ModelEvent> events = new ArrayList<>();
    ModelListener listener = events::add;
    job.addChildListener(listener);
    assertTrue(job.removeChildListener(listener));
    job.addNode("n");
    assertEquals(List.of(), events);
    assertFalse(job.removeChildListener(listener));
  }

  @Test
  void eventNamesTheElementItIsAbout() {
    DebugJob job = new DebugJob("j");
    job.addNode("n");
    DebugProcess process = job.addProcess(0, "n");
    List<ModelEvent> events = new ArrayList<>();
    process.addListener(events::add);
    process.moveTo(ProcessState.STOPPED);
    ModelEvent.StateChanged<?> changed = (ModelEvent.StateChanged<?>) events.get(0);
    assertSame(process, changed.element());
  }
}

package io.sdmfabric.gdbmi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SerialDeliveryTest {
  @Test
  void aTaskGivenWhileNoneRunsRunsNowOnTheGiversThread() {
    SerialDelivery delivery = new SerialDelivery();
    List<Thread> ranOn = new ArrayList<>();
    assertTrue(delivery.execute(() -> ranOn.add(Thread.currentThread())));
    assertEquals(List.of(Thread.currentThread()), ranOn);
  }

  @Test
  void aTaskGivenByATaskRunsAfterItInOrder() {
    SerialDelivery delivery = new SerialDelivery();
    List<String> order = new ArrayList<>();
    delivery.execute(
        () -> {
          order.add("first begins");
          delivery.execute(() -> order.add("second"));
          order.add("first ends");
        });
    assertEquals(List.of("first begins", "first ends", "second"), order);
  }

  /** Many threads give tasks at once: each thread's tasks run in its order, never two at once. */
  @Test
  void tasksOfManyThreadsRunOneAtATimeEachThreadsInOrder() throws Exception {
    SerialDelivery delivery = new SerialDelivery();
    int threads = 4;
    int each = 20_000;
    AtomicInteger running = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    int[] last = new int[threads];
    AtomicInteger outOfOrder = new AtomicInteger();
    AtomicInteger ran = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> givers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int giver = t;
      Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int i = 1; i <= each; i++) {
                  int n = i;
                  delivery.execute(
                      () -> {
                        if (running.incrementAndGet() != 1) {
                          overlaps.incrementAndGet();
                        }
                        if (last[giver] != n - 1) {
                          outOfOrder.incrementAndGet();
                        }
                        last[giver] = n;
                        ran.incrementAndGet();
                        running.decrementAndGet();
                      });
                }
              });
      thread.start();
      givers.add(thread);
    }
    start.countDown();
    for (Thread thread : givers) {
      thread.join(TimeUnit.SECONDS.toMillis(60));
    }
    assertEquals(threads * each, ran.get(), "every task ran");
    assertEquals(0, overlaps.get(), "tasks that ran at once");
    assertEquals(0, outOfOrder.get(), "tasks out of their giver's order");
  }

  @Test
  void aFailingTaskDoesNotKeepTheNextFromRunning() {
    SerialDelivery delivery = new SerialDelivery();
    List<String> ran = new ArrayList<>();
    delivery.execute(
        () -> {
          delivery.execute(() -> ran.add("next"));
          throw new IllegalStateException("a listener's bug");
        });
    assertEquals(List.of("next"), ran);
  }

  @Test
  void afterShutdownTasksAreDroppedAndThoseGivenBeforeStillRun() {
    SerialDelivery delivery = new SerialDelivery();
    List<String> ran = new ArrayList<>();
    delivery.execute(
        () -> {
          delivery.execute(() -> ran.add("given before the shutdown"));
          delivery.shutdown();
          assertFalse(delivery.execute(() -> ran.add("given after")));
        });
    assertEquals(List.of("given before the shutdown"), ran);
  }
}

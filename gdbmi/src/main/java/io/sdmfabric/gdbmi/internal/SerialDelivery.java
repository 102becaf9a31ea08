package io.sdmfabric.gdbmi.internal;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tasks one at a time, in the order they were given, on the thread that gives one while none
 * is running; a task given meanwhile waits for the running thread to take it. So no task waits for
 * another thread to wake up: gdb's reader runs what it read at once, where a delivery thread of its
 * own cost two thread switches a record (a {@code next} of 32 ranks spent half of the JVM's time in
 * the kernel switching threads). Like a single-threaded executor's tasks, each sees what the one
 * before did, and a task must not block: it holds up whoever gave it.
 */
public final class SerialDelivery {
  private static final Logger log = LoggerFactory.getLogger(SerialDelivery.class);

  private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean running = new AtomicBoolean();
  private volatile boolean shut;

  /**
   * Runs {@code task} after those given before it, now if none is running; false once {@link
   * #shutdown()}, and the task is dropped.
   */
  public boolean execute(Runnable task) {
    if (shut) {
      return false;
    }
    tasks.add(task);
    drain();
    return true;
  }

  /** Takes no more tasks; those given already still run. */
  public void shutdown() {
    shut = true;
  }

  private void drain() {
    // Whoever finds no runner runs all there is; a task added just as the runner lets go is seen
    // by the check after it, by the runner or by the thread that added it.
    while (!tasks.isEmpty() && running.compareAndSet(false, true)) {
      try {
        for (Runnable task; (task = tasks.poll()) != null; ) {
          try {
            task.run();
          } catch (RuntimeException e) {
            log.error("a delivery failed", e);
          }
        }
      } finally {
        running.set(false);
      }
    }
  }
}

package io.sdmfabric.connect;

import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Watches the reverse connect directory for {@code sdm listen}: a daemon thread reads it every 200
 * ms and announces each request once, as it arrives; a problem with the directory's files is said
 * once however often it is read.
 *
 * <p>It polls rather than use a {@link java.nio.file.WatchService}: requests are written by {@code
 * sdm connect} on compute nodes into the user's home, which is a network file system on a cluster,
 * and inotify (the JDK's watch service on Linux) hears only of changes made through this host's
 * kernel; and a request goes stale when its {@code sdm connect} is gone, which no file event tells.
 */
final class RequestWatcher implements AutoCloseable {
  /** How often the directory is read. */
  static final long POLL_MS = 200;

  private final ConnectDirectory dir;
  private final Consumer<String> say;
  private final Set<String> announced = new HashSet<>();
  private final Set<String> warned = new HashSet<>();
  private final Thread thread;
  private volatile boolean closed;

  /**
   * Watches {@code dir}, saying announcements and warnings through {@code say} (which escapes
   * them).
   */
  RequestWatcher(ConnectDirectory dir, Consumer<String> say) {
    this.dir = dir;
    this.say = say;
    this.thread = new Thread(this::watch, "request-watcher");
    thread.setDaemon(true);
  }

  /** Announces the requests waiting now, then starts watching for more. */
  void start() {
    announce();
    thread.start();
  }

  /** The requests waiting; each problem with the directory's files is said once. */
  List<ConnectRequest> pending() throws IOException {
    return dir.pending(
        w -> {
          boolean isNew;
          synchronized (warned) {
            isNew = warned.add(w);
          }
          if (isNew) {
            say.accept("sdm listen: " + w);
          }
        });
  }

  /** The requests waiting, waiting up to {@code limit} for one when there is none. */
  List<ConnectRequest> awaitPending(Duration limit) throws IOException, InterruptedException {
    List<ConnectRequest> pending = pending();
    long deadline = System.nanoTime() + limit.toNanos();
    while (pending.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(POLL_MS);
      pending = pending();
    }
    return pending;
  }

  private void watch() {
    while (!closed) {
      announce();
      try {
        Thread.sleep(POLL_MS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Announces each request once, as it arrives. */
  private void announce() {
    List<ConnectRequest> pending;
    try {
      pending = pending();
    } catch (IOException e) {
      return; // said by the next command that reads the directory
    }
    for (ConnectRequest r : pending) {
      boolean isNew;
      synchronized (announced) {
        isNew = announced.add(r.id());
      }
      if (isNew) {
        say.accept(
            "request "
                + r.id()
                + ": "
                + r.describe()
                + "  (accept "
                + r.id()
                + " | reject "
                + r.id()
                + ")");
      }
    }
  }

  /** Stops watching. */
  @Override
  public void close() {
    closed = true;
    thread.interrupt();
  }
}

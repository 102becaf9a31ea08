package io.sdmfabric.gdbmi.internal;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Reads the master sides of several pseudo-terminals (a gdb's programs') on one thread, which
 * sleeps in {@code poll(2)} until one of them has output or the set changes. A thread per terminal
 * that woke up every 200 ms to see whether it was closed took 57% of the JVM's CPU while 2,048
 * stopped ranks answered {@code bt}; sleeping until woken by a pipe, it takes none (issue #30).
 *
 * <p>A terminal is read until it {@linkplain #release releases} it: until its master reports an
 * error or hangs up (every program and the {@link Pty}'s own descriptor have let go of its slave:
 * its last output has been read), or until a deadline when a program still holds its slave. Only
 * then may its master be closed, so that the reader never reads a descriptor number that has been
 * given to another file.
 */
public final class PtyReader implements AutoCloseable {
  /** The byte size of a {@code struct pollfd}: int fd, short events, short revents. */
  private static final int POLLFD = 8;

  private static final int O_CLOEXEC = 02000000;
  private static final int O_NONBLOCK = 04000;
  private static final int EINTR = 4;
  private static final int EAGAIN = 11;

  /** The wake-up pipe: the reader polls {@code [0]}, a change writes a byte to {@code [1]}. */
  private final int[] wakeUp = new int[2];

  private final Thread thread;

  /** The terminals read, by master descriptor. Guarded by this. */
  private final Map<Integer, Watched> watched = new LinkedHashMap<>();

  private boolean ending; // guarded by this

  /** One terminal being read, and when and whether it was released. */
  private static final class Watched {
    final int master;
    final Consumer<byte[]> output;
    final CompletableFuture<Void> released = new CompletableFuture<>();
    long releaseBy = Long.MAX_VALUE; // System.nanoTime(); guarded by the PtyReader

    Watched(int master, Consumer<byte[]> output) {
      this.master = master;
      this.output = output;
    }
  }

  /**
   * Opens the wake-up pipe and starts the reading thread, named {@code name}.
   *
   * @throws IOException when the pipe cannot be made
   */
  public PtyReader(String name) throws IOException {
    try {
      LibC.INSTANCE.pipe2(wakeUp, O_CLOEXEC | O_NONBLOCK);
    } catch (LastErrorException e) {
      throw new IOException("cannot make a pipe: " + e.getMessage(), e);
    }
    thread = new Thread(this::readLoop, name);
    thread.setDaemon(true);
    thread.start();
  }

  /** Reads {@code master} from now on, handing each chunk it reads to {@code output}. */
  synchronized void watch(int master, Consumer<byte[]> output) throws IOException {
    if (ending) {
      throw new IOException("the terminals' reader has ended");
    }
    watched.put(master, new Watched(master, output));
    wake();
  }

  /**
   * Stops reading {@code master} once it hangs up, or after {@code graceMs} at most, and waits
   * until the reader has let go of it; after that it may be closed.
   */
  void release(int master, long graceMs) {
    Watched w;
    synchronized (this) {
      w = watched.get(master);
      if (w == null) {
        return;
      }
      w.releaseBy =
          Math.min(w.releaseBy, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMs));
      wake();
    }
    if (Thread.currentThread() == thread) {
      return; // An output consumer releasing its own terminal: the loop drops it next.
    }
    try {
      w.released.get(graceMs + 1_000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (TimeoutException | ExecutionException e) {
      // The reader is stuck in an output consumer: it drops the terminal before it polls again.
    }
  }

  /**
   * Lets go of every terminal once it hangs up, or after {@code graceMs} at most, then ends the
   * reader and closes its pipe; the terminals' masters may be closed after that. A caller closing
   * many terminals hangs them all up first, so that their grace runs at once, not one after another
   * (64 attached ranks' terminals took 6 s closed in turn).
   */
  public void close(long graceMs) {
    synchronized (this) {
      if (ending) {
        return;
      }
      ending = true;
      long by = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMs);
      watched.values().forEach(w -> w.releaseBy = Math.min(w.releaseBy, by));
      wake();
    }
    if (Thread.currentThread() != thread) {
      try {
        thread.join(graceMs + 1_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (!thread.isAlive()) {
      closeQuietly(wakeUp[0]);
      closeQuietly(wakeUp[1]);
    }
  }

  /** {@link #close(long)} with no grace: terminals are let go of at once. */
  @Override
  public void close() {
    close(0);
  }

  private void wake() {
    try {
      LibC.INSTANCE.write(wakeUp[1], new byte[] {1}, 1);
    } catch (LastErrorException e) {
      // The pipe is full (the reader is woken already) or closed (it has ended).
    }
  }

  private void readLoop() {
    try {
      pollUntilEnded();
    } finally {
      synchronized (this) {
        ending = true;
        watched.values().forEach(w -> w.released.complete(null));
        watched.clear();
      }
    }
  }

  private void pollUntilEnded() {
    LibC c = LibC.INSTANCE;
    byte[] buffer = new byte[8192];
    byte[] drain = new byte[64];
    List<Watched> polled = new ArrayList<>();
    byte[] fds = new byte[0];
    while (true) {
      long timeoutMs;
      synchronized (this) {
        long now = System.nanoTime();
        for (var it = watched.values().iterator(); it.hasNext(); ) {
          Watched w = it.next();
          if (w.releaseBy <= now) {
            it.remove();
            w.released.complete(null);
          }
        }
        if (ending && watched.isEmpty()) {
          return;
        }
        polled.clear();
        polled.addAll(watched.values());
        long soonest = polled.stream().mapToLong(w -> w.releaseBy).min().orElse(Long.MAX_VALUE);
        timeoutMs =
            soonest == Long.MAX_VALUE
                ? -1
                : Math.max(1, TimeUnit.NANOSECONDS.toMillis(soonest - now) + 1);
      }
      int n = polled.size() + 1;
      if (fds.length != n * POLLFD) {
        fds = new byte[n * POLLFD];
      }
      ByteBuffer b = ByteBuffer.wrap(fds).order(ByteOrder.nativeOrder());
      b.putInt(0, wakeUp[0]).putShort(4, LibC.POLLIN).putShort(6, (short) 0);
      for (int i = 1; i < n; i++) {
        b.putInt(i * POLLFD, polled.get(i - 1).master)
            .putShort(i * POLLFD + 4, LibC.POLLIN)
            .putShort(i * POLLFD + 6, (short) 0);
      }
      try {
        if (c.poll(fds, n, (int) Math.min(Integer.MAX_VALUE, timeoutMs)) <= 0) {
          continue;
        }
      } catch (LastErrorException e) {
        if (e.getErrorCode() == EINTR) {
          continue;
        }
        throw e;
      }
      if (b.getShort(6) != 0) {
        readQuietly(wakeUp[0], drain);
      }
      for (int i = 1; i < n; i++) {
        if (b.getShort(i * POLLFD + 6) != 0) {
          read(polled.get(i - 1), buffer);
        }
      }
    }
  }

  /** Reads what {@code w}'s master has; at its end (hang-up, error) stops reading it. */
  private void read(Watched w, byte[] buffer) {
    long got;
    try {
      got = LibC.INSTANCE.read(w.master, buffer, buffer.length);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == EINTR || e.getErrorCode() == EAGAIN) {
        return;
      }
      got = 0; // EIO: no program holds the slave any more, and all it wrote has been read.
    }
    if (got > 0) {
      w.output.accept(Arrays.copyOf(buffer, (int) got));
      return;
    }
    synchronized (this) {
      watched.remove(w.master, w);
    }
    w.released.complete(null);
  }

  private static void readQuietly(int fd, byte[] buffer) {
    try {
      LibC.INSTANCE.read(fd, buffer, buffer.length);
    } catch (LastErrorException e) {
      // Nothing to drain.
    }
  }

  static void closeQuietly(int fd) {
    if (fd >= 0) {
      try {
        LibC.INSTANCE.close(fd);
      } catch (LastErrorException e) {
        // Nothing to do: the descriptor is gone either way.
      }
    }
  }
}

package io.sdmfabric.gdbmi;

import io.sdmfabric.gdbmi.internal.LineAssembler;
import io.sdmfabric.gdbmi.internal.SerialDelivery;
import io.sdmfabric.model.DebuggerException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GDB/MI conversation with one gdb, over its standard input and output: commands out, records
 * in.
 *
 * <p>Each command gets a numeric token; the future {@link #send} returns completes when gdb's
 * result record with that token arrives, or fails with {@link DebuggerException} carrying gdb's
 * {@code msg} on {@code ^error}, and with a clear message when gdb ends first. Console output
 * printed while a command runs goes into its reply. Async records, stream records printed outside a
 * command and gdb's end go to the {@link MiListener}.
 *
 * <p>Threads: one reads gdb's output (cutting it into lines however gdb chunks it) and one writes
 * commands (and the programs' input, {@link #write}). Results and events are delivered one at a
 * time in the order gdb wrote them ({@link #deliver}, a {@link SerialDelivery}), mostly on the
 * reader thread as it reads them. So {@link #send} never blocks, and code chained on a future runs
 * in delivery, where it must not block either: it would hold up gdb's reader. Record listeners
 * ({@link #onRecord}) see each result and async record on the reader thread, before it is
 * delivered.
 */
final class MiChannel {
  private static final Logger log = LoggerFactory.getLogger(MiChannel.class);

  private final long pid;
  private final String name;
  private final InputStream fromGdb;
  private final OutputStream toGdb;
  private final Consumer<String> transcript;
  private final MiListener listener;
  private final List<Consumer<MiRecord>> recordListeners = new CopyOnWriteArrayList<>();
  private final ExecutorService writer;
  private final SerialDelivery delivery = new SerialDelivery();
  private final AtomicLong nextToken = new AtomicLong(1);

  private final Deque<Pending> pending = new ArrayDeque<>(); // guarded by itself
  private volatile boolean closing; // written under the pending lock
  private boolean dead; // guarded by the pending lock
  private volatile String deathReason = "";

  private record Pending(
      long token, String command, CompletableFuture<MiReply> reply, StringBuilder console) {}

  /**
   * @param pid gdb's process id, for threads' names and logs
   * @param transcript receives every line written and read ({@link GdbOptions#transcript})
   */
  MiChannel(
      long pid,
      InputStream fromGdb,
      OutputStream toGdb,
      Consumer<String> transcript,
      MiListener listener) {
    this.pid = pid;
    this.name = "gdb-" + pid;
    this.fromGdb = fromGdb;
    this.toGdb = toGdb;
    this.transcript = transcript;
    this.listener = listener;
    this.writer = Executors.newSingleThreadExecutor(daemon(name + "-writer"));
  }

  /** {@code listener} sees each result and async record on the reader thread, before delivery. */
  void onRecord(Consumer<MiRecord> listener) {
    recordListeners.add(listener);
  }

  /**
   * Starts reading gdb's output; when it ends, {@code atEnd} runs on the reader thread (it decides
   * why gdb ended and calls {@link #end}).
   */
  void start(Runnable atEnd) {
    Thread out =
        new Thread(
            () -> {
              read();
              atEnd.run();
            },
            name + "-reader");
    out.setDaemon(true);
    out.start();
  }

  /**
   * Sends {@code commands} one right after the other, nothing of anyone else's between them, and
   * answers the last one's reply.
   */
  CompletableFuture<MiReply> send(List<String> commands) {
    for (String command : commands) {
      if (command.indexOf('\n') >= 0) {
        throw new IllegalArgumentException("an MI command is one line: " + command);
      }
    }
    List<String> lines = new ArrayList<>(commands.size());
    Pending last = null;
    synchronized (pending) {
      for (String command : commands) {
        long token = nextToken.getAndIncrement();
        last = new Pending(token, command, new CompletableFuture<>(), new StringBuilder());
        if (dead) {
          last.reply.completeExceptionally(new DebuggerException(deadMessage()));
          return last.reply;
        }
        pending.addLast(last);
        lines.add(token + command + "\n");
      }
    }
    try {
      writer.execute(() -> lines.forEach(this::writeLine));
    } catch (RejectedExecutionException e) {
      // gdb ended between the check and the write; end() has failed the commands.
    }
    return last.reply;
  }

  /** Runs {@code write} on the writer thread, in order with the commands; false once gdb ended. */
  boolean write(Runnable write) {
    try {
      writer.execute(write);
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  /** Runs a task in delivery, in order; after gdb's end has been delivered, drops it. */
  void deliver(Runnable task) {
    if (!delivery.execute(task)) {
      log.debug("dropped an event after gdb {} ended", pid);
    }
  }

  /**
   * gdb is being closed: its end is no news, and commands fail with "gdb was closed". Returns
   * whether it was closing or had ended already.
   */
  boolean beginClosing() {
    synchronized (pending) {
      boolean already = closing || dead;
      closing = true;
      return already;
    }
  }

  boolean isClosing() {
    return closing;
  }

  /**
   * gdb has ended, for {@code reason} (unless it was closed): every pending and later command
   * fails, the listener hears it, then {@code last} runs in delivery, which then takes nothing
   * more; the writer stops.
   */
  void end(String reason, Runnable last) {
    deathReason = reason;
    List<Pending> failed;
    synchronized (pending) {
      dead = true;
      failed = new ArrayList<>(pending);
      pending.clear();
    }
    String message = deadMessage();
    deliver(
        () -> {
          failed.forEach(p -> p.reply.completeExceptionally(new DebuggerException(message)));
          listener.onGdbExit(message);
        });
    deliver(last);
    writer.shutdown();
    delivery.shutdown();
  }

  private String deadMessage() {
    return closing ? "gdb was closed" : (deathReason.isEmpty() ? "gdb ended" : deathReason);
  }

  private void writeLine(String line) {
    try {
      toGdb.write(line.getBytes(StandardCharsets.UTF_8));
      toGdb.flush();
      transcript.accept(GdbOptions.COMMAND_PREFIX + line.stripTrailing());
    } catch (IOException e) {
      // gdb is gone; the reader sees the end of its output and fails what is pending.
      log.debug("write to gdb failed: {}", e.getMessage());
    }
  }

  private void read() {
    LineAssembler lines = new LineAssembler(this::onLine);
    byte[] buffer = new byte[16384];
    try (InputStream in = fromGdb) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        lines.feed(buffer, 0, n);
      }
    } catch (IOException e) {
      log.debug("reading gdb's output ended: {}", e.getMessage());
    }
  }

  private void onLine(byte[] line) {
    transcript.accept(new String(line, StandardCharsets.UTF_8));
    if (line.length == 0) {
      return; // not MI, but says nothing either
    }
    MiRecord record;
    try {
      record = MiParser.parse(line);
    } catch (MiParseException e) {
      log.warn("gdb {} wrote a line that is not GDB/MI: {}", pid, e.getMessage());
      deliver(() -> listener.onParseError(e));
      return;
    }
    if (record instanceof MiResultRecord r) {
      recordListeners.forEach(l -> l.accept(r));
      onResult(r);
    } else if (record instanceof MiStreamRecord s) {
      onStream(s);
    } else if (record instanceof MiAsyncRecord a) {
      recordListeners.forEach(l -> l.accept(a));
      deliver(() -> listener.onAsync(a));
    }
  }

  private void onResult(MiResultRecord r) {
    Pending p;
    synchronized (pending) {
      p = pending.peekFirst();
      if (p == null || !r.hasToken() || p.token != r.token()) {
        p = findAndRemove(r);
      } else {
        pending.removeFirst();
      }
    }
    if (p == null) {
      log.warn("gdb {} answered a command it was not sent: {}", pid, r);
      return;
    }
    Pending done = p;
    deliver(() -> complete(done, r));
  }

  private Pending findAndRemove(MiResultRecord r) {
    if (!r.hasToken()) {
      return null;
    }
    for (var it = pending.iterator(); it.hasNext(); ) {
      Pending p = it.next();
      if (p.token == r.token()) {
        it.remove();
        return p;
      }
    }
    return null;
  }

  private static void complete(Pending p, MiResultRecord r) {
    if (r.resultClass() == MiResultClass.ERROR) {
      String msg = r.results().optString("msg").orElse("gdb reported an error without a message");
      p.reply.completeExceptionally(new DebuggerException(msg));
    } else {
      p.reply.complete(new MiReply(r.resultClass(), r.results(), p.console.toString()));
    }
  }

  private void onStream(MiStreamRecord s) {
    if (s.kind() != MiStreamKind.LOG) {
      synchronized (pending) {
        Pending head = pending.peekFirst();
        if (head != null) {
          head.console.append(s.text());
          return;
        }
      }
    }
    deliver(() -> listener.onStream(s));
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}

package io.sdmfabric.frontend.dap;

import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.DebuggerBackend;
import io.sdmfabric.server.ReplyBody;
import io.sdmfabric.sim.SimulatedDebugger;
import io.sdmfabric.sim.SimulatedProgram;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.EventSubscribers;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.Subscription;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * A session of simulated ranks in this JVM without the fabric, for the adapter's tests: each rank a
 * {@link SimulatedDebugger} behind the server's {@link DebuggerBackend}, as a server node has it.
 * Commands and the ranks' events run on one thread of the session's (the simulator is confined to
 * one thread, as a rank's actor confines it); a command's reply completes first, then the events it
 * caused arrive. Equal replies, and equal events of one command, of several ranks merge into one
 * {@link RankReply}, as the fabric merges them.
 */
final class SimulatedSession implements SessionClient {
  private final ExecutorService thread = Executors.newSingleThreadExecutor(); // ends at close
  private final List<DebuggerBackend> ranks = new ArrayList<>();
  private final List<Runnable> caused = new ArrayList<>(); // the simulator's pending event tasks
  private final Map<ByteBuffer, RankSet> emitted = new LinkedHashMap<>(); // merged, in order
  private final Map<ByteBuffer, EventBody> bodies = new LinkedHashMap<>();
  private final EventSubscribers events = new EventSubscribers();
  private volatile boolean closed;

  /** {@code size} ranks of {@code program}, not loaded yet. */
  SimulatedSession(SimulatedProgram program, int size) {
    for (int rank = 0; rank < size; rank++) {
      DebuggerBackend backend =
          new DebuggerBackend(new SimulatedDebugger(program, rank, size, caused::add));
      int r = rank;
      backend.subscribe(body -> emit(r, ReplyBody.of(body)));
      ranks.add(backend);
    }
  }

  @Override
  public int size() {
    return ranks.size();
  }

  private volatile Started started = Started.GDB;

  /** Says its ranks were started as {@code how} (a launcher's, say). */
  void startedAs(Started how) {
    started = how;
  }

  @Override
  public Started started() {
    return started;
  }

  @Override
  public CompletableFuture<List<RankReply>> call(
      CommandBody command, RankSet dest, Duration timeout) {
    CompletableFuture<List<RankReply>> replies = new CompletableFuture<>();
    thread.execute(
        () -> {
          Map<ByteBuffer, RankSet> merged = new LinkedHashMap<>();
          Map<ByteBuffer, EventBody> replyBodies = new LinkedHashMap<>();
          dest.forEach(
              rank -> {
                ReplyBody reply =
                    ranks.get(rank).execute(command).toCompletableFuture().join(); // done at once
                ByteBuffer key = ByteBuffer.wrap(reply.bytes());
                merged.merge(key, RankSet.of(rank), RankSet::union);
                replyBodies.putIfAbsent(key, reply.body());
              });
          replies.complete(
              merged.entrySet().stream()
                  .map(e -> new RankReply(e.getValue(), replyBodies.get(e.getKey())))
                  .toList());
          deliverCausedEvents();
        });
    return replies;
  }

  /** Runs the simulator's event tasks that the last command left, and sends what they emitted. */
  private void deliverCausedEvents() {
    List<Runnable> tasks = new ArrayList<>(caused);
    caused.clear();
    tasks.forEach(Runnable::run);
    emitted.forEach((key, ranks) -> events.publish(new RankReply(ranks, bodies.get(key))));
    emitted.clear();
    bodies.clear();
  }

  private void emit(int rank, ReplyBody event) {
    ByteBuffer key = ByteBuffer.wrap(event.bytes());
    emitted.merge(key, RankSet.of(rank), RankSet::union);
    bodies.putIfAbsent(key, event.body());
  }

  @Override
  public Subscription subscribe(Consumer<RankReply> listener) {
    return events.subscribe(listener);
  }

  /**
   * Stops every rank in main, where a launcher's ranks held in MPI_Init are when the adapter takes
   * them, and tells no one: the stops are the session's state before the adapter's first command.
   */
  void stopAllInMain() throws Exception {
    thread
        .submit(
            () -> {
              for (DebuggerBackend rank : ranks) {
                rank.execute(Commands.setBreakpoint(BreakpointSpec.at("main").asTemporary()))
                    .toCompletableFuture()
                    .join();
                rank.execute(Commands.run()).toCompletableFuture().join();
              }
              List<Runnable> tasks = new ArrayList<>(caused);
              caused.clear();
              tasks.forEach(Runnable::run);
              emitted.clear();
              bodies.clear();
            })
        .get();
  }

  /** Whether the session was closed. */
  boolean closed() {
    return closed;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    thread.execute(() -> ranks.forEach(DebuggerBackend::close));
    thread.shutdown();
  }
}

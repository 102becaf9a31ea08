package io.sdmfabric.frontend;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.EventSubscribers;
import io.sdmfabric.wire.FrameConnection;
import io.sdmfabric.wire.Handshake;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.SessionSecret;
import io.sdmfabric.wire.Subscription;
import io.sdmfabric.wire.proto.Bye;
import io.sdmfabric.wire.proto.Call;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.Frame;
import io.sdmfabric.wire.proto.Role;
import io.sdmfabric.wire.proto.Welcome;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The Java client library of the front-end protocol: a {@link SessionClient} whose master runs in
 * another process, on this machine or across the network (docs/PROTOCOL.md). The console works on
 * it exactly as on a session in its own JVM.
 *
 * <p>Get one from {@link #connect} (this side dials the master) or from {@link #open} over a
 * connection already authenticated (in a reverse connect the master dials the front-end). When the
 * connection is lost, pending and later calls fail with why, and {@link #onClosed} hears it.
 */
public final class RemoteSession implements SessionClient {
  /** How long {@link #close} waits for the master to end the session and say goodbye. */
  public static final Duration GOODBYE_LIMIT = Duration.ofSeconds(60);

  /** A call on its way: the replies so far, and its result. */
  private record Pending(List<RankReply> replies, CompletableFuture<List<RankReply>> result) {}

  private final FrameConnection connection;
  private final Welcome welcome;
  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
  private final CompletableFuture<String> ended = new CompletableFuture<>();
  private final EventSubscribers events = new EventSubscribers();

  private RemoteSession(FrameConnection connection, Welcome welcome) {
    this.connection = connection;
    this.welcome = welcome;
  }

  /**
   * Dials the master at {@code host:port}, proves the secret of {@code session}, and waits for the
   * session to be ready.
   *
   * @param progress hears the master's progress lines until the session is ready
   * @throws IOException when the master cannot be reached, refuses, cannot prove the secret, or is
   *     not ready within {@code timeout}
   */
  public static RemoteSession connect(
      String host,
      int port,
      String session,
      SessionSecret secret,
      Consumer<String> progress,
      Duration timeout)
      throws IOException {
    FrameConnection c = FrameConnection.dial(host, port, Handshake.TIMEOUT);
    Handshake.dial(c, Role.ROLE_FRONT_END, session, secret, Handshake.TIMEOUT);
    return open(c, progress, timeout);
  }

  /**
   * A session over an authenticated connection to its master: waits for the master's {@code
   * Welcome}, passing its {@code Progress} lines to {@code progress} meanwhile.
   *
   * @throws IOException when the connection ends, the master says goodbye, something else comes, or
   *     nothing is ready within {@code timeout}; the connection is then closed
   */
  public static RemoteSession open(
      FrameConnection authenticated, Consumer<String> progress, Duration timeout)
      throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Duration left = Duration.ofNanos(deadline - System.nanoTime());
      if (left.isNegative() || left.isZero()) {
        authenticated.close("not ready in time");
        throw new IOException("the session was not ready within " + timeout.toSeconds() + " s");
      }
      Frame f;
      try {
        f = authenticated.read(left);
      } catch (IOException e) {
        authenticated.close(e.getMessage());
        throw e;
      }
      switch (f.getKindCase()) {
        case PROGRESS -> progress.accept(f.getProgress().getText());
        case WELCOME -> {
          RemoteSession s = new RemoteSession(authenticated, f.getWelcome());
          s.start();
          return s;
        }
        case BYE -> {
          authenticated.close("goodbye");
          throw new IOException("the master ended the session: " + f.getBye().getReason());
        }
        case REFUSED -> {
          authenticated.close("refused");
          throw new IOException("the master refused: " + f.getRefused().getReason());
        }
        default -> {
          String why = "a " + f.getKindCase() + " frame before the welcome";
          authenticated.refuse(why);
          throw new IOException("the master sent " + why);
        }
      }
    }
  }

  private void start() {
    connection.start(
        new FrameConnection.Listener() {
          @Override
          public void frame(Frame frame) {
            onFrame(frame);
          }

          @Override
          public void closed(String reason) {
            onConnectionClosed(reason);
          }
        },
        "session");
  }

  /** What the master said of the session when it was ready. */
  public Welcome welcome() {
    return welcome;
  }

  @Override
  public int size() {
    return welcome.getSize();
  }

  /** As the master says; a master before the word started its ranks under the rank shim. */
  @Override
  public Started started() {
    return Started.named(welcome.getStarted()).orElse(Started.SHIM);
  }

  @Override
  public CompletableFuture<List<RankReply>> call(
      CommandBody command, RankSet dest, Duration timeout) {
    CompletableFuture<List<RankReply>> result = new CompletableFuture<>();
    if (ended.isDone()) {
      result.completeExceptionally(new IOException("the session has ended: " + ended.join()));
      return result;
    }
    long id = ids.incrementAndGet();
    pending.put(id, new Pending(new ArrayList<>(), result));
    connection.send(
        Frame.newBuilder()
            .setCall(
                Call.newBuilder()
                    .setId(id)
                    .setRanks(Protos.toProto(dest))
                    .setTimeoutMs(timeout.toMillis())
                    .setBody(command))
            .build());
    if (ended.isDone()) {
      fail(id, ended.join()); // the connection closed while the call was being sent
    }
    return result;
  }

  @Override
  public Subscription subscribe(Consumer<RankReply> listener) {
    return events.subscribe(listener);
  }

  /** Hears once, with why, when the session ends or the connection to it is lost. */
  public void onClosed(Consumer<String> listener) {
    ended.thenAccept(listener);
  }

  /** Completes with why once the session has ended or the connection is lost. */
  public CompletableFuture<String> ended() {
    return ended;
  }

  /**
   * Ends the session (every program launched for it, or detaches from attached ones): asks the
   * master to, and waits for its goodbye a while.
   */
  @Override
  public void close() {
    if (!ended.isDone()) {
      connection.send(
          Frame.newBuilder()
              .setBye(Bye.newBuilder().setReason("the front-end quit").setEndSession(true))
              .build());
      try {
        ended.get(GOODBYE_LIMIT.toSeconds(), TimeUnit.SECONDS);
      } catch (Exception e) {
        // No goodbye in time: the connection closes anyway, and a master that loses its
        // front-end ends the session by itself.
      }
    }
    connection.close("the front-end quit");
  }

  /**
   * One frame from the master. A frame that the master would never send (a reply to a call not in
   * progress, a kind a master does not send) is refused, which ends the connection and the session
   * with why: it is never dropped in silence.
   */
  private void onFrame(Frame f) {
    switch (f.getKindCase()) {
      case REPLY -> {
        Pending p = pending.get(f.getReply().getCallId());
        if (p == null) {
          notInProgress("a reply to", f.getReply().getCallId());
          return;
        }
        synchronized (p.replies()) {
          p.replies()
              .add(
                  new RankReply(Protos.fromProto(f.getReply().getRanks()), f.getReply().getBody()));
        }
      }
      case DONE -> {
        Pending p = pending.remove(f.getDone().getCallId());
        if (p == null) {
          notInProgress("the end of", f.getDone().getCallId());
          return;
        }
        synchronized (p.replies()) {
          p.result().complete(List.copyOf(p.replies()));
        }
      }
      case CALL_REFUSED -> {
        Pending p = pending.remove(f.getCallRefused().getCallId());
        if (p == null) {
          notInProgress("a refusal of", f.getCallRefused().getCallId());
          return;
        }
        p.result()
            .completeExceptionally(new IllegalArgumentException(f.getCallRefused().getReason()));
      }
      case EVENT ->
          events.publish(
              new RankReply(Protos.fromProto(f.getEvent().getRanks()), f.getEvent().getBody()));
      case BYE -> {
        ended.complete("the master ended the session: " + f.getBye().getReason());
        connection.close("goodbye");
      }
      case REFUSED -> {
        ended.complete("the master refused: " + f.getRefused().getReason());
        connection.close("refused");
      }
      default -> refuse("a " + f.getKindCase() + " frame, which a master never sends");
    }
  }

  /** The master answered a call that is not in progress (never made, or over): refused. */
  private void notInProgress(String what, long callId) {
    refuse(what + " call " + callId + ", which is not in progress");
  }

  /** Refuses what the master sent: the session and the connection end, saying why. */
  private void refuse(String why) {
    ended.complete("the front-end refused what the master sent: " + why);
    connection.refuse(why);
  }

  private void onConnectionClosed(String reason) {
    ended.complete("the connection to the master was lost: " + reason);
    for (Long id : List.copyOf(pending.keySet())) {
      fail(id, ended.join());
    }
  }

  private void fail(long id, String why) {
    Pending p = pending.remove(id);
    if (p != null) {
      p.result().completeExceptionally(new IOException(why));
    }
  }
}

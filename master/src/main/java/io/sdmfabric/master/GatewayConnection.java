package io.sdmfabric.master;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.FrameConnection;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.proto.Call;
import io.sdmfabric.wire.proto.CallDone;
import io.sdmfabric.wire.proto.CallRefused;
import io.sdmfabric.wire.proto.CallReply;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.Event;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.Frame;
import io.sdmfabric.wire.proto.Welcome;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The master's side of one authenticated front-end connection (the front-end protocol,
 * docs/PROTOCOL.md): it greets the front-end with the session's {@code Welcome}, turns each {@code
 * Call} into a {@link Session.Submit} and the session's replies, completions and unsolicited events
 * into frames. Reading and writing run on the connection's own threads, so the actor never blocks.
 *
 * <p>Anything from the front-end that is not a well-formed call or a goodbye is refused with a
 * closed connection, and a refusal from the front-end closes it with the front-end's reason; the
 * session itself goes on, and its owner hears of the end through the {@code ended} callback, once:
 * when the front-end asks to end the session (the connection stays open for the goodbye, {@link
 * End}), or when the connection closes.
 */
public final class GatewayConnection extends AbstractBehavior<GatewayConnection.Command> {

  /** Everything a gateway connection accepts. */
  public sealed interface Command permits FrameIn, Closed, FromSession {}

  /**
   * How a connection ended.
   *
   * @param endSession whether the front-end asked to end the session (its {@code Bye}); false when
   *     it left without asking, or the connection was lost or refused
   */
  public record Ending(String reason, boolean endSession) {
    public Ending {
      Objects.requireNonNull(reason, "reason");
    }
  }

  private record FrameIn(Frame frame) implements Command, NoSerializationVerificationNeeded {}

  private record Closed(String reason) implements Command, NoSerializationVerificationNeeded {}

  private record FromSession(SessionEvent event)
      implements Command, NoSerializationVerificationNeeded {}

  private final ActorRef<Session.Command> session;
  private final FrameConnection connection;
  private final Consumer<Ending> ended;
  private final ActorRef<SessionEvent> events;

  /** The front-end's ids of calls submitted and not yet accepted or rejected, in order. */
  private final ArrayDeque<Long> submitted = new ArrayDeque<>();

  /** Session command id to the front-end's call id, for calls accepted and not yet complete. */
  private final Map<Long, Long> calls = new HashMap<>();

  /** The front-end's call ids in use. */
  private final Set<Long> open = new HashSet<>();

  private boolean toldEnded;

  private GatewayConnection(
      ActorContext<Command> context,
      ActorRef<Session.Command> session,
      FrameConnection connection,
      Welcome welcome,
      Consumer<Ending> ended) {
    super(context);
    this.session = session;
    this.connection = connection;
    this.ended = ended;
    this.events = context.messageAdapter(SessionEvent.class, FromSession::new);
    session.tell(new Session.Subscribe(events));
    ActorRef<Command> self = context.getSelf();
    connection.send(Frame.newBuilder().setWelcome(welcome).build());
    connection.start(
        new FrameConnection.Listener() {
          @Override
          public void frame(Frame frame) {
            self.tell(new FrameIn(frame));
          }

          @Override
          public void closed(String reason) {
            self.tell(new Closed(reason));
          }
        },
        "gateway-" + context.getSelf().path().name());
  }

  /**
   * Serves an authenticated {@code connection} for {@code session}, greeting it with {@code
   * welcome}; {@code ended} hears once how the connection ended.
   */
  public static Behavior<Command> create(
      ActorRef<Session.Command> session,
      FrameConnection connection,
      Welcome welcome,
      Consumer<Ending> ended) {
    return Behaviors.setup(
        context -> new GatewayConnection(context, session, connection, welcome, ended));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(FrameIn.class, this::onFrame)
        .onMessage(FromSession.class, this::onSessionEvent)
        .onMessage(Closed.class, this::onClosed)
        .build();
  }

  private Behavior<Command> onFrame(FrameIn in) {
    Frame f = in.frame();
    switch (f.getKindCase()) {
      case CALL -> submit(f.getCall());
      case BYE -> {
        String reason = "the front-end left: " + f.getBye().getReason();
        if (f.getBye().getEndSession()) {
          // The owner ends the session, then says goodbye on the connection itself. What the
          // ending session says meanwhile (ranks lost as the agents go) is no news to anyone.
          session.tell(new Session.Unsubscribe(events));
          tellEnded(new Ending(reason, true));
        } else {
          connection.close(reason);
        }
      }
      case REFUSED -> connection.close("the front-end refused: " + f.getRefused().getReason());
      default ->
          connection.refuse(
              "a " + f.getKindCase() + " frame is not expected from a front-end after the welcome");
    }
    return this;
  }

  private void submit(Call call) {
    long id = call.getId();
    if (open.contains(id)) {
      refuseCall(id, "call id " + id + " is already in use on this connection");
      return;
    }
    if (call.getBody().getKindCase() == CommandBody.KindCase.KIND_NOT_SET) {
      refuseCall(id, "the call has no command");
      return;
    }
    RankSet dest;
    try {
      dest = Protos.fromProto(call.getRanks());
    } catch (RuntimeException e) {
      refuseCall(id, "the call's rank set cannot be read: " + e.getMessage());
      return;
    }
    open.add(id);
    submitted.addLast(id);
    session.tell(
        new Session.Submit(call.getBody(), dest, Duration.ofMillis(call.getTimeoutMs()), events));
  }

  private void refuseCall(long id, String reason) {
    connection.send(
        Frame.newBuilder()
            .setCallRefused(CallRefused.newBuilder().setCallId(id).setReason(reason))
            .build());
  }

  private Behavior<Command> onSessionEvent(FromSession from) {
    if (toldEnded) {
      return this; // already on its way out: see onFrame
    }
    SessionEvent e = from.event();
    // The session answers each Submit with Accepted or Rejected in the order it got them.
    if (e instanceof SessionEvent.Accepted a) {
      calls.put(a.id(), submitted.removeFirst());
    } else if (e instanceof SessionEvent.Rejected r) {
      long id = submitted.removeFirst();
      open.remove(id);
      refuseCall(id, r.reason());
    } else if (e instanceof SessionEvent.Reply r) {
      Long id = calls.get(r.id());
      if (id != null) {
        connection.send(
            Frame.newBuilder()
                .setReply(
                    CallReply.newBuilder()
                        .setCallId(id)
                        .setRanks(Protos.toProto(r.ranks()))
                        .setBody(r.body()))
                .build());
      }
    } else if (e instanceof SessionEvent.Completed c) {
      Long id = calls.remove(c.id());
      if (id != null) {
        open.remove(id);
        connection.send(Frame.newBuilder().setDone(CallDone.newBuilder().setCallId(id)).build());
      }
    } else if (e instanceof SessionEvent.Unsolicited u) {
      event(u.ranks(), u.body());
    } else if (e instanceof SessionEvent.RanksLost l) {
      event(l.ranks(), l.body());
    }
    return this;
  }

  private void event(RankSet ranks, EventBody body) {
    connection.send(
        Frame.newBuilder()
            .setEvent(Event.newBuilder().setRanks(Protos.toProto(ranks)).setBody(body))
            .build());
  }

  private Behavior<Command> onClosed(Closed closed) {
    session.tell(new Session.Unsubscribe(events));
    tellEnded(new Ending(closed.reason(), false));
    return Behaviors.stopped();
  }

  private void tellEnded(Ending ending) {
    if (!toldEnded) {
      toldEnded = true;
      ended.accept(ending);
    }
  }
}

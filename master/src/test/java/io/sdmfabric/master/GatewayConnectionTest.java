package io.sdmfabric.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.DebuggerBackend;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.sim.SimulatedDebugger;
import io.sdmfabric.sim.SimulatedProgram;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.FrameConnection;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.proto.Bye;
import io.sdmfabric.wire.proto.Call;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.Frame;
import io.sdmfabric.wire.proto.Hello;
import io.sdmfabric.wire.proto.Welcome;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The master's side of the front-end protocol over real loopback connections, in front of an
 * embedded session of simulated ranks; the test speaks the protocol frame by frame.
 */
class GatewayConnectionTest {
  private static final ActorTestKit testKit =
      ActorTestKit.create(
          ConfigFactory.parseString("pekko.actor.serialize-messages = on")
              .withFallback(ConfigFactory.load()));
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final int RANKS = 8;

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** A front-end's end of a gateway connection, and how the gateway saw it end. */
  private record Client(
      Socket socket, FrameConnection connection, CompletableFuture<GatewayConnection.Ending> ended)
      implements AutoCloseable {
    Frame next() throws IOException {
      return connection.read(WAIT);
    }

    void call(long id, CommandBody body, RankSet ranks) throws IOException {
      connection.write(
          Frame.newBuilder()
              .setCall(Call.newBuilder().setId(id).setRanks(Protos.toProto(ranks)).setBody(body))
              .build());
    }

    /** The replies of call {@code id} by body, until its CallDone; events on the way are kept. */
    Map<String, RankSet> replies(long id, List<Frame> events) throws IOException {
      Map<String, RankSet> replies = new HashMap<>();
      while (true) {
        Frame f = next();
        if (f.hasDone()) {
          assertEquals(id, f.getDone().getCallId());
          return replies;
        } else if (f.hasReply()) {
          assertEquals(id, f.getReply().getCallId());
          replies.merge(
              f.getReply().getBody().toString(),
              Protos.fromProto(f.getReply().getRanks()),
              RankSet::union);
        } else if (f.hasEvent()) {
          events.add(f);
        } else {
          throw new AssertionError("unexpected " + f);
        }
      }
    }

    @Override
    public void close() {
      connection.close();
    }
  }

  private static ActorRef<Session.Command> session() {
    SimulatedProgram program = SimulatedProgram.defaults();
    return testKit.spawn(
        Session.embedded(
            RANKS,
            FabricConfig.defaults().withEventWindow(Duration.ofMillis(50)),
            rank -> new DebuggerBackend(SimulatedDebugger.direct(program, rank, RANKS))));
  }

  /** Serves a new loopback connection for {@code session}; the client has read the welcome. */
  private static Client connect(ActorRef<Session.Command> session) throws IOException {
    Socket client;
    Socket served;
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
      served = server.accept();
    }
    CompletableFuture<GatewayConnection.Ending> ended = new CompletableFuture<>();
    Welcome welcome = Welcome.newBuilder().setSize(RANKS).setProgram("/bin/sim").build();
    testKit.spawn(
        GatewayConnection.create(session, FrameConnection.plain(served), welcome, ended::complete));
    Client c = new Client(client, FrameConnection.plain(client), ended);
    assertEquals(welcome, c.next().getWelcome());
    return c;
  }

  private static final CommandBody LOAD = Commands.startSession(LaunchSpec.of("/bin/sim"));

  @Test
  void aCallGetsTheMergedRepliesUnderItsOwnIdAndStopsComeAsEvents() throws Exception {
    try (Client c = connect(session())) {
      List<Frame> events = new ArrayList<>();
      c.call(41, LOAD, RankSet.all(RANKS));
      assertEquals(1, c.replies(41, events).size());
      CommandBody bp = Commands.setBreakpoint(BreakpointSpec.at("solver_loop"));
      c.call(42, bp, RankSet.all(RANKS));
      assertEquals(1, c.replies(42, events).size());
      c.call(43, Commands.run(), RankSet.all(RANKS));
      c.replies(43, events);
      RankSet stopped = RankSet.empty();
      for (Frame e : events) {
        if (e.getEvent().getBody().hasSuspended()) {
          stopped = stopped.union(Protos.fromProto(e.getEvent().getRanks()));
        }
      }
      while (stopped.size() < RANKS) {
        Frame e = c.next();
        assertTrue(e.hasEvent(), e.toString());
        if (e.getEvent().getBody().hasSuspended()) {
          assertEquals(
              "solver_loop", e.getEvent().getBody().getSuspended().getFrame().getFunction());
          stopped = stopped.union(Protos.fromProto(e.getEvent().getRanks()));
        }
      }
      // A value that differs by rank comes back as classes of ranks, not one reply per rank.
      c.call(44, Commands.evaluate("rank"), RankSet.of(0, 1, 2));
      assertEquals(3, c.replies(44, events).size());
    }
  }

  @Test
  void aRefusedCallIsAnsweredAndTheConnectionGoesOn() throws Exception {
    try (Client c = connect(session())) {
      c.call(1, Commands.evaluate("x"), RankSet.of(3, 99));
      Frame refused = c.next();
      assertEquals(1, refused.getCallRefused().getCallId());
      assertEquals(
          "rank 99 is out of range: the job has ranks 0-7", refused.getCallRefused().getReason());
      c.call(2, CommandBody.getDefaultInstance(), RankSet.of(1));
      assertEquals("the call has no command", c.next().getCallRefused().getReason());
      c.call(3, LOAD, RankSet.all(RANKS));
      assertEquals(1, c.replies(3, new ArrayList<>()).size());
    }
  }

  @Test
  void malformedBytesAreRefusedWithAClosedConnectionAndTheSessionGoesOn() throws Exception {
    ActorRef<Session.Command> session = session();
    try (Client bad = connect(session)) {
      OutputStream raw = bad.socket().getOutputStream();
      raw.write(new byte[] {0, 0, 0, 4, 1, 2, 3, 4});
      raw.flush();
      Frame refused = bad.next();
      assertTrue(
          refused.getRefused().getReason().startsWith("a frame that is not"), refused.toString());
      GatewayConnection.Ending ending = bad.ended().get(10, TimeUnit.SECONDS);
      assertFalse(ending.endSession());
    }
    try (Client good = connect(session)) {
      good.call(1, LOAD, RankSet.all(RANKS));
      assertEquals(1, good.replies(1, new ArrayList<>()).size());
    }
  }

  @Test
  void aFrameOutOfPlaceIsRefused() throws Exception {
    try (Client c = connect(session())) {
      c.connection().write(Frame.newBuilder().setHello(Hello.getDefaultInstance()).build());
      assertEquals(
          "a HELLO frame is not expected from a front-end after the welcome",
          c.next().getRefused().getReason());
      assertFalse(c.ended().get(10, TimeUnit.SECONDS).endSession());
    }
  }

  @Test
  void aGoodbyeThatEndsTheSessionIsToldToTheOwnerWhileTheConnectionStaysForItsAnswer()
      throws Exception {
    try (Client c = connect(session())) {
      c.connection()
          .write(
              Frame.newBuilder()
                  .setBye(Bye.newBuilder().setReason("quit").setEndSession(true))
                  .build());
      GatewayConnection.Ending ending = c.ended().get(10, TimeUnit.SECONDS);
      assertTrue(ending.endSession());
      assertEquals("the front-end left: quit", ending.reason());
      assertFalse(c.connection().isClosed());
    }
  }
}

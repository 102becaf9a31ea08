package io.sdmfabric.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.frontend.RemoteSession;
import io.sdmfabric.master.GatewayConnection;
import io.sdmfabric.master.Session;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.DebuggerBackend;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.sim.SimulatedDebugger;
import io.sdmfabric.sim.SimulatedProgram;
import io.sdmfabric.wire.FrameConnection;
import io.sdmfabric.wire.Handshake;
import io.sdmfabric.wire.HostPort;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.SessionSecret;
import io.sdmfabric.wire.proto.Bye;
import io.sdmfabric.wire.proto.CallReply;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.ExpressionCmd;
import io.sdmfabric.wire.proto.Frame;
import io.sdmfabric.wire.proto.Progress;
import io.sdmfabric.wire.proto.Role;
import io.sdmfabric.wire.proto.StartSessionCmd;
import io.sdmfabric.wire.proto.Welcome;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reverse connect over real loopback connections, without the files and the job: a master dials the
 * front-end's listener, both prove the request's secret, and the front-end works the session
 * through the client library ({@link RemoteSession}) in front of the master's gateway.
 */
class FrontEndListenerTest {
  private static final int RANKS = 4;
  private static final String ID = "0badcafe";
  private static final Duration WAIT = Duration.ofSeconds(20);

  private final SessionSecret secret = SessionSecret.random();
  private final List<String> warnings = new CopyOnWriteArrayList<>();
  private final AwaitedLines warned = new AwaitedLines();
  private FrontEndListener listener;
  private ActorSystem<Session.Command> master;

  @BeforeEach
  void listen() throws IOException {
    listener = new FrontEndListener(new HostPort("127.0.0.1", 0), this::warn);
    SimulatedProgram program = SimulatedProgram.defaults();
    master =
        ActorSystem.create(
            Session.embedded(
                RANKS,
                FabricConfig.defaults(),
                rank -> new DebuggerBackend(SimulatedDebugger.direct(program, rank, RANKS))),
            "master");
  }

  private void warn(String line) {
    warnings.add(line);
    new PrintStream(warned, true, StandardCharsets.UTF_8).println(line);
  }

  @AfterEach
  void end() {
    listener.close();
    master.terminate();
  }

  /** A master that dials the listener and proves {@code proven}; empty when it is refused. */
  private FrameConnection dial(SessionSecret proven) throws IOException {
    HostPort at = HostPort.parse(listener.address());
    FrameConnection c = FrameConnection.dial(at.host(), at.port(), WAIT);
    Handshake.dial(c, Role.ROLE_MASTER, ID, proven, WAIT);
    return c;
  }

  /**
   * Serves {@code c} as sdm connect does once the job is up: the session ends at the front-end's
   * word, with a goodbye.
   */
  private void serve(FrameConnection c) throws IOException {
    c.write(Frame.newBuilder().setProgress(Progress.newBuilder().setText("starting")).build());
    master.systemActorOf(
        GatewayConnection.create(
            master,
            c,
            Welcome.newBuilder().setSize(RANKS).setProgram("/bin/sim").build(),
            ending ->
                c.sendThenClose(
                    Frame.newBuilder()
                        .setBye(Bye.newBuilder().setReason("the job has ended"))
                        .build(),
                    "ended")),
        "gateway",
        Props.empty());
  }

  private static CommandBody load() {
    return CommandBody.newBuilder()
        .setStartSession(
            StartSessionCmd.newBuilder().setLaunch(Protos.toProto(LaunchSpec.of("/bin/sim"))))
        .build();
  }

  @Test
  void theAcceptedMasterConnectsAndTheFrontEndWorksItsSessionUntilItQuits() throws Exception {
    CompletableFuture<FrameConnection> expected = listener.expect(ID, secret);
    serve(dial(secret));
    List<String> progress = new ArrayList<>();
    RemoteSession session =
        RemoteSession.open(expected.get(10, TimeUnit.SECONDS), progress::add, WAIT);
    assertEquals(List.of("starting"), progress);
    assertEquals(RANKS, session.size());
    List<RankReply> loaded =
        session.call(load(), RankSet.all(RANKS), Duration.ZERO).get(10, TimeUnit.SECONDS);
    assertEquals(RankSet.all(RANKS), loaded.get(0).ranks());
    assertTrue(loaded.get(0).body().hasLoaded());
    ExecutionException refused =
        assertThrows(
            ExecutionException.class,
            () -> session.call(load(), RankSet.of(7), Duration.ZERO).get(10, TimeUnit.SECONDS));
    assertEquals("rank 7 is out of range: the job has ranks 0-3", refused.getCause().getMessage());
    session.close();
    assertEquals(
        "the master ended the session: the job has ended",
        session.ended().get(1, TimeUnit.SECONDS));
    ExecutionException after =
        assertThrows(
            ExecutionException.class,
            () -> session.call(load(), RankSet.of(0), Duration.ZERO).get(10, TimeUnit.SECONDS));
    assertTrue(after.getCause().getMessage().startsWith("the session has ended"));
  }

  @Test
  void aFrontEndCanAlsoDialAMasterThatListens() throws Exception {
    try (java.net.ServerSocket server =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      CompletableFuture<Void> served =
          CompletableFuture.runAsync(
              () -> {
                try {
                  FrameConnection c = FrameConnection.accept(server.accept(), WAIT);
                  Handshake.answer(
                      c,
                      Role.ROLE_MASTER,
                      id ->
                          id.equals(ID)
                              ? java.util.Optional.of(secret)
                              : java.util.Optional.empty(),
                      WAIT);
                  serve(c);
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      RemoteSession session =
          RemoteSession.connect("127.0.0.1", server.getLocalPort(), ID, secret, p -> {}, WAIT);
      served.get(10, TimeUnit.SECONDS);
      List<RankReply> loaded =
          session.call(load(), RankSet.all(RANKS), Duration.ZERO).get(10, TimeUnit.SECONDS);
      assertTrue(loaded.get(0).body().hasLoaded());
      session.close();
    }
  }

  @Test
  void aMasterWithTheWrongSecretIsRefusedAndTheRightOneStillGetsIn() throws Exception {
    CompletableFuture<FrameConnection> expected = listener.expect(ID, secret);
    IOException e = assertThrows(IOException.class, () -> dial(SessionSecret.random()));
    assertTrue(e.getMessage().contains("does not know the session secret"), e.getMessage());
    FrameConnection right = dial(secret);
    assertTrue(expected.get(10, TimeUnit.SECONDS) != null);
    right.close();
  }

  @Test
  void garbageOnTheListenersPortIsRefusedAndTheListenerGoesOn() throws Exception {
    CompletableFuture<FrameConnection> expected = listener.expect(ID, secret);
    HostPort at = HostPort.parse(listener.address());
    try (Socket s = new Socket(at.host(), at.port())) {
      OutputStream out = s.getOutputStream();
      out.write("SSH-2.0-OpenSSH_9.2\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      out.flush();
      // TLS's alert, then the end of the connection.
      assertTrue(s.getInputStream().readAllBytes().length > 0);
    }
    FrameConnection right = dial(secret);
    assertTrue(expected.get(10, TimeUnit.SECONDS) != null);
    warned.await(w -> w.contains("not TLS"), WAIT);
    right.close();
  }

  /** Live threads that run the listener's handshakes. */
  private static long handshakeThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals(FrontEndListener.HANDSHAKE_THREAD))
        .count();
  }

  /**
   * Whether the listener closed {@code s} without a byte of its own: the end of the stream or a
   * reset within {@code limit}; false when it is still open then.
   */
  private static boolean closedUnanswered(Socket s, Duration limit) throws IOException {
    s.setSoTimeout((int) limit.toMillis());
    try {
      return s.getInputStream().read() < 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (SocketException e) {
      return true; // reset: the listener closed it while bytes were on their way
    }
  }

  /**
   * A byte every 100 ms to each of {@code sockets}, the start of a TLS ClientHello that announces
   * 512 bytes: each read of the listener gets a byte long before any timeout per read, and the
   * hello is never whole.
   */
  private static void trickle(ScheduledExecutorService scheduler, List<Socket> sockets) {
    byte[] hello = {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, (byte) 0xfc, 0x03, 0x03};
    AtomicInteger sent = new AtomicInteger();
    scheduler.scheduleAtFixedRate(
        () -> {
          int i = sent.getAndIncrement();
          for (Socket s : sockets) {
            try {
              s.getOutputStream().write(i < hello.length ? hello[i] : 0);
            } catch (IOException e) {
              // Closed by the listener: nothing more to send there.
            }
          }
        },
        0,
        100,
        TimeUnit.MILLISECONDS);
  }

  @Test
  void aFloodOfSlowConnectionsStaysBoundedAndARealMasterFromTheFloodsOwnAddressStillGetsIn()
      throws Exception {
    CompletableFuture<FrameConnection> expected = listener.expect(ID, secret);
    HostPort at = HostPort.parse(listener.address());
    InetAddress target = InetAddress.getByName(at.host());
    List<Socket> flood = new ArrayList<>();
    List<Socket> slow = new ArrayList<>();
    ScheduledExecutorService trickler = Executors.newSingleThreadScheduledExecutor();
    try {
      // 300 connections from ten addresses, the real master's among them (as all connections
      // through one relay come from the relay's): half say nothing, half send a byte at a time.
      for (int i = 0; i < 300; i++) {
        InetAddress from = InetAddress.getByName("127.0.0." + (1 + i % 10));
        Socket s = new Socket(target, at.port(), from, 0);
        flood.add(s);
        if (i % 2 == 1) {
          slow.add(s);
        }
      }
      trickle(trickler, slow);
      // The real master, from 127.0.0.1, while the flood holds every place it can.
      FrameConnection right = dial(secret);
      assertTrue(expected.get(10, TimeUnit.SECONDS) != null);
      // Bounded meanwhile: connections in their handshake, and the threads that serve them.
      assertTrue(listener.pending() <= FrontEndListener.MAX_PENDING, listener.pending() + "");
      assertTrue(handshakeThreads() <= FrontEndListener.MAX_PENDING, handshakeThreads() + "");
      right.close();
      // Every connection of the flood is closed, unanswered: most at once to make room for newer
      // ones, the rest at their handshake's deadline, the slow ones too.
      for (Socket s : flood) {
        assertTrue(closedUnanswered(s, Handshake.TIMEOUT.multipliedBy(3)), s.toString());
      }
      warned.await(l -> l.contains("its handshake did not end within"), WAIT);
      assertTrue(
          listener.largestHandshakeThreads() <= FrontEndListener.MAX_PENDING,
          listener.largestHandshakeThreads() + " threads");
      assertTrue(
          listener.refused(Refusals.Kind.CROWDED) >= 300 - FrontEndListener.MAX_PENDING,
          listener.refused(Refusals.Kind.CROWDED) + " made room");
      // A few lines tell the user, not one per connection.
      assertTrue(warnings.size() <= 12, warnings.toString());
      assertTrue(
          warnings.stream().anyMatch(w -> w.contains("to make room for")), warnings.toString());
    } finally {
      trickler.shutdownNow();
      for (Socket s : flood) {
        s.close();
      }
    }
  }

  @Test
  void aConnectionThatSendsOneByteAtATimeIsClosedAtTheHandshakesDeadline() throws Exception {
    ScheduledExecutorService trickler = Executors.newSingleThreadScheduledExecutor();
    CompletableFuture<String> said = new CompletableFuture<>();
    try (FrontEndListener quick =
            new FrontEndListener(
                new HostPort("127.0.0.1", 0), said::complete, Duration.ofSeconds(2));
        Socket s = new Socket()) {
      HostPort at = HostPort.parse(quick.address());
      s.connect(new java.net.InetSocketAddress(at.host(), at.port()));
      trickle(trickler, List.of(s));
      // The trickle would take a minute; the deadline of 2 s ends it.
      assertTrue(closedUnanswered(s, Duration.ofSeconds(30)));
      String why = said.get(10, TimeUnit.SECONDS);
      assertTrue(why.contains("its handshake did not end within 2000 ms"), why);
      assertEquals(1, quick.refused(Refusals.Kind.LATE));
    } finally {
      trickler.shutdownNow();
    }
  }

  @Test
  void aReplyToACallNotInProgressIsRefusedAndTheSessionEndsSayingWhy() throws Exception {
    CompletableFuture<FrameConnection> expected = listener.expect(ID, secret);
    FrameConnection masterSide = dial(secret);
    masterSide.write(Frame.newBuilder().setWelcome(Welcome.newBuilder().setSize(RANKS)).build());
    RemoteSession session = RemoteSession.open(expected.get(10, TimeUnit.SECONDS), p -> {}, WAIT);
    CompletableFuture<Frame> refusal = new CompletableFuture<>();
    masterSide.start(
        new FrameConnection.Listener() {
          @Override
          public void frame(Frame frame) {
            if (frame.hasRefused()) {
              refusal.complete(frame);
            }
          }

          @Override
          public void closed(String reason) {}
        },
        "fake-master");
    CompletableFuture<List<RankReply>> call = session.call(load(), RankSet.all(RANKS), WAIT);
    // Call 1 is in progress; 42 never was.
    masterSide.send(
        Frame.newBuilder()
            .setReply(
                CallReply.newBuilder()
                    .setCallId(42)
                    .setRanks(Protos.toProto(RankSet.all(RANKS)))
                    .setBody(EventBody.getDefaultInstance()))
            .build());
    String why = "a reply to call 42, which is not in progress";
    assertEquals(
        "the front-end refused what the master sent: " + why,
        session.ended().get(10, TimeUnit.SECONDS));
    ExecutionException failed =
        assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS));
    assertTrue(failed.getCause().getMessage().endsWith(why), failed.getCause().getMessage());
    assertEquals(why, refusal.get(10, TimeUnit.SECONDS).getRefused().getReason());
    masterSide.close();
  }

  @Test
  void aSecondMasterForTheSameRequestIsRefused() throws Exception {
    CompletableFuture<FrameConnection> expected = listener.expect(ID, secret);
    FrameConnection first = dial(secret);
    expected.get(10, TimeUnit.SECONDS);
    IOException e = assertThrows(IOException.class, () -> dial(secret));
    assertTrue(e.getMessage().contains("no session \"" + ID + "\" here"), e.getMessage());
    first.close();
  }

  @Test
  void callsInFlightFailWithWhyWhenTheMasterIsGone() throws Exception {
    CompletableFuture<FrameConnection> expected = listener.expect(ID, secret);
    FrameConnection masterSide = dial(secret);
    masterSide.write(Frame.newBuilder().setWelcome(Welcome.newBuilder().setSize(RANKS)).build());
    RemoteSession session = RemoteSession.open(expected.get(10, TimeUnit.SECONDS), p -> {}, WAIT);
    CompletableFuture<List<RankReply>> call =
        session.call(
            CommandBody.newBuilder()
                .setEvaluate(ExpressionCmd.newBuilder().setExpression("x"))
                .build(),
            RankSet.all(RANKS),
            Duration.ZERO);
    masterSide.close(); // the master dies before it answers
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS));
    assertTrue(
        e.getCause().getMessage().startsWith("the connection to the master was lost"),
        e.getCause().getMessage());
  }
}

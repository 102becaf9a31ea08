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
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.ExpressionCmd;
import io.sdmfabric.wire.proto.Frame;
import io.sdmfabric.wire.proto.Progress;
import io.sdmfabric.wire.proto.Role;
import io.sdmfabric.wire.proto.StartSessionCmd;
import io.sdmfabric.wire.proto.Welcome;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
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
  private FrontEndListener listener;
  private ActorSystem<Session.Command> master;

  @BeforeEach
  void listen() throws IOException {
    listener = new FrontEndListener(new HostPort("127.0.0.1", 0), warnings::add);
    SimulatedProgram program = SimulatedProgram.defaults();
    master =
        ActorSystem.create(
            Session.embedded(
                RANKS,
                FabricConfig.defaults(),
                rank -> new DebuggerBackend(SimulatedDebugger.direct(program, rank, RANKS))),
            "master");
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
    assertTrue(warnings.stream().anyMatch(w -> w.contains("not TLS")), warnings.toString());
    right.close();
  }

  @Test
  void aFloodOfSilentConnectionsIsBoundedAndARealMasterStillGetsIn() throws Exception {
    CompletableFuture<FrameConnection> expected = listener.expect(ID, secret);
    HostPort at = HostPort.parse(listener.address());
    InetAddress attacker = InetAddress.getByName("127.0.0.2");
    List<Socket> flood = new java.util.ArrayList<>();
    try {
      for (int i = 0; i < 300; i++) {
        flood.add(new Socket(InetAddress.getByName(at.host()), at.port(), attacker, 0));
      }
      // All but a few from the one source are closed at once, unread.
      int closed = 0;
      for (Socket s : flood) {
        s.setSoTimeout(200);
        try {
          if (s.getInputStream().read() < 0) {
            closed++;
          }
        } catch (java.net.SocketTimeoutException | java.net.SocketException e) {
          // Still open: one of those in their handshake.
        }
      }
      assertTrue(
          closed >= flood.size() - FrontEndListener.MAX_PENDING_PER_SOURCE,
          closed + " of " + flood.size() + " closed");
      assertTrue(listener.pending() <= FrontEndListener.MAX_PENDING_PER_SOURCE);
      long handshakeThreads =
          Thread.getAllStackTraces().keySet().stream()
              .filter(t -> t.getName().equals("handshake"))
              .count();
      assertTrue(handshakeThreads <= FrontEndListener.MAX_PENDING, handshakeThreads + " threads");
      // The real master, from another address, while the flood's connections still hang.
      FrameConnection right = dial(secret);
      assertTrue(expected.get(10, TimeUnit.SECONDS) != null);
      right.close();
    } finally {
      for (Socket s : flood) {
        s.close();
      }
    }
  }

  @Test
  void aConnectionThatSendsOneByteAtATimeIsClosedAtTheHandshakesDeadline() throws Exception {
    HostPort at = HostPort.parse(listener.address());
    try (Socket s = new Socket(at.host(), at.port())) {
      s.setSoTimeout((int) Handshake.TIMEOUT.multipliedBy(3).toMillis());
      OutputStream out = s.getOutputStream();
      long start = System.nanoTime();
      // The start of a TLS ClientHello, a byte at a time, each well within any per-read timeout.
      byte[] hello = {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, (byte) 0xfc, 0x03, 0x03};
      try {
        for (int i = 0; i < 1000; i++) {
          out.write(hello[i % hello.length]);
          out.flush();
          if (s.getInputStream().available() > 0
              || System.nanoTime() - start > Handshake.TIMEOUT.multipliedBy(2).toNanos()) {
            break;
          }
          Thread.sleep(500);
        }
        // The listener closed it at the handshake's deadline: the rest is TLS's alert, if any,
        // then the end.
        s.getInputStream().readAllBytes();
      } catch (java.net.SocketException e) {
        // Closed by the listener: a write or read on it failed. (Had it not closed it, the read
        // above would have timed out, failing the test.)
      }
    }
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

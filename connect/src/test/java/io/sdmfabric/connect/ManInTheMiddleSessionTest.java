package io.sdmfabric.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.master.GatewayConnection;
import io.sdmfabric.master.Session;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.DebuggerBackend;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.RankBackend;
import io.sdmfabric.server.ReplyBody;
import io.sdmfabric.sim.SimulatedDebugger;
import io.sdmfabric.sim.SimulatedProgram;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.FrameConnection;
import io.sdmfabric.wire.Frames;
import io.sdmfabric.wire.Handshake;
import io.sdmfabric.wire.HostPort;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.proto.Bye;
import io.sdmfabric.wire.proto.Call;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.Frame;
import io.sdmfabric.wire.proto.Role;
import io.sdmfabric.wire.proto.Welcome;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The review's attack on a whole reverse connect session: {@code sdm listen} (its console, its
 * listener, the client library) accepts a request, and the master (a real session of simulated
 * ranks behind its gateway) dials it through a hostile hop, which forwards the handshake and then
 * tampers with what the front-end sends: it injects a {@code gdb shell} call of its own in clear,
 * alters a byte of the user's call, or replays it. Each time the connection ends, nothing the hop
 * made runs on a rank, the user's call runs at most once, and both users are told why: {@code sdm
 * listen} prints that the session ended and why, and the master's side hears it to end the job.
 */
class ManInTheMiddleSessionTest {
  private static final int RANKS = 4;
  private static final Duration WAIT = Duration.ofSeconds(20);

  /** What the hop does to the front-end's bytes once the session is under way. */
  enum Tamper {
    /** Sends a frame of its own, in clear, instead: a call that would run a shell on each rank. */
    INJECT(
        chunk -> {
          Frame call =
              Frame.newBuilder()
                  .setCall(
                      Call.newBuilder()
                          .setId(99)
                          .setRanks(Protos.toProto(RankSet.all(RANKS)))
                          .setBody(Commands.cli("shell touch /tmp/owned-by-the-hop")))
                  .build();
          ByteArrayOutputStream bytes = new ByteArrayOutputStream();
          try {
            Frames.write(new DataOutputStream(bytes), call);
          } catch (IOException e) {
            throw new CompletionException(e);
          }
          return bytes.toByteArray();
        }),
    /** Flips one bit of the user's call. */
    ALTER(
        chunk -> {
          chunk[chunk.length / 2] ^= 0x10;
          return chunk;
        }),
    /** Passes the user's call on, then the same bytes again. */
    REPLAY(
        chunk -> {
          byte[] twice = Arrays.copyOf(chunk, chunk.length * 2);
          System.arraycopy(chunk, 0, twice, chunk.length, chunk.length);
          return twice;
        });

    final UnaryOperator<byte[]> bytes;

    Tamper(UnaryOperator<byte[]> bytes) {
      this.bytes = bytes;
    }
  }

  /** Records every command that reaches a rank, then runs it. */
  private record Recording(int rank, RankBackend inner, List<String> log) implements RankBackend {
    @Override
    public CompletionStage<ReplyBody> execute(CommandBody command) {
      log.add(
          rank
              + " "
              + command.getKindCase()
              + (command.hasCli() ? " " + command.getCli().getCommand() : ""));
      return inner.execute(command);
    }

    @Override
    public void subscribe(Consumer<EventBody> events) {
      inner.subscribe(events);
    }

    @Override
    public void close() {
      inner.close();
    }
  }

  @TempDir Path tmp;

  private final List<String> ran = new CopyOnWriteArrayList<>();
  private final AwaitedLines lines = new AwaitedLines();
  private ActorSystem<Session.Command> master;
  private FrontEndListener listener;
  private ListenConsole console;
  private ConnectDirectory dir;

  @BeforeEach
  void start() throws IOException {
    SimulatedProgram program = SimulatedProgram.defaults();
    master =
        ActorSystem.create(
            Session.embedded(
                RANKS,
                FabricConfig.defaults(),
                rank ->
                    new Recording(
                        rank,
                        new DebuggerBackend(SimulatedDebugger.direct(program, rank, RANKS)),
                        ran)),
            "master");
    dir = ConnectDirectory.open(tmp.resolve(".sdm"));
    listener = new FrontEndListener(new HostPort("127.0.0.1", 0), w -> {});
    console =
        new ListenConsole(
            dir, listener, new PrintStream(lines, true, StandardCharsets.UTF_8), q -> true);
  }

  @AfterEach
  void end() {
    console.close();
    listener.close();
    master.terminate();
  }

  /**
   * The master's side as {@code sdm connect} runs it once the job is up: it dials through {@code
   * hop}, serves the session's gateway, and completes the result with how the gateway ended.
   */
  private CompletableFuture<GatewayConnection.Ending> masterThrough(
      TamperingProxy hop, ConnectRequest request) throws IOException {
    FrameConnection c = FrameConnection.dial("127.0.0.1", hop.port(), WAIT);
    Handshake.dial(c, Role.ROLE_MASTER, request.id(), request.secret(), WAIT);
    CompletableFuture<GatewayConnection.Ending> ended = new CompletableFuture<>();
    master.systemActorOf(
        GatewayConnection.create(
            master,
            c,
            Welcome.newBuilder()
                .setSize(RANKS)
                .setProgram("/bin/sim")
                .setMissing(Protos.toProto(RankSet.empty()))
                .build(),
            ending -> {
              ended.complete(ending);
              c.sendThenClose(
                  Frame.newBuilder()
                      .setBye(Bye.newBuilder().setReason("the job has ended"))
                      .build(),
                  "ended");
            }),
        "gateway",
        Props.empty());
    return ended;
  }

  @ParameterizedTest
  @EnumSource(Tamper.class)
  void aHopThatTampersAfterTheHandshakeEndsTheSessionAndBothUsersAreTold(Tamper tamper)
      throws Exception {
    ConnectRequest request = ConnectRequest.fromHere(List.of("srun", "-n", "4", "/bin/sim"));
    dir.submit(request);
    CompletableFuture<Boolean> accepted =
        CompletableFuture.supplyAsync(() -> console.execute("accept " + request.id()));
    lines.await(l -> l.startsWith("accepted request " + request.id()), WAIT);
    int port = HostPort.parse(listener.address()).port();
    try (TamperingProxy hop = new TamperingProxy(port, tamper.bytes)) {
      CompletableFuture<GatewayConnection.Ending> masterEnded = masterThrough(hop, request);
      assertTrue(accepted.get(30, TimeUnit.SECONDS), lines.toString());
      lines.await(l -> l.startsWith("session 1: 4 ranks"), WAIT);
      // The session works through the hop until the hop acts.
      console.execute("gdb info breakpoints");
      hop.arm();
      console.execute("gdb shell echo from the user");
      String told =
          lines.await(l -> l.startsWith("session 1 ended: "), WAIT).substring("session ".length());
      assertTrue(
          told.startsWith("1 ended: the connection to the master was lost: connection lost: TLS"),
          told);
      assertTrue(told.contains("altered, injected, replayed or reordered"), told);
      GatewayConnection.Ending ending = masterEnded.get(20, TimeUnit.SECONDS);
      assertTrue(ending.reason().startsWith("connection lost: TLS"), ending.reason());
    }
    assertTrue(ran.stream().noneMatch(c -> c.contains("owned-by-the-hop")), ran.toString());
    for (int rank = 0; rank < RANKS; rank++) {
      String usersCall = rank + " CLI shell echo from the user";
      long times = ran.stream().filter(usersCall::equals).count();
      assertTrue(times <= (tamper == Tamper.REPLAY ? 1 : 0), usersCall + ": " + ran);
      assertEquals(
          1, ran.stream().filter((rank + " CLI info breakpoints")::equals).count(), ran + "");
    }
  }
}

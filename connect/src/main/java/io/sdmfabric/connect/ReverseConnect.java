package io.sdmfabric.connect;

import io.sdmfabric.master.GatewayConnection;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.runtime.DistributedSession;
import io.sdmfabric.runtime.LaunchedSession;
import io.sdmfabric.runtime.PmixSession;
import io.sdmfabric.wire.FrameConnection;
import io.sdmfabric.wire.Handshake;
import io.sdmfabric.wire.HostPort;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.proto.Bye;
import io.sdmfabric.wire.proto.Frame;
import io.sdmfabric.wire.proto.Role;
import io.sdmfabric.wire.proto.Welcome;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.Props;

/**
 * The batch job's side of reverse connect ({@code sdm connect}): leaves a request in the private
 * directory and waits until a front-end ({@code sdm listen}) accepts or rejects it. Accepted, it
 * dials the front-end (directly or through {@code sdm relay}), proves the request's secret, starts
 * the master here and the job through its launcher ({@link LaunchedSession}), telling the front-end
 * how the start goes, and serves the session until the front-end is done; then the job ends. Ctrl-C
 * or SIGTERM withdraws a waiting request, or ends the job and tells the front-end.
 *
 * <p>What happens on the way is said on {@code log} (the batch job's standard error).
 */
public final class ReverseConnect {
  /** How often the request's answer is looked for. */
  private static final long POLL_MS = 100;

  /**
   * A reverse connect to make.
   *
   * @param command the job's launch command as given
   * @param line the launch command as read
   * @param job how to start the job once accepted
   * @param timeout how long to wait for an answer; empty: as long as it takes
   * @param via the relay to dial instead of what the front-end answers; empty: none
   */
  public record Spec(
      List<String> command,
      LaunchLine line,
      LaunchedSession.Spec job,
      Optional<Duration> timeout,
      Optional<HostPort> via) {
    public Spec {
      command = List.copyOf(command);
    }
  }

  /** How it ended. */
  public sealed interface Outcome {
    /** Whether the job was debugged and the front-end ended the session itself. */
    default boolean succeeded() {
      return this instanceof Served s && s.endedByFrontEnd();
    }
  }

  /** No front-end answered in time; the request was withdrawn. */
  public record Unanswered(String requestId) implements Outcome {}

  /** The front-end said no. */
  public record Rejected(String reason) implements Outcome {}

  /** Accepted, but the front-end could not be reached or the job did not start. */
  public record Failed(String why) implements Outcome {}

  /** The session was served until {@code reason}. */
  public record Served(String reason, boolean endedByFrontEnd) implements Outcome {}

  private final Spec spec;
  private final ConnectDirectory dir;
  private final PrintStream log;
  private final ConnectRequest request;
  private volatile DistributedSession session;
  private volatile FrameConnection frontEnd;

  private ReverseConnect(Spec spec, ConnectDirectory dir, PrintStream log) {
    this.spec = spec;
    this.dir = dir;
    this.log = log;
    this.request = ConnectRequest.fromHere(spec.command());
  }

  /**
   * Asks for a front-end and, accepted, serves the job to it.
   *
   * @throws IOException when sdm's private directory cannot be used (the message says how to fix
   *     it) or the request cannot be written
   */
  public static Outcome run(Spec spec, PrintStream log) throws Exception {
    return new ReverseConnect(spec, ConnectDirectory.open(), log).run();
  }

  private Outcome run() throws Exception {
    Thread hook = new Thread(this::onSignal, "withdraw-request");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      dir.submit(request);
      log.println(
          "sdm connect: request "
              + request.id()
              + " waits for a front-end: accept it with sdm listen ("
              + dir.dir().resolve(request.fileName())
              + ")");
      Optional<ConnectDirectory.Answer> answer = awaitAnswer();
      dir.withdraw(request.id());
      if (answer.isEmpty()) {
        return new Unanswered(request.id());
      }
      if (answer.get() instanceof ConnectDirectory.Rejected r) {
        return new Rejected(r.reason());
      }
      return serve((ConnectDirectory.Accepted) answer.get());
    } finally {
      dir.withdraw(request.id());
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // The JVM is going down: the hook runs.
      }
    }
  }

  /** Waits for an answer to the request; empty when the time is up. */
  private Optional<ConnectDirectory.Answer> awaitAnswer() throws Exception {
    long deadline = spec.timeout().map(l -> System.nanoTime() + l.toNanos()).orElse(Long.MAX_VALUE);
    while (System.nanoTime() < deadline) {
      Optional<ConnectDirectory.Answer> answer = dir.answer(request.id());
      if (answer.isPresent()) {
        return answer;
      }
      if (!Files.exists(dir.dir().resolve(request.fileName()))) {
        return Optional.of(new ConnectDirectory.Rejected("the request file was removed"));
      }
      Thread.sleep(POLL_MS);
    }
    return Optional.empty();
  }

  /** Connects to the front-end, starts the job, and serves it until the front-end is done. */
  private Outcome serve(ConnectDirectory.Accepted accepted) throws Exception {
    HostPort target;
    try {
      target =
          spec.via()
              .or(() -> accepted.via().map(HostPort::parse))
              .orElseGet(() -> HostPort.parse(accepted.address()));
    } catch (IllegalArgumentException e) {
      return new Failed("the front-end's answer is not usable: " + e.getMessage());
    }
    FrameConnection c;
    try {
      c = FrameConnection.dial(target.host(), target.port(), Handshake.TIMEOUT);
      Handshake.dial(c, Role.ROLE_MASTER, request.id(), request.secret(), Handshake.TIMEOUT);
    } catch (IOException e) {
      return new Failed("accepted, but " + e.getMessage());
    }
    frontEnd = c;
    log.println("sdm connect: accepted; connected to the front-end at " + target);
    ProgressLines progress = new ProgressLines(log, c);
    PrintStream toFrontEnd = progress.printStream();
    toFrontEnd.println("master on " + request.host() + ": starting " + spec.line().text());
    DistributedSession s;
    try {
      s =
          spec.job().launcher().servesPmixTools()
              ? PmixSession.launch(spec.job(), toFrontEnd)
              : LaunchedSession.start(spec.job(), toFrontEnd);
    } catch (IOException | RuntimeException e) {
      toFrontEnd.println("sdm connect: " + e.getMessage());
      progress.stop();
      c.sendThenClose(bye("the job did not start: " + e.getMessage()), "the job did not start");
      return new Failed("the job did not start: " + e.getMessage());
    }
    session = s;
    progress.stop();
    CompletableFuture<GatewayConnection.Ending> ending = new CompletableFuture<>();
    s.masterSystem()
        .systemActorOf(
            GatewayConnection.create(s.masterSystem(), c, welcome(s), ending::complete),
            "gateway",
            Props.empty());
    GatewayConnection.Ending end = ending.get();
    // The reason may quote the front-end's goodbye: text from across the network.
    log.println("sdm connect: " + TerminalText.escape(end.reason()) + "; ending the job");
    s.close();
    c.sendThenClose(bye("the job has ended"), "the job has ended");
    awaitClosed(c);
    return new Served(end.reason(), end.endSession());
  }

  private Welcome welcome(DistributedSession s) {
    LaunchLine line = spec.line();
    return Welcome.newBuilder()
        .setStarted(s.started().word())
        .setSize(line.size())
        .setProgram(line.program())
        .addAllArgs(line.args())
        .setDescription(
            line.text()
                + " on "
                + request.host()
                + (request.job().isEmpty() ? "" : " (Slurm job " + request.job() + ")"))
        .setMissing(Protos.toProto(s.missing()))
        .build();
  }

  /** Ctrl-C or SIGTERM: withdraw the request, or end the job and tell the front-end. */
  private void onSignal() {
    dir.withdraw(request.id());
    FrameConnection c = frontEnd;
    if (c != null && !c.isClosed()) {
      DistributedSession s = session;
      if (s != null) {
        s.close();
      }
      c.sendThenClose(bye("sdm connect was ended by a signal"), "ended by a signal");
      awaitClosed(c);
    }
  }

  private static Frame bye(String reason) {
    return Frame.newBuilder().setBye(Bye.newBuilder().setReason(reason)).build();
  }

  /** Waits a little for the goodbye to go out. */
  private static void awaitClosed(FrameConnection c) {
    try {
      c.whenClosed().get(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      // Not out in time: the front-end hears the connection close instead.
    }
    c.close();
  }
}

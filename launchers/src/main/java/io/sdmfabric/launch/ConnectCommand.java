package io.sdmfabric.launch;

import io.sdmfabric.frontend.Durations;
import io.sdmfabric.master.GatewayConnection;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.FrameConnection;
import io.sdmfabric.wire.Handshake;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.proto.Bye;
import io.sdmfabric.wire.proto.Frame;
import io.sdmfabric.wire.proto.Role;
import io.sdmfabric.wire.proto.Welcome;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.Props;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sdm connect}: reverse connect, for batch scripts. In front of the job's launch command
 * ({@code sdm connect srun -n 4 ./app}) it leaves a request in {@code ~/.sdm/connect} and waits
 * until a front-end ({@code sdm listen}) accepts or rejects it. Accepted, it connects out to the
 * front-end (directly or through {@code sdm relay}), starts the master here on the batch node,
 * launches the job through the given launcher with an agent per node, and serves the session to the
 * front-end until the front-end quits; then the job ends. Ctrl-C or SIGTERM withdraws a waiting
 * request, or ends the job and tells the front-end.
 */
@Command(
    name = "connect",
    description =
        "Ask a front-end (sdm listen) to debug a job: put it in front of the launch command"
            + " in a batch script.",
    mixinStandardHelpOptions = true)
final class ConnectCommand implements Callable<Integer> {
  /** How often the request's answer is looked for. */
  private static final long POLL_MS = 100;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      description =
          "give up when no front-end has answered within DURATION, e.g. 10m (default: wait)")
  String timeout;

  @Option(
      names = "--via",
      paramLabel = "HOST:PORT",
      description = "connect to the front-end through the relay at HOST:PORT (sdm relay)")
  String via;

  @Mixin DistributedOptions distributed = new DistributedOptions();

  @Parameters(
      paramLabel = "LAUNCH COMMAND",
      arity = "1..*",
      description = "the job's launch command, e.g. srun -n 4 ./app arg")
  List<String> command = new ArrayList<>();

  private final PrintStream err;
  private volatile LaunchedSession session;
  private volatile FrameConnection frontEnd;

  ConnectCommand(PrintStream err) {
    this.err = err;
  }

  @Override
  public Integer call() throws Exception {
    Optional<Duration> limit;
    LaunchLine line;
    LaunchedSession.Spec job;
    Optional<HostPort> relay;
    try {
      limit = timeout == null ? Optional.empty() : Optional.of(Durations.parse(timeout));
      line = LaunchLine.parse(command, System.getenv());
      relay = via == null ? Optional.empty() : Optional.of(HostPort.parse(via));
      job =
          new LaunchedSession.Spec(
              line.launcher(),
              line.options(),
              line.size(),
              line.program(),
              line.args(),
              distributed.artery(),
              distributed.address,
              distributed.wireUp(),
              FabricConfig.defaults());
    } catch (IllegalArgumentException e) {
      err.println("sdm connect: " + e.getMessage());
      return 2;
    }
    ConnectDirectory dir;
    try {
      dir = ConnectDirectory.open();
    } catch (IOException e) {
      err.println("sdm connect: " + e.getMessage());
      return 2;
    }
    ConnectRequest request = ConnectRequest.fromHere(command);
    Thread hook = new Thread(() -> onSignal(dir, request), "withdraw-request");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      dir.submit(request);
      err.println(
          "sdm connect: request "
              + request.id()
              + " waits for a front-end: accept it with sdm listen ("
              + dir.dir().resolve(request.fileName())
              + ")");
      Optional<ConnectDirectory.Answer> answer = await(dir, request, limit);
      dir.withdraw(request.id());
      if (answer.isEmpty()) {
        err.println(
            "sdm connect: no front-end answered within "
                + timeout
                + "; request "
                + request.id()
                + " withdrawn");
        return 1;
      }
      if (answer.get() instanceof ConnectDirectory.Rejected r) {
        err.println(
            "sdm connect: reverse connect request rejected"
                + (r.reason().isBlank() ? "" : ": " + r.reason()));
        return 1;
      }
      return serve(request, (ConnectDirectory.Accepted) answer.get(), relay, line, job);
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
  private Optional<ConnectDirectory.Answer> await(
      ConnectDirectory dir, ConnectRequest request, Optional<Duration> limit) throws Exception {
    long deadline = limit.map(l -> System.nanoTime() + l.toNanos()).orElse(Long.MAX_VALUE);
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
  private int serve(
      ConnectRequest request,
      ConnectDirectory.Accepted accepted,
      Optional<HostPort> relay,
      LaunchLine line,
      LaunchedSession.Spec job)
      throws Exception {
    HostPort target;
    try {
      target =
          relay
              .or(() -> accepted.via().map(HostPort::parse))
              .orElseGet(() -> HostPort.parse(accepted.address()));
    } catch (IllegalArgumentException e) {
      err.println("sdm connect: the front-end's answer is not usable: " + e.getMessage());
      return 1;
    }
    FrameConnection c;
    try {
      c = FrameConnection.dial(target.host(), target.port(), Handshake.TIMEOUT);
      Handshake.dial(c, Role.ROLE_MASTER, request.id(), request.secret(), Handshake.TIMEOUT);
    } catch (IOException e) {
      err.println("sdm connect: accepted, but " + e.getMessage());
      return 1;
    }
    frontEnd = c;
    err.println("sdm connect: accepted; connected to the front-end at " + target);
    ProgressLines progress = new ProgressLines(err, c);
    PrintStream toFrontEnd = progress.printStream();
    toFrontEnd.println("master on " + request.host() + ": starting " + line.text());
    LaunchedSession s;
    try {
      s = LaunchedSession.start(job, toFrontEnd);
    } catch (IOException | RuntimeException e) {
      toFrontEnd.println("sdm connect: " + e.getMessage());
      progress.stop();
      c.sendThenClose(bye("the job did not start: " + e.getMessage()), "the job did not start");
      return 1;
    }
    session = s;
    progress.stop();
    Welcome welcome =
        Welcome.newBuilder()
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
    CompletableFuture<GatewayConnection.Ending> ending = new CompletableFuture<>();
    s.masterSystem()
        .systemActorOf(
            GatewayConnection.create(s.masterSystem(), c, welcome, ending::complete),
            "gateway",
            Props.empty());
    GatewayConnection.Ending end = ending.get();
    err.println("sdm connect: " + end.reason() + "; ending the job");
    s.close();
    c.sendThenClose(bye("the job has ended"), "the job has ended");
    awaitClosed(c);
    return end.endSession() ? 0 : 1;
  }

  /** Ctrl-C or SIGTERM: withdraw the request, or end the job and tell the front-end. */
  private void onSignal(ConnectDirectory dir, ConnectRequest request) {
    dir.withdraw(request.id());
    FrameConnection c = frontEnd;
    if (c != null && !c.isClosed()) {
      LaunchedSession s = session;
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

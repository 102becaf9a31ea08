package io.sdmfabric.frontend.dap;

import static io.sdmfabric.frontend.dap.RequestFailure.message;

import io.sdmfabric.frontend.AttachWorkflow;
import io.sdmfabric.frontend.ProgramLoad;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import io.sdmfabric.wire.SessionClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.eclipse.lsp4j.debug.DisconnectArguments;
import org.eclipse.lsp4j.debug.StoppedEventArguments;
import org.eclipse.lsp4j.debug.StoppedEventArgumentsReason;

/**
 * How a session begins and ends for the adapter: {@code launch} and {@code attach} open it through
 * the command line's {@link SessionOpener} and load its program (or attach), {@code
 * configurationDone} runs the launched ranks (or shows the attached ones stopped where they were),
 * and {@code disconnect} ends it, leaving attached processes running unless the client asks
 * otherwise.
 */
final class SessionStarter {
  private final SessionOpener opener;
  private final DapOutput out;

  SessionStarter(SessionOpener opener, DapOutput out) {
    this.opener = opener;
    this.out = out;
  }

  /**
   * Opens a session of the launch request's {@code args}, handing it to {@code opened} at once, and
   * loads the program on every rank; tells the client it may configure the session.
   */
  void launch(Map<String, Object> args, Consumer<DapSession> opened) {
    LaunchConfig config;
    DapSession session;
    try {
      config = LaunchConfig.from(args);
      session =
          new DapSession(
              opener.launch(config, out.consoleStream()),
              new DapSession.Start(
                  DapSession.Origin.LAUNCHED,
                  config.cwd(),
                  config.threadPerRankUpTo(),
                  config.stopOnEntry(),
                  RankSet.empty()),
              out);
      opened.accept(session);
    } catch (Exception e) {
      throw RequestFailure.of("sdm could not start the session: " + message(e));
    }
    LaunchSpec spec =
        new LaunchSpec(
            config.program(),
            config.args(),
            config.env(),
            Path.of(session.sources().workingDirectory()));
    int size = session.client().size();
    List<RankReply> loaded = session.exchange(Commands.startSession(spec), RankSet.all(size));
    if (loaded.stream().noneMatch(r -> r.reply() instanceof Reply.Loaded)) {
      throw RequestFailure.of(
          "no rank could load " + config.program() + ": " + PerRankValues.of(loaded));
    }
    out.initialized();
  }

  /**
   * Attaches to running processes (they stay stopped where they were until resumed, and run on
   * after disconnect), or takes the next reverse connect request of a batch job and starts its
   * program as a launch would; hands the session to {@code opened} as soon as it is open.
   */
  void attach(Map<String, Object> args, Consumer<DapSession> opened) {
    DapSession session = null;
    try {
      AttachConfig config = AttachConfig.from(args);
      if (config.listen()) {
        SessionOpener.Connected job = opener.listen(config, out.consoleStream());
        session = open(job.session(), DapSession.Origin.LAUNCHED, config, RankSet.empty());
        opened.accept(session);
        if (!ProgramLoad.load(session.client(), session.renderer(), job.program(), job.args())) {
          throw new IllegalStateException("no rank could load " + job.program());
        }
      } else {
        SessionOpener.Attached job = opener.attach(config, out.consoleStream());
        session = open(job.session(), DapSession.Origin.ATTACHED, config, job.attached());
        opened.accept(session);
        if (!AttachWorkflow.begin(
            session.client(),
            session.console(),
            session.renderer(),
            job.attached(),
            job.notAttached())) {
          throw new IllegalStateException("no process could be attached");
        }
      }
    } catch (Exception e) {
      if (session != null) {
        session.close();
      }
      throw RequestFailure.of("sdm could not attach: " + message(e));
    }
    out.initialized();
  }

  private DapSession open(
      SessionClient opened, DapSession.Origin origin, AttachConfig config, RankSet attached) {
    return new DapSession(
        opened,
        new DapSession.Start(
            origin, config.cwd(), config.threadPerRankUpTo(), config.stopOnEntry(), attached),
        out);
  }

  /**
   * The client has configured {@code session}: launched ranks run (to {@code main} first when they
   * stop on entry, unless they are in main already, held in MPI_Init: they stop there); attached
   * ones show as stopped where they were.
   */
  void configurationDone(DapSession session) {
    DapSession.Start start = session.start();
    RankSet all = session.threads().all();
    if (start.origin() == DapSession.Origin.ATTACHED) {
      showStopped(
          StoppedEventArgumentsReason.PAUSE,
          "attached to [" + start.attached() + "]",
          session.threads().firstStopped());
      return;
    }
    if (start.stopOnEntry() && inMainAlready(session, all)) {
      // Not started (their program loaded, not run), but held: the first of their threads.
      showStopped(
          StoppedEventArgumentsReason.ENTRY,
          heldWhere(session.client()),
          session.threads().regroup().stream().findFirst());
      return;
    }
    if (start.stopOnEntry()) {
      session.exchange(Commands.setBreakpoint(BreakpointSpec.at("main").asTemporary()), all);
    }
    session.execution().resume(all, Commands.run());
  }

  /**
   * Whether the launched ranks are inside {@code main} already: held in MPI_Init by sdm's library
   * or through PMIx, where a breakpoint at {@code main} would never stop them. Ranks that gdb
   * starts, or holds at their exec, have no stack in main yet.
   */
  private static boolean inMainAlready(DapSession session, RankSet all) {
    boolean any = false;
    for (RankReply r : session.exchange(Commands.listFrames(), all)) {
      if (r.reply() instanceof Reply.Frames f) {
        if (f.frames().stream().noneMatch(frame -> frame.function().equals("main"))) {
          return false;
        }
        any = true;
      }
    }
    return any;
  }

  private static String heldWhere(SessionClient client) {
    return switch (client.started()) {
      case SHIM_IN_INIT -> "held at the end of MPI_Init";
      case PMIX -> "held in MPI_Init";
      default -> "in main already";
    };
  }

  /**
   * Tells the client that every rank is stopped where it is, for {@code reason}, with {@code focus}
   * the thread to show.
   */
  private void showStopped(String reason, String description, Optional<RankGroups.Group> focus) {
    StoppedEventArguments stopped = new StoppedEventArguments();
    stopped.setReason(reason);
    stopped.setDescription(description);
    focus.ifPresent(g -> stopped.setThreadId(g.id()));
    stopped.setAllThreadsStopped(true);
    out.stopped(stopped);
  }

  /**
   * Ends {@code session} (none when the client disconnects before one opened): attached processes
   * are left running first, unless {@code args} asks to terminate them.
   */
  void disconnect(DapSession session, DisconnectArguments args) {
    if (session == null) {
      return;
    }
    if (session.start().origin() == DapSession.Origin.ATTACHED
        && (args == null || !Boolean.TRUE.equals(args.getTerminateDebuggee()))) {
      try {
        AttachWorkflow.leaveRunning(session.console(), session.start().attached());
      } catch (Exception e) {
        out.console("sdm: not every process was left running: " + message(e) + "\n");
      }
    }
    session.close();
  }
}

package io.sdmfabric.multijvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sdmfabric.frontend.ProcessTable;
import io.sdmfabric.gdbmi.GdbDebugger;
import io.sdmfabric.master.Session;
import io.sdmfabric.master.SessionEvent;
import io.sdmfabric.master.SessionProbes;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.ProcessState;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.DebuggerBackend;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.ReplyCache;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.Empty;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.ExpressionCmd;
import io.sdmfabric.wire.proto.StartSessionCmd;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An embedded session of three real gdbs (one process each, beside this JVM's actors) in which one
 * gdb is killed with SIGKILL: that rank alone goes into error, saying why, and the others go on.
 */
@Tag("jvms")
@Tag("gdb")
class GdbKilledOnOneRankTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final int SIZE = 3;
  private static final int VICTIM = 1;

  private final List<GdbDebugger> gdbs = new ArrayList<>();
  private ActorTestKit testKit;

  @BeforeAll
  static void needsGdbAndGcc() throws Exception {
    assumeTrue(
        new ProcessBuilder("gdb", "--version").start().waitFor() == 0, "gdb is not installed");
    assumeTrue(
        new ProcessBuilder("gcc", "--version").start().waitFor() == 0, "gcc is not installed");
  }

  @AfterEach
  void stopEverything() {
    gdbs.forEach(GdbDebugger::close);
    if (testKit != null) {
      testKit.shutdownTestKit();
    }
  }

  /** examples/ranks.c, built with {@code gcc -g}. */
  private static Path ranksProgram() throws Exception {
    Path examples = Path.of("..", "examples").toAbsolutePath().normalize();
    Path built = Files.createDirectories(Path.of("target", "examples").toAbsolutePath());
    Path binary = built.resolve("ranks");
    Process gcc =
        new ProcessBuilder("gcc", "-g", "-O0", "-o", binary.toString(), "ranks.c")
            .directory(examples.toFile())
            .redirectErrorStream(true)
            .start();
    String out = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(gcc.waitFor(60, TimeUnit.SECONDS) && gcc.exitValue() == 0, out);
    return binary;
  }

  private ActorRef<Session.Command> session() throws Exception {
    for (int rank = 0; rank < SIZE; rank++) {
      GdbDebugger gdb = GdbDebugger.start();
      gdbs.add(gdb);
      gdb.cli("set environment SDM_RANK=" + rank).get(30, TimeUnit.SECONDS);
    }
    ReplyCache cache = new ReplyCache();
    testKit = ActorTestKit.create();
    return testKit.spawn(
        Session.embedded(
            SIZE, FabricConfig.defaults(), rank -> new DebuggerBackend(gdbs.get(rank), cache)));
  }

  private Map<EventBody, RankSet> call(ActorRef<Session.Command> session, CommandBody body) {
    return SessionProbes.call(testKit, session, body, RankSet.all(SIZE), WAIT);
  }

  /** Feeds the session's events to a process table, as the console does, until one matches. */
  private static SessionEvent.Unsolicited until(
      TestProbe<SessionEvent> events,
      ProcessTable table,
      java.util.function.Predicate<EventBody> p) {
    while (true) {
      SessionEvent e = events.expectMessageClass(SessionEvent.class, WAIT);
      if (e instanceof SessionEvent.Unsolicited u) {
        table.apply(new RankReply(u.ranks(), u.body()));
        if (p.test(u.body())) {
          return u;
        }
      }
    }
  }

  @Test
  void aKilledGdbPutsItsRankAloneInErrorAndTheOthersStillAnswer() throws Exception {
    Path program = ranksProgram();
    ActorRef<Session.Command> session = session();
    TestProbe<SessionEvent> events = testKit.createTestProbe();
    session.tell(new Session.Subscribe(events.ref()));
    ProcessTable table = new ProcessTable(SIZE);

    call(
        session,
        CommandBody.newBuilder()
            .setStartSession(
                StartSessionCmd.newBuilder()
                    .setLaunch(Protos.toProto(LaunchSpec.of(program.toString()))))
            .build());
    call(
        session,
        CommandBody.newBuilder()
            .setSetBreakpoint(Protos.toProto(BreakpointSpec.at("compute")))
            .build());
    table.markRunning(RankSet.all(SIZE));
    call(session, CommandBody.newBuilder().setRun(Empty.getDefaultInstance()).build());
    while (!table.ranksIn(ProcessState.STOPPED, RankSet.all(SIZE)).equals(RankSet.all(SIZE))) {
      until(events, table, EventBody::hasSuspended);
    }

    ProcessHandle.of(gdbs.get(VICTIM).driver().pid()).orElseThrow().destroyForcibly();
    SessionEvent.Unsolicited ended = until(events, table, EventBody::hasDebuggerEnded);
    assertEquals(RankSet.of(VICTIM), ended.ranks());
    String why = ended.body().getDebuggerEnded().getReason();
    assertTrue(why.startsWith("gdb exited unexpectedly (killed by SIGKILL)"), why);
    assertEquals(RankSet.of(VICTIM), table.ranksIn(ProcessState.ERROR, RankSet.all(SIZE)));
    assertEquals(RankSet.of(0, 2), table.ranksIn(ProcessState.STOPPED, RankSet.all(SIZE)));

    Map<EventBody, RankSet> rank =
        call(
            session,
            CommandBody.newBuilder()
                .setEvaluate(ExpressionCmd.newBuilder().setExpression("rank"))
                .build());
    assertEquals(RankSet.of(VICTIM), rank.get(EventBodies.error(why)), rank.toString());
    for (int r : List.of(0, 2)) {
      int each = r;
      assertEquals(
          RankSet.of(r),
          rank.entrySet().stream()
              .filter(
                  e -> e.getKey().hasValue() && e.getKey().getValue().getText().equals("" + each))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no value of rank " + each + ": " + rank))
              .getValue());
    }
  }
}

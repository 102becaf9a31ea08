package io.sdmfabric.multijvm;

import static io.sdmfabric.multijvm.LoopbackSession.LOAD;
import static io.sdmfabric.multijvm.LoopbackSession.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.frontend.TextRenderer;
import io.sdmfabric.master.SessionEvent;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.runtime.LibraryLog;
import io.sdmfabric.wire.RankReply;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Where a session's log lines go when a node is lost: sdm's own on the console, the libraries'
 * (Pekko's) in the run's log file, through {@link LibraryLog}, from the master and from its agents.
 */
@Tag("jvms")
class LogLinesTest {
  @RegisterExtension final LoopbackSession session = new LoopbackSession();

  /**
   * A node cut off mid-session (its agent killed): the console shows sdm's line for its ranks and
   * none of the lines Pekko logs about the lost node, on the master or on the agent that stays
   * (whose standard error the master shows as a session does, through {@link LibraryLog}). Those go
   * to the run's log file under sdm's home, 0600 in a directory of 0700. The console here is this
   * JVM's standard error, where cli's LogSettings sends every line when nothing else is said.
   */
  @Test
  void aNodeCutOffShowsSdmsLineOnTheConsoleAndPekkosLinesInTheRunsLogFile(@TempDir Path home)
      throws Exception {
    ByteArrayOutputStream shown = new ByteArrayOutputStream();
    PrintStream console = new PrintStream(shown, true, StandardCharsets.UTF_8);
    PrintStream stderr = System.err;
    System.setErr(console);
    try {
      LibraryLog.toFile(home, console);
      int size = 8;
      int port = session.startMaster(size, WAIT);
      TestProbe<SessionEvent> events = session.events();
      relayed(agent(port, "0-3", size), console);
      Process second = agent(port, "4-7", size);
      relayed(second, console);
      assertEquals(
          RankSet.empty(), events.expectMessageClass(SessionEvent.TreeReady.class, WAIT).missing());
      session.call(LOAD, RankSet.all(size));

      second.destroyForcibly();
      TextRenderer screen = new TextRenderer(console);
      RankSet lost = RankSet.empty();
      while (!lost.equals(RankSet.range(4, 8))) {
        SessionEvent.RanksLost e = events.expectMessageClass(SessionEvent.RanksLost.class, WAIT);
        screen.event(new RankReply(e.ranks(), e.body()));
        lost = lost.union(e.ranks());
      }
      Path logs = home.resolve("logs");
      String logged = awaitLogged(logs, shown, "UNREACHABLE", "irrecoverably failed", "[agent] ");

      List<String> lines = shown.toString(StandardCharsets.UTF_8).lines().toList();
      String lostLine = "[4-7] error: rank lost: the server of their node at 127.0.0.1 stopped";
      assertTrue(
          lines.stream().anyMatch(l -> l.startsWith(lostLine)),
          "sdm's line is on the console:\n" + shown);
      Path file;
      try (var files = Files.list(logs)) {
        file = files.findFirst().orElseThrow();
      }
      // Besides sdm's own lines (the console's, and those of sdm's loggers: "i.s.m.Rendezvous"),
      // the path of the log file, once.
      assertEquals(
          List.of(
              "sdm: library logs of this run (Pekko, Aeron) are in "
                  + file
                  + " (--verbose shows them here)"),
          lines.stream()
              .filter(l -> !l.startsWith(lostLine) && !l.matches("\\S+ WARN  i\\.s\\..*"))
              .toList(),
          "nothing but sdm's own lines on the console; the log file holds:\n" + logged);
      assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(logs)));
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    } finally {
      System.setErr(stderr);
      asConfigured();
    }
  }

  /** An agent over tls-tcp whose output the test reads. */
  private Process agent(int port, String ranks, int size) throws Exception {
    return session.agent(
        port,
        ranks,
        size,
        session.secret(),
        ClusterSettings.Transport.TLS_TCP,
        session.keystore().base64(),
        ProcessBuilder.Redirect.PIPE);
  }

  /** Shows what {@code agent} says on {@code console}, as a session shows its agents' lines. */
  private static void relayed(Process agent, PrintStream console) {
    Thread t =
        new Thread(
            () -> {
              try (var in =
                  new java.io.BufferedReader(
                      new java.io.InputStreamReader(
                          agent.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                  LibraryLog.agentLine("agent", line)
                      .ifPresent(shown -> console.println("[agent] " + shown));
                }
              } catch (java.io.IOException e) {
                // The agent is gone.
              }
            },
            "relay-agent");
    t.setDaemon(true);
    t.start();
  }

  /**
   * The text of the one log file in {@code logs} once it holds every one of {@code needles}, within
   * {@link #WAIT}; else fails, quoting the {@code console}.
   */
  private static String awaitLogged(Path logs, ByteArrayOutputStream console, String... needles)
      throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    String text = "";
    while (System.nanoTime() < deadline) {
      if (Files.isDirectory(logs)) {
        try (var files = Files.list(logs)) {
          List<Path> all = files.toList();
          text = all.size() == 1 ? Files.readString(all.get(0)) : "";
        }
        String t = text;
        if (java.util.Arrays.stream(needles).allMatch(t::contains)) {
          return text;
        }
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
    throw new AssertionError(
        "the log file never held "
            + List.of(needles)
            + ":\n"
            + text
            + "\nthe console holds:\n"
            + console.toString(StandardCharsets.UTF_8));
  }

  /** Logback as its configuration on the class path says, as before the test. */
  private static void asConfigured() throws Exception {
    var context = (ch.qos.logback.classic.LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    new ch.qos.logback.classic.util.ContextInitializer(context).autoConfig();
  }
}

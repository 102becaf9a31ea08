package io.sdmfabric.multijvm;

import static io.sdmfabric.multijvm.LoopbackSession.LOAD;
import static io.sdmfabric.multijvm.LoopbackSession.WAIT;
import static io.sdmfabric.multijvm.LoopbackSession.evaluate;
import static io.sdmfabric.multijvm.LoopbackSession.valueRanks;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.master.SessionEvent;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.runtime.SessionKeystore;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.SessionSecret;
import io.sdmfabric.wire.proto.EventBody;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Who gets into a session's tree: agents without the session's secret or, over tls-tcp, its
 * keystore stay out while the session goes on with the ranks present, and directories planted where
 * Aeron's used to be neither lose the user's files nor keep a session from starting.
 */
@Tag("jvms")
class AdmissionTest {
  /**
   * The wire-up timeout of the wrong-secret test: the good agent must register before it, and every
   * second of it is a second the test waits. Two agent JVMs starting at once took 8-10 s to join on
   * 2 cores (FACTS.md). Measured on 2026-11-27 on this 2-core machine, from the master's start to
   * the good agent's registration: 4.3 s with the test classes in two JVMs side by side and load
   * 2-7, but 5.3 s (load 25, the classes one after the other) and 16.1 s (load 30, side by side)
   * while six other builds ran. Not shortened: 3x the first would be 13 s, less than the last.
   */
  private static final Duration WIRE_UP_PLAIN = Duration.ofSeconds(25);

  /**
   * As {@link #WIRE_UP_PLAIN}, with room for the TLS handshakes of the agent that belongs. Measured
   * as there: 7.4 s (load 2-7, side by side), 21.9 s (load 25, one after the other) and 15.6 s
   * (load 30, side by side). Not shortened: 30 s is 4x the first but only 1.4x the second.
   */
  private static final Duration WIRE_UP_TLS = Duration.ofSeconds(30);

  @RegisterExtension final LoopbackSession session = new LoopbackSession();

  @Test
  void aWrongSecretIsRefusedAndAfterTheWireUpTimeoutTheSessionGoesOnWithTheRanksPresent()
      throws Exception {
    int size = 8;
    // Plain tcp, so that the stranger reaches the rendezvous: over tls-tcp it could not even open
    // the session's keystore, and over aeron-udp its messages would not open.
    ClusterSettings.Transport plain = ClusterSettings.Transport.INSECURE_TCP;
    int port = session.startMaster(size, WIRE_UP_PLAIN, plain);
    // An agent that does not know the secret is refused: its ranks stay missing.
    session.agent(port, "4-7", size, SessionSecret.random(), plain);
    session.agent(port, "0-3", size, session.secret(), plain);
    assertEquals(
        RankSet.range(4, 8),
        session.events().expectMessageClass(SessionEvent.TreeReady.class, WAIT).missing());
    session.call(LOAD, RankSet.all(size));
    assertTheRanksPresentAnswerAndTheMissingOnesSayWhy(
        session.call(evaluate("x"), RankSet.all(size)));
  }

  @Test
  void overTlsAnAgentWithAnotherKeystoreCannotJoinAndAfterTheWireUpTimeoutTheSessionGoesOn()
      throws Exception {
    int size = 8;
    // The outsider knows the secret (its registration proof would pass, and the keystore opens
    // with the secret's password), but its key pair is another session's: only TLS keeps it out.
    String another;
    try (SessionKeystore other = SessionKeystore.generate(session.secret())) {
      another = other.base64();
    }
    int port = session.startMaster(size, WIRE_UP_TLS, ClusterSettings.Transport.TLS_TCP);
    Path log = session.logs().resolve("agent-4-7-another-keystore.log");
    Process outsider =
        session.agent(
            port,
            "4-7",
            size,
            session.secret(),
            ClusterSettings.Transport.TLS_TCP,
            another,
            ProcessBuilder.Redirect.to(log.toFile()));
    session.agent(port, "0-3", size);
    assertEquals(
        RankSet.range(4, 8),
        session.events().expectMessageClass(SessionEvent.TreeReady.class, WAIT).missing());
    // Refused by the handshake, not broken: it tried, and it is still trying to join.
    session
        .events()
        .awaitAssert(
            WAIT,
            () -> {
              assertTrue(
                  Files.readString(log).contains("SSLHandshakeException"), "no handshake yet");
              return null;
            });
    assertTrue(outsider.isAlive());
    // The master and the agent that belongs, no one else.
    assertEquals(2, session.members().size());
    session.call(LOAD, RankSet.all(size));
    assertTheRanksPresentAnswerAndTheMissingOnesSayWhy(
        session.call(evaluate("x"), RankSet.all(size)));
  }

  /** Ranks 0-3 answer x; one stand-in answers for ranks 4-7, which never registered. */
  private static void assertTheRanksPresentAnswerAndTheMissingOnesSayWhy(
      Map<EventBody, RankSet> x) {
    assertEquals(RankSet.range(0, 4), valueRanks(x));
    // One stand-in answers for the ranks that never registered, with one error for them all.
    String missing = "the rank did not register with the master before the wire-up timeout";
    assertEquals(RankSet.range(4, 8), x.get(EventBodies.error(missing)), x.toString());
  }

  /**
   * Another local user pre-plants directories, each holding links to the user's files, at the old
   * predictable names of Aeron's directories (/dev/shm/sdm-aeron-PID, this JVM's and those of the
   * next few hundred processes, so the agent's): Aeron deleted such a directory following the links
   * (issue 25, item 2). Now a session over aeron-udp starts, deletes nothing of them, and when it
   * ends neither the master nor the agent (stopped with SIGTERM) leaves a directory behind.
   */
  @Test
  void plantedAeronDirectoriesDeleteNothingAndNoJvmLeavesItsOwnBehind() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        System.getProperty("user.name").equals("root"), "needs root to plant as another user");
    Path victim = Files.createTempDirectory(session.logs(), "victim-").toAbsolutePath();
    Files.writeString(victim.resolve("precious"), "the user's file");
    long last = Long.parseLong(Files.readString(Path.of("/proc/sys/kernel/ns_last_pid")).trim());
    List<Path> planted = new ArrayList<>();
    try {
      java.util.stream.LongStream.concat(
              java.util.stream.LongStream.of(ProcessHandle.current().pid()),
              java.util.stream.LongStream.rangeClosed(last + 1, last + 400))
          .mapToObj(pid -> Path.of("/dev/shm/sdm-aeron-" + pid))
          .filter(dir -> !Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS))
          .forEach(planted::add);
      for (Path dir : planted) {
        Files.createDirectory(dir);
        Files.createSymbolicLink(dir.resolve("link"), victim);
      }
      List<String> chown = new ArrayList<>(List.of("chown", "-h", "nobody"));
      for (Path dir : planted) {
        chown.add(dir.toString());
        chown.add(dir.resolve("link").toString());
      }
      assertEquals(0, new ProcessBuilder(chown).inheritIO().start().waitFor());

      int size = 2;
      ClusterSettings.Transport aeron = ClusterSettings.Transport.AERON_UDP;
      int port = session.startMaster(size, WAIT, aeron);
      Process agent = session.agent(port, "0-1", size, session.secret(), aeron);
      session.events().expectMessageClass(SessionEvent.TreeReady.class, WAIT);
      session.call(LOAD, RankSet.all(size));
      assertEquals(size, session.call(evaluate("rank"), RankSet.all(size)).size());

      agent.destroy();
      assertTrue(agent.waitFor(60, TimeUnit.SECONDS), "the agent did not end at SIGTERM");
      session.stopMaster();
      for (long pid : new long[] {agent.pid(), ProcessHandle.current().pid()}) {
        try (var left =
            Files.newDirectoryStream(ClusterSettings.aeronParent(), "aeron-" + pid + "-*")) {
          assertFalse(left.iterator().hasNext(), "process " + pid + " left its Aeron directory");
        }
      }
      assertTrue(Files.exists(victim.resolve("precious")), "the user's file was deleted");
      for (Path dir : planted) {
        assertTrue(Files.isSymbolicLink(dir.resolve("link")), dir + " was emptied");
      }
    } finally {
      for (Path dir : planted) {
        Files.deleteIfExists(dir.resolve("link"));
        Files.deleteIfExists(dir);
      }
    }
  }
}

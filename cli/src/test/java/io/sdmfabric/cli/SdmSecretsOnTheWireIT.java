package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sdmfabric.wire.SessionSecret;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.interfaces.ECPrivateKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The session's secret and keystore never cross the network between nodes (issue #25, item 1): a
 * packet capture of the test bed's network, on every link between the login and the nodes (and so
 * between two nodes), taken while a session of two nodes starts under mpirun and under srun (and
 * over aeron-udp, whose seal is keyed by the secret), holds neither the secret (in hex or raw), nor
 * the keystore's bytes (raw or base64), nor its private key. The capture itself is checked to have
 * seen the launch: the path of the session's key directory, which the agents' command line carries,
 * is in it. And with {@code --secrets-in-clear} the secret is there, as the option warns.
 */
@Tag("gdb")
@Tag("mpi")
@Tag("slurm")
@Tag("namespaces")
class SdmSecretsOnTheWireIT extends OnTheTestNodes {
  /** Long enough that a match is no accident; every window of the keystore of this size counts. */
  private static final int WINDOW = 24;

  @BeforeAll
  static void needsTcpdump() {
    assumeTrue(
        Sdm.works("tcpdump", "--version"),
        "tcpdump is not installed (dev/test installs it as root with apt-get)");
  }

  @ParameterizedTest
  @CsvSource({"mpirun,tls-tcp", "srun,tls-tcp", "mpirun,aeron-udp"})
  void neitherTheSecretNorTheKeystoreCrossesTheNetwork(String launcher, String transport)
      throws Exception {
    Captured c = captureASession(launcher, transport, false);
    assertTrue(
        c.contains(c.keyDirectory.toString().getBytes(StandardCharsets.US_ASCII)),
        "the capture saw the agents' launch (their command line names the key directory)");
    assertFalse(c.contains(c.secretHex.getBytes(StandardCharsets.US_ASCII)), "the secret in hex");
    assertFalse(c.contains(HexFormat.of().parseHex(c.secretHex)), "the secret's bytes");
    if (c.keystore.length == 0) {
      return; // no keystore over aeron-udp
    }
    assertFalse(c.contains(c.privateKey), "the session's private key");
    assertFalse(
        c.contains(HexFormat.of().formatHex(c.privateKey).getBytes(StandardCharsets.US_ASCII)),
        "the session's private key in hex");
    assertFalse(
        c.contains(
            Base64.getEncoder()
                .encodeToString(java.util.Arrays.copyOf(c.keystore, 48))
                .getBytes(StandardCharsets.US_ASCII)),
        "the keystore in base64");
    assertEquals(-1, c.firstWindowOf(c.keystore), "a piece of the keystore's bytes");
  }

  @Test
  void withSecretsInClearTheSecretIsOnTheNetworkAsTheWarningSays() throws Exception {
    Captured c = captureASession("mpirun", "tls-tcp", true);
    assertTrue(c.contains(c.secretHex.getBytes(StandardCharsets.US_ASCII)), "the secret in hex");
  }

  /** What a capture of the test bed's network saw during a session, and the session's keys. */
  private record Captured(
      byte[] bytes, Path keyDirectory, String secretHex, byte[] keystore, byte[] privateKey) {
    boolean contains(byte[] needle) {
      return indexOf(bytes, needle) >= 0;
    }

    /** Where in the capture a piece of {@code WINDOW} bytes of {@code data} is, or -1. */
    int firstWindowOf(byte[] data) {
      Set<ByteBuffer> windows = new HashSet<>();
      for (int i = 0; i + WINDOW <= data.length; i++) {
        windows.add(ByteBuffer.wrap(data, i, WINDOW).slice());
      }
      for (int i = 0; i + WINDOW <= bytes.length; i++) {
        if (windows.contains(ByteBuffer.wrap(bytes, i, WINDOW).slice())) {
          return i;
        }
      }
      return -1;
    }
  }

  /**
   * Captures the test bed's network while a session of 4 ranks on 2 nodes starts under {@code
   * launcher}, stops at a breakpoint and ends; reads the session's keys from its key directory
   * meanwhile.
   */
  private static Captured captureASession(String launcher, String transport, boolean inClear)
      throws Exception {
    Path pcap = Files.createTempFile(Path.of("target"), "nodes-", ".pcap");
    Process tcpdump =
        // Every interface of the login, the host ends of the nodes' links included, where the
        // traffic between two nodes passes too (the bridge's own interface sees only what is for
        // the login), filtered to the test bed's network.
        new ProcessBuilder(
                "tcpdump",
                "-i",
                "any",
                "-s",
                "0",
                "-U",
                "-n",
                "-w",
                pcap.toString(),
                "net",
                System.getenv("SDM_NODES_NET"))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectErrorStream(false)
            .start();
    try {
      awaitListening(tcpdump);
      // A home of its own: other IT classes' sessions, side by side, have key directories too.
      Path home = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "sdm-home-");
      Set<Path> before = keyDirectories(home);
      List<String> args =
          new ArrayList<>(List.of("debug", "--launcher", launcher, "--transport", transport));
      if (inClear) {
        args.add("--secrets-in-clear");
      }
      args.addAll(SdmNodesIT.twoRanksPerNode(launcher, 2));
      args.addAll(List.of("--", Sdm.mpiExample("mpi_reduce").toString()));
      Path dir;
      String secret;
      byte[] keystore;
      try (SdmConsole sdm =
          SdmConsole.start(
              Map.of(
                  "SLURM_CONF", System.getenv("SDM_NODES_SLURM_CONF"), "SDM_HOME", home.toString()),
              args)) {
        sdm.type("break combine");
        sdm.type("run");
        int at = sdm.await("[0-3] stopped: breakpoint 1 in combine", 0, Duration.ofMinutes(2));
        sdm.type("print mine");
        sdm.await("[3] mine = 4", at, Duration.ofSeconds(30));
        Set<Path> now = keyDirectories(home);
        now.removeAll(before);
        assertEquals(1, now.size(), "one new key directory in sdm's home: " + now);
        dir = now.iterator().next();
        secret = Files.readString(dir.resolve("secret")).strip();
        Path p12 = dir.resolve("session.p12");
        keystore = Files.exists(p12) ? Files.readAllBytes(p12) : new byte[0];
        sdm.type("quit");
        assertEquals(0, sdm.finish(Duration.ofSeconds(60)), sdm.toString());
      }
      assertFalse(Files.exists(dir), "the session deleted its key directory at its end");
      stop(tcpdump);
      return new Captured(
          Files.readAllBytes(pcap),
          dir,
          secret,
          keystore,
          keystore.length == 0 ? new byte[0] : privateKey(keystore, secret));
    } finally {
      tcpdump.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      Files.deleteIfExists(pcap);
    }
  }

  /** Waits until tcpdump says it listens (it captures nothing before). */
  private static void awaitListening(Process tcpdump) throws IOException {
    StringBuilder said = new StringBuilder();
    for (int b; (b = tcpdump.getErrorStream().read()) >= 0; ) {
      said.append((char) b);
      if (said.indexOf("listening on") >= 0 && b == '\n') {
        return;
      }
    }
    throw new AssertionError("tcpdump ended: " + said);
  }

  /** Ends tcpdump as a user would (SIGTERM), which writes out what it holds. */
  private static void stop(Process tcpdump) throws InterruptedException {
    tcpdump.destroy();
    assertTrue(tcpdump.waitFor(20, TimeUnit.SECONDS), "tcpdump ends at SIGTERM");
  }

  /** The session key directories in sdm's home {@code home}. */
  private static Set<Path> keyDirectories(Path home) throws IOException {
    Path sessions = home.resolve("sessions");
    if (!Files.isDirectory(sessions)) {
      return new HashSet<>();
    }
    try (Stream<Path> list = Files.list(sessions)) {
      return new HashSet<>(list.toList());
    }
  }

  /** The session's private key, the scalar that the keystore protects. */
  private static byte[] privateKey(byte[] keystore, String secretHex) throws Exception {
    char[] password = SessionSecret.fromHex(secretHex).keystorePassword().toCharArray();
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(new ByteArrayInputStream(keystore), password);
    String alias = store.aliases().nextElement();
    byte[] s = ((ECPrivateKey) store.getKey(alias, password)).getS().toByteArray();
    // BigInteger's bytes may start with a sign byte; the key's own are the last 32.
    return java.util.Arrays.copyOfRange(s, Math.max(0, s.length - 32), s.length);
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}

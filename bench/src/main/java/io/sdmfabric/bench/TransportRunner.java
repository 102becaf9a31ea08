package io.sdmfabric.bench;

import io.sdmfabric.master.Session;
import io.sdmfabric.master.SessionEvent;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.runtime.DistributedMaster;
import io.sdmfabric.runtime.SessionKeystore;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.SessionSecret;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.ExpressionCmd;
import io.sdmfabric.wire.proto.StartSessionCmd;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.TrustManagerFactory;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;

/**
 * What each Artery transport costs a distributed session: a master in this JVM and one agent JVM
 * ({@code AgentCommand}, from this class path) serving N simulated ranks (default 4) on loopback,
 * one line per transport and repetition:
 *
 * <pre>
 * transport=T ranks=N rep=I keystore_ms=.. agent_ready_ms=.. rtt_p50_ms=.. rtt_p99_ms=..
 * </pre>
 *
 * keystore = generating the session's keystore with keytool (tls-tcp only); agent ready = from
 * starting the agent's JVM to the master's {@code TreeReady} (JVM start, cluster join with its
 * handshakes, registration, wiring); rtt = {@code print x} to the N ranks, one at a time, from
 * {@code Submit} to {@code Completed}, after as many warm-up rounds. Run with {@code bench/run
 * transports [--ranks N,..] [--reps R]} (R round trips and R in-memory TLS handshakes, default
 * 500): it repeats each transport 3 times, interleaved, so that a noisy moment does not land on one
 * transport.
 */
public final class TransportRunner {
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final int ROUNDS = 3;

  private TransportRunner() {}

  /** Runs the table; exits with status 1 on a failure, whatever threads a session left. */
  public static void main(String[] args) throws Exception {
    RunnerOptions options = RunnerOptions.parse(args, List.of(4), 500);
    try {
      handshakes(options.reps());
      for (int size : options.sizes()) {
        for (int rep = 1; rep <= ROUNDS; rep++) {
          for (ClusterSettings.Transport t : ClusterSettings.Transport.values()) {
            run(t, size, rep, options.reps());
          }
        }
      }
    } catch (Exception e) {
      e.printStackTrace();
      System.exit(1);
    }
  }

  private static void run(ClusterSettings.Transport transport, int size, int rep, int rounds)
      throws Exception {
    SessionSecret secret = SessionSecret.random();
    SessionKeystore keystore = null;
    double keystoreMs = 0;
    if (transport == ClusterSettings.Transport.TLS_TCP) {
      long t = System.nanoTime();
      keystore = SessionKeystore.generate(secret);
      keystoreMs = (System.nanoTime() - t) / 1e6;
    }
    ActorSystem<Session.Command> master =
        ActorSystem.create(
            Session.distributed(size, FabricConfig.defaults(), WAIT, secret),
            ClusterSettings.SYSTEM,
            keystore != null
                ? ClusterSettings.at("127.0.0.1", 0, keystore)
                : ClusterSettings.at("127.0.0.1", 0, transport, secret));
    Process agent = null;
    try {
      Cluster cluster = Cluster.get(master);
      cluster.manager().tell(Join.create(cluster.selfMember().address()));
      int port = (Integer) cluster.selfMember().address().port().get();
      BlockingQueue<SessionEvent> events = new LinkedBlockingQueue<>();
      master.tell(new Session.Subscribe(sink(master, "bench-events", events)));
      BlockingQueue<SessionEvent> replies = new LinkedBlockingQueue<>();
      ActorRef<SessionEvent> replyTo = sink(master, "bench-replies", replies);

      ProcessBuilder builder =
          new ProcessBuilder(
              DistributedMaster.agentCommand(
                  List.of(),
                  "127.0.0.1:" + port,
                  size,
                  transport,
                  List.of("--simulated", "0-" + (size - 1))));
      builder.environment().put(SessionSecret.ENV, secret.hex());
      if (keystore != null) {
        builder.environment().put(SessionKeystore.ENV, keystore.base64());
      }
      long start = System.nanoTime();
      agent =
          builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      SessionEvent.TreeReady ready = next(events, SessionEvent.TreeReady.class);
      double readyMs = (System.nanoTime() - start) / 1e6;
      if (!ready.missing().isEmpty()) {
        throw new IllegalStateException("ranks missing: " + ready.missing());
      }
      RankSet all = RankSet.all(size);
      call(master, replyTo, replies, all, load());
      CommandBody x =
          CommandBody.newBuilder()
              .setEvaluate(ExpressionCmd.newBuilder().setExpression("x"))
              .build();
      for (int i = 0; i < rounds; i++) {
        call(master, replyTo, replies, all, x);
      }
      double[] ms = new double[rounds];
      for (int i = 0; i < rounds; i++) {
        long t = System.nanoTime();
        call(master, replyTo, replies, all, x);
        ms[i] = (System.nanoTime() - t) / 1e6;
      }
      Arrays.sort(ms);
      System.out.printf(
          Locale.ROOT,
          "transport=%s ranks=%d rep=%d keystore_ms=%.0f agent_ready_ms=%.0f rtt_p50_ms=%.3f"
              + " rtt_p99_ms=%.3f%n",
          transport.option(),
          size,
          rep,
          keystoreMs,
          readyMs,
          RunnerOptions.percentile(ms, 50),
          RunnerOptions.percentile(ms, 99));
    } finally {
      if (agent != null) {
        agent.destroy();
        if (!agent.waitFor(20, TimeUnit.SECONDS)) {
          agent.destroyForcibly().waitFor();
        }
        ClusterSettings.removeAeronDirectoriesOf(agent.pid());
      }
      master.terminate();
      master.getWhenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
      ClusterSettings.removeAeronDirectoriesOf(ProcessHandle.current().pid());
      if (keystore != null) {
        keystore.close();
      }
    }
  }

  /**
   * The TLS handshake alone, in this JVM, between two engines set up as Artery's
   * ConfigSSLEngineProvider sets them up (the session's keystore as key and trust store, TLSv1.3,
   * client authentication required), bytes passed in memory:
   *
   * <pre>
   * tls negotiated=PROTOCOL/CIPHER context_ms=.. first_handshake_ms=.. handshake_p50_ms=.. handshake_p99_ms=..
   * </pre>
   *
   * context = loading the keystore twice and building the SSLContext; first = the first handshake
   * (cold code), with the protocol and cipher suite it negotiated; p50/p99 over {@code reps} more
   * handshakes.
   */
  private static void handshakes(int reps) throws Exception {
    SessionSecret secret = SessionSecret.random();
    try (SessionKeystore keystore = SessionKeystore.generate(secret)) {
      long t = System.nanoTime();
      char[] password = secret.keystorePassword().toCharArray();
      KeyStore store = KeyStore.getInstance("PKCS12");
      try (var in = Files.newInputStream(keystore.path())) {
        store.load(in, password);
      }
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, password);
      KeyStore trusted = KeyStore.getInstance("PKCS12");
      try (var in = Files.newInputStream(keystore.path())) {
        trusted.load(in, password);
      }
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(trusted);
      SSLContext context = SSLContext.getInstance("TLSv1.3");
      context.init(keys.getKeyManagers(), trust.getTrustManagers(), new SecureRandom());
      double contextMs = (System.nanoTime() - t) / 1e6;
      Handshake first = handshake(context);
      double[] ms = new double[reps];
      for (int i = 0; i < reps; i++) {
        ms[i] = handshake(context).ms();
      }
      Arrays.sort(ms);
      System.out.printf(
          Locale.ROOT,
          "tls negotiated=%s/%s context_ms=%.1f first_handshake_ms=%.1f handshake_p50_ms=%.2f"
              + " handshake_p99_ms=%.2f%n",
          first.protocol(),
          first.cipher(),
          contextMs,
          first.ms(),
          RunnerOptions.percentile(ms, 50),
          RunnerOptions.percentile(ms, 99));
    }
  }

  private record Handshake(double ms, String protocol, String cipher) {}

  /** One full handshake between a new client and a new server engine. */
  private static Handshake handshake(SSLContext context) throws Exception {
    long t = System.nanoTime();
    SSLEngine client = context.createSSLEngine("127.0.0.1", 1);
    client.setUseClientMode(true);
    SSLEngine server = context.createSSLEngine("127.0.0.1", 2);
    server.setUseClientMode(false);
    server.setNeedClientAuth(true);
    for (SSLEngine e : List.of(client, server)) {
      e.setEnabledProtocols(new String[] {"TLSv1.3"});
      e.setEnabledCipherSuites(new String[] {"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384"});
    }
    int size = 1 << 17;
    ByteBuffer toServer = ByteBuffer.allocate(size);
    ByteBuffer toClient = ByteBuffer.allocate(size);
    ByteBuffer sink = ByteBuffer.allocate(size);
    ByteBuffer empty = ByteBuffer.allocate(0);
    client.beginHandshake();
    server.beginHandshake();
    for (int step = 0; step < 1000; step++) {
      if (done(client) && done(server)) {
        double ms = (System.nanoTime() - t) / 1e6;
        return new Handshake(
            ms, client.getSession().getProtocol(), client.getSession().getCipherSuite());
      }
      pump(client, empty, toServer, toClient, sink);
      pump(server, empty, toClient, toServer, sink);
    }
    throw new IllegalStateException("the handshake did not finish");
  }

  private static boolean done(SSLEngine engine) {
    SSLEngineResult.HandshakeStatus s = engine.getHandshakeStatus();
    return s == SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING
        || s == SSLEngineResult.HandshakeStatus.FINISHED;
  }

  /** Lets {@code engine} read what its peer wrote to {@code in} and write to {@code out}. */
  private static void pump(
      SSLEngine engine, ByteBuffer empty, ByteBuffer out, ByteBuffer in, ByteBuffer sink)
      throws Exception {
    in.flip();
    while (in.hasRemaining()) {
      SSLEngineResult r = engine.unwrap(in, sink);
      runTasks(engine);
      if (r.getStatus() != SSLEngineResult.Status.OK || r.bytesConsumed() == 0) {
        break;
      }
    }
    in.compact();
    sink.clear();
    while (engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_WRAP) {
      engine.wrap(empty, out);
      runTasks(engine);
    }
  }

  private static void runTasks(SSLEngine engine) {
    for (Runnable task = engine.getDelegatedTask();
        task != null;
        task = engine.getDelegatedTask()) {
      task.run();
    }
  }

  private static CommandBody load() {
    return CommandBody.newBuilder()
        .setStartSession(
            StartSessionCmd.newBuilder().setLaunch(Protos.toProto(LaunchSpec.of("/bin/sim"))))
        .build();
  }

  /** An actor that puts what it receives in {@code queue}. */
  private static ActorRef<SessionEvent> sink(
      ActorSystem<?> system, String name, BlockingQueue<SessionEvent> queue) {
    return system.systemActorOf(
        Behaviors.receiveMessage(
            e -> {
              queue.add(e);
              return Behaviors.same();
            }),
        name,
        Props.empty());
  }

  /** Submits {@code body} to every rank and waits for its completion. */
  private static void call(
      ActorSystem<Session.Command> master,
      ActorRef<SessionEvent> replyTo,
      BlockingQueue<SessionEvent> replies,
      RankSet dest,
      CommandBody body)
      throws InterruptedException {
    master.tell(new Session.Submit(body, dest, Duration.ZERO, replyTo));
    next(replies, SessionEvent.Completed.class);
  }

  private static <T extends SessionEvent> T next(BlockingQueue<SessionEvent> queue, Class<T> type)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      SessionEvent e = queue.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (e == null) {
        throw new IllegalStateException("no " + type.getSimpleName() + " within " + WAIT);
      }
      if (e instanceof SessionEvent.Rejected r) {
        throw new IllegalStateException("rejected: " + r.reason());
      }
      if (type.isInstance(e)) {
        return type.cast(e);
      }
    }
  }

  private static void deleteRecursively(Path dir) throws java.io.IOException {
    if (Files.exists(dir)) {
      List<Path> paths = new ArrayList<>();
      try (var walk = Files.walk(dir)) {
        walk.forEach(paths::add);
      }
      paths.sort(Comparator.reverseOrder());
      for (Path p : paths) {
        Files.deleteIfExists(p);
      }
    }
  }
}

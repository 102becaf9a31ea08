package io.sdmfabric.master;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.SessionSecret;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How an agent proves to the {@link Rendezvous} that it knows the session's secret: the rendezvous
 * gives each agent that knocks a fresh challenge ({@link #challenge}), and each of the agent's
 * registrations carries {@link #of}, an HMAC under the secret of that challenge, the agent, a
 * counter and what it registers. {@link #verify} takes a registration only once, in the agent's
 * count, so that a recorded registration is good neither later nor for another node or other ranks.
 * Used in the rendezvous's actor only.
 */
public final class RegistrationProof {

  /** The length of a challenge. */
  public static final int NONCE_BYTES = 32;

  /** How many agents may hold a challenge at once; more knocks are refused. */
  private static final int MAX_CHALLENGES = 1 << 16;

  private static final SecureRandom RANDOM = new SecureRandom();

  /** What the rendezvous gave an agent to prove with, and how far its registrations counted. */
  private static final class Issued {
    final byte[] nonce;
    long counter;

    Issued(byte[] nonce) {
      this.nonce = nonce;
    }
  }

  private final SessionSecret secret;
  private final Map<String, Issued> challenges = new HashMap<>();

  /** Challenges and checks proofs under {@code secret}. */
  public RegistrationProof(SessionSecret secret) {
    this.secret = secret;
  }

  /**
   * The challenge of {@code agent}: a fresh one at its first knock, the same one at every knock
   * after; empty when {@value #MAX_CHALLENGES} other agents hold one already. An agent knocks until
   * a challenge reaches it, and proves with the first that does: a fresh one for each knock would
   * replace the one it proves with whenever two knocks were answered (a master slow to answer under
   * load), and refuse the agent for good. Its count ({@link #verify}) is what keeps a registration
   * from being good twice.
   */
  public Optional<byte[]> challenge(String agent) {
    Issued held = challenges.get(agent);
    if (held != null) {
      return Optional.of(held.nonce.clone());
    }
    if (challenges.size() >= MAX_CHALLENGES) {
      return Optional.empty();
    }
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    challenges.put(agent, new Issued(nonce));
    return Optional.of(nonce.clone());
  }

  /** The most challenges held at once. */
  public static int maxChallenges() {
    return MAX_CHALLENGES;
  }

  /**
   * Whether {@code proof} proves a registration of {@code agent}, newer in its count than any taken
   * before, under the agent's challenge; a good one moves the agent's count on to {@code counter}.
   *
   * @param node the agent's server node's serialized reference
   */
  public boolean verify(String agent, long counter, String node, RankSet ranks, byte[] proof) {
    Issued issued = challenges.get(agent);
    if (issued == null
        || counter <= issued.counter
        || !MessageDigest.isEqual(of(secret, issued.nonce, agent, counter, node, ranks), proof)) {
      return false;
    }
    issued.counter = counter;
    return true;
  }

  /**
   * The proof of a registration: HMAC-SHA256 under the session secret of {@code
   * "sdm-agent-register/2" 0x00 NONCE AGENT 0x00 COUNTER (8 bytes) NODE 0x00 RANKS}, where NODE is
   * the agent's server node's serialized reference and RANKS the ranks' portable Roaring form. It
   * binds the registration to the rendezvous's challenge, the agent, its place in the agent's
   * count, its node and its ranks, so none can be reused, replayed or changed.
   */
  public static byte[] of(
      SessionSecret secret, byte[] nonce, String agent, long counter, String node, RankSet ranks) {
    ByteArrayOutputStream m = new ByteArrayOutputStream();
    m.writeBytes("sdm-agent-register/2".getBytes(StandardCharsets.UTF_8));
    m.write(0);
    m.writeBytes(nonce);
    m.writeBytes(agent.getBytes(StandardCharsets.UTF_8));
    m.write(0);
    m.writeBytes(ByteBuffer.allocate(8).putLong(counter).array());
    m.writeBytes(node.getBytes(StandardCharsets.UTF_8));
    m.write(0);
    m.writeBytes(ranks.toBytes());
    return secret.mac(m.toByteArray());
  }
}

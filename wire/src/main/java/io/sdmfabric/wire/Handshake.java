package io.sdmfabric.wire;

import com.google.protobuf.ByteString;
import io.sdmfabric.wire.proto.Authenticated;
import io.sdmfabric.wire.proto.Challenge;
import io.sdmfabric.wire.proto.Frame;
import io.sdmfabric.wire.proto.Hello;
import io.sdmfabric.wire.proto.Proof;
import io.sdmfabric.wire.proto.Role;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * The front-end protocol's mutual authentication: both sides prove that they know the session's
 * secret without sending it, whoever opened the connection (in a reverse connect the master dials
 * the front-end). The side that accepted the connection proves first, so a dialer learns nothing
 * from a side that cannot prove; each proof is an HMAC-SHA256 under the secret of the whole
 * exchange (both nonces, the session id, and the fingerprints of both TLS certificates as this side
 * saw them: {@link FrameConnection#channelBinding}) and of the prover's role, so no proof can be
 * replayed on another connection or reflected back to its sender, and a man in the middle who
 * terminates TLS on each side fails. The whole handshake has one deadline: the connection's own,
 * set when it was dialed or accepted ({@link FrameConnection#dial}, {@link
 * FrameConnection#accept}), or the timeout given here, whichever passes first. docs/PROTOCOL.md has
 * the bytes.
 *
 * <p>A side that refuses the other tells it why in a {@code Refused} frame and closes the
 * connection; the refused side gets a {@link HandshakeException} saying why.
 */
public final class Handshake {
  /**
   * The protocol version this side speaks. 2: a lost rank is a body of its own ({@code lost}),
   * which a version 1 side would take for a body of no kind. 3: every connection is TLS, and the
   * proofs hold both sides' certificate fingerprints.
   */
  public static final int VERSION = 3;

  /** How long a whole handshake, TLS included, may take unless told otherwise. */
  public static final Duration TIMEOUT = Duration.ofSeconds(10);

  /** The length of each side's nonce. */
  public static final int NONCE_BYTES = 32;

  private static final SecureRandom RANDOM = new SecureRandom();

  private Handshake() {}

  /** The handshake failed; the message says why, and the connection is closed. */
  public static class HandshakeException extends IOException {
    private static final long serialVersionUID = 1L;

    HandshakeException(String message) {
      super(message);
    }
  }

  /**
   * The handshake, TLS included, did not end by its deadline (or the other side was silent past the
   * timeout of a read); the connection is closed.
   */
  public static final class DeadlineException extends HandshakeException {
    private static final long serialVersionUID = 1L;

    DeadlineException(String message) {
      super(message);
    }
  }

  /**
   * Authenticates the connection as the side that opened it, in {@code role}, for {@code session}.
   *
   * @throws IOException when the other side refuses, cannot prove the secret, or does not answer in
   *     time; the connection is then closed
   */
  public static void dial(
      FrameConnection c, Role role, String session, SessionSecret secret, Duration timeout)
      throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    byte[] binding = c.channelBinding();
    byte[] mine = nonce();
    c.write(
        Frame.newBuilder()
            .setHello(
                Hello.newBuilder()
                    .setVersion(VERSION)
                    .setRole(role)
                    .setSession(session)
                    .setNonce(ByteString.copyFrom(mine)))
            .build());
    Frame answer = expect(c, Frame.KindCase.CHALLENGE, deadline);
    Challenge challenge = answer.getChallenge();
    if (challenge.getVersion() != VERSION) {
      throw refuse(c, "protocol version " + challenge.getVersion() + " is not " + VERSION);
    }
    byte[] theirs = challenge.getNonce().toByteArray();
    byte[] expected = proof(secret, other(role), session, mine, theirs, binding);
    if (theirs.length != NONCE_BYTES
        || !MessageDigest.isEqual(expected, challenge.getProof().toByteArray())) {
      throw refuse(c, "the proof does not match: the other side does not know the session secret");
    }
    c.write(
        Frame.newBuilder()
            .setProof(
                Proof.newBuilder()
                    .setProof(
                        ByteString.copyFrom(proof(secret, role, session, mine, theirs, binding))))
            .build());
    expect(c, Frame.KindCase.AUTHENTICATED, deadline);
    c.authenticated();
  }

  /**
   * Authenticates the connection as the side that accepted it, in {@code role}; {@code secrets}
   * gives the secret of each session this side serves.
   *
   * @return the session the other side authenticated for
   * @throws IOException when the other side is refused or does not answer in time; the connection
   *     is then closed
   */
  public static String answer(
      FrameConnection c,
      Role role,
      Function<String, Optional<SessionSecret>> secrets,
      Duration timeout)
      throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    byte[] binding = c.channelBinding();
    Frame first = expect(c, Frame.KindCase.HELLO, deadline);
    Hello hello = first.getHello();
    if (hello.getVersion() != VERSION) {
      throw refuse(
          c,
          "protocol version "
              + hello.getVersion()
              + " is not supported: this side speaks "
              + VERSION);
    }
    if (hello.getRole() != other(role)) {
      throw refuse(c, "a " + name(hello.getRole()) + " cannot talk to a " + name(role));
    }
    byte[] theirs = hello.getNonce().toByteArray();
    if (theirs.length != NONCE_BYTES) {
      throw refuse(c, "a nonce of " + theirs.length + " bytes, not " + NONCE_BYTES);
    }
    String session = hello.getSession();
    Optional<SessionSecret> secret = secrets.apply(session);
    if (secret.isEmpty()) {
      throw refuse(c, "no session \"" + session + "\" here");
    }
    byte[] mine = nonce();
    c.write(
        Frame.newBuilder()
            .setChallenge(
                Challenge.newBuilder()
                    .setVersion(VERSION)
                    .setNonce(ByteString.copyFrom(mine))
                    .setProof(
                        ByteString.copyFrom(
                            proof(secret.get(), role, session, theirs, mine, binding))))
            .build());
    Frame proof = expect(c, Frame.KindCase.PROOF, deadline);
    byte[] expected = proof(secret.get(), other(role), session, theirs, mine, binding);
    if (!MessageDigest.isEqual(expected, proof.getProof().getProof().toByteArray())) {
      throw refuse(c, "the proof does not match: wrong session secret");
    }
    c.write(Frame.newBuilder().setAuthenticated(Authenticated.getDefaultInstance()).build());
    c.authenticated();
    return session;
  }

  /**
   * The proof of the side in {@code role}: HMAC-SHA256 under the secret of {@code
   * "sdm-frontend-protocol/3" 0x00 ROLE 0x00 SESSION 0x00 DIALER_NONCE ANSWERER_NONCE BINDING},
   * where ROLE is {@code master} or {@code front-end}, SESSION is UTF-8 and BINDING is {@link
   * FrameConnection#channelBinding}.
   */
  static byte[] proof(
      SessionSecret secret,
      Role role,
      String session,
      byte[] dialerNonce,
      byte[] answererNonce,
      byte[] binding) {
    ByteArrayOutputStream transcript = new ByteArrayOutputStream();
    transcript.writeBytes(("sdm-frontend-protocol/" + VERSION).getBytes(StandardCharsets.UTF_8));
    transcript.write(0);
    transcript.writeBytes(name(role).getBytes(StandardCharsets.UTF_8));
    transcript.write(0);
    transcript.writeBytes(session.getBytes(StandardCharsets.UTF_8));
    transcript.write(0);
    transcript.writeBytes(dialerNonce);
    transcript.writeBytes(answererNonce);
    transcript.writeBytes(binding);
    return secret.mac(transcript.toByteArray());
  }

  /** Reads the next frame, which must be of {@code kind}; a {@code Refused} ends the handshake. */
  private static Frame expect(FrameConnection c, Frame.KindCase kind, long deadline)
      throws IOException {
    Frame f;
    try {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new DeadlineException("the handshake did not end in time");
      }
      f = c.read(Duration.ofNanos(left));
    } catch (FrameException e) {
      throw refuse(c, e.getMessage());
    } catch (SocketTimeoutException e) {
      c.close(e.getMessage());
      throw new DeadlineException(e.getMessage());
    } catch (IOException e) {
      c.close(e.getMessage());
      throw e instanceof HandshakeException h ? h : new HandshakeException(e.getMessage());
    }
    if (f.getKindCase() == Frame.KindCase.REFUSED) {
      c.close("refused");
      throw new HandshakeException("refused by " + c.peer() + ": " + f.getRefused().getReason());
    }
    if (f.getKindCase() != kind) {
      throw refuse(c, "expected " + kind + " in the handshake, got " + f.getKindCase());
    }
    return f;
  }

  private static HandshakeException refuse(FrameConnection c, String reason) {
    c.refuse(reason);
    return new HandshakeException(reason + " (" + c.peer() + ")");
  }

  private static Role other(Role role) {
    return role == Role.ROLE_MASTER ? Role.ROLE_FRONT_END : Role.ROLE_MASTER;
  }

  private static String name(Role role) {
    return switch (role) {
      case ROLE_MASTER -> "master";
      case ROLE_FRONT_END -> "front-end";
      default -> "side of no known role";
    };
  }

  private static byte[] nonce() {
    byte[] n = new byte[NONCE_BYTES];
    RANDOM.nextBytes(n);
    return n;
  }
}

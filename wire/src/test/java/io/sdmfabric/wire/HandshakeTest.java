package io.sdmfabric.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.sdmfabric.wire.proto.Frame;
import io.sdmfabric.wire.proto.Hello;
import io.sdmfabric.wire.proto.Role;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The mutual authentication, over real loopback connections. */
class HandshakeTest {
  private static final Duration WAIT = Duration.ofSeconds(5);
  private static final SessionSecret SECRET = SessionSecret.random();

  /** Runs the answerer's side on another thread; its result is the session or its failure. */
  private static CompletableFuture<String> answer(SocketPair pair, Role role, SessionSecret secret)
      throws IOException {
    FrameConnection c = FrameConnection.plain(pair.answerer());
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return Handshake.answer(
                c, role, s -> s.equals("job-1") ? Optional.of(secret) : Optional.empty(), WAIT);
          } catch (IOException e) {
            throw new CompletionException(e);
          }
        });
  }

  private static String failure(CompletableFuture<String> f) throws Exception {
    try {
      f.get(10, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause().getMessage();
    }
    throw new AssertionError("the handshake succeeded: " + f.join());
  }

  @Test
  void aMasterThatDialsAndAFrontEndThatAnswersAuthenticateEachOther() throws Exception {
    try (SocketPair pair = SocketPair.open()) {
      CompletableFuture<String> frontEnd = answer(pair, Role.ROLE_FRONT_END, SECRET);
      Handshake.dial(FrameConnection.plain(pair.dialer()), Role.ROLE_MASTER, "job-1", SECRET, WAIT);
      assertEquals("job-1", frontEnd.get(10, TimeUnit.SECONDS));
    }
  }

  @Test
  void aFrontEndThatDialsAMasterAuthenticatesToo() throws Exception {
    try (SocketPair pair = SocketPair.open()) {
      CompletableFuture<String> master = answer(pair, Role.ROLE_MASTER, SECRET);
      Handshake.dial(
          FrameConnection.plain(pair.dialer()), Role.ROLE_FRONT_END, "job-1", SECRET, WAIT);
      assertEquals("job-1", master.get(10, TimeUnit.SECONDS));
    }
  }

  @Test
  void aDialerWithTheWrongSecretIsRefusedAndLearnsThatTheAnswererIsNotItsSession()
      throws Exception {
    try (SocketPair pair = SocketPair.open()) {
      CompletableFuture<String> frontEnd = answer(pair, Role.ROLE_FRONT_END, SECRET);
      IOException e =
          assertThrows(
              IOException.class,
              () ->
                  Handshake.dial(
                      FrameConnection.plain(pair.dialer()),
                      Role.ROLE_MASTER,
                      "job-1",
                      SessionSecret.random(),
                      WAIT));
      // The answerer proves first: the dialer with another secret finds its proof wrong.
      assertTrue(e.getMessage().contains("does not know the session secret"), e.getMessage());
      assertTrue(failure(frontEnd).contains("refused"), failure(frontEnd));
    }
  }

  @Test
  void anAnswererWithTheWrongSecretIsFoundOutByTheDialer() throws Exception {
    try (SocketPair pair = SocketPair.open()) {
      CompletableFuture<String> impostor =
          answer(pair, Role.ROLE_FRONT_END, SessionSecret.random());
      IOException e =
          assertThrows(
              IOException.class,
              () ->
                  Handshake.dial(
                      FrameConnection.plain(pair.dialer()),
                      Role.ROLE_MASTER,
                      "job-1",
                      SECRET,
                      WAIT));
      assertTrue(e.getMessage().contains("does not know the session secret"), e.getMessage());
      assertTrue(failure(impostor).contains("does not know the session secret"), failure(impostor));
    }
  }

  @Test
  void anUnknownSessionIsRefusedByName() throws Exception {
    try (SocketPair pair = SocketPair.open()) {
      CompletableFuture<String> frontEnd = answer(pair, Role.ROLE_FRONT_END, SECRET);
      IOException e =
          assertThrows(
              IOException.class,
              () ->
                  Handshake.dial(
                      FrameConnection.plain(pair.dialer()),
                      Role.ROLE_MASTER,
                      "job-2",
                      SECRET,
                      WAIT));
      assertTrue(e.getMessage().contains("no session \"job-2\" here"), e.getMessage());
      failure(frontEnd);
    }
  }

  @Test
  void twoSidesOfTheSameRoleAreRefused() throws Exception {
    try (SocketPair pair = SocketPair.open()) {
      CompletableFuture<String> master = answer(pair, Role.ROLE_MASTER, SECRET);
      IOException e =
          assertThrows(
              IOException.class,
              () ->
                  Handshake.dial(
                      FrameConnection.plain(pair.dialer()),
                      Role.ROLE_MASTER,
                      "job-1",
                      SECRET,
                      WAIT));
      assertTrue(e.getMessage().contains("a master cannot talk to a master"), e.getMessage());
      failure(master);
    }
  }

  @Test
  void garbageInsteadOfAHelloIsRefusedWithAClosedConnection() throws Exception {
    try (SocketPair pair = SocketPair.open()) {
      CompletableFuture<String> frontEnd = answer(pair, Role.ROLE_FRONT_END, SECRET);
      OutputStream out = pair.dialer().getOutputStream();
      out.write("GET / HTTP/1.1\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      out.flush();
      assertTrue(failure(frontEnd).contains("over the limit"), failure(frontEnd));
      // The refusal arrives, then the end of the connection.
      FrameConnection dialer = FrameConnection.plain(pair.dialer());
      Frame refused = dialer.read(WAIT);
      assertTrue(refused.hasRefused(), refused.toString());
      assertThrows(java.io.EOFException.class, () -> dialer.read(WAIT));
    }
  }

  @Test
  void anotherProtocolVersionIsRefusedSayingWhichThisSideSpeaks() throws Exception {
    try (SocketPair pair = SocketPair.open()) {
      CompletableFuture<String> frontEnd = answer(pair, Role.ROLE_FRONT_END, SECRET);
      FrameConnection dialer = FrameConnection.plain(pair.dialer());
      dialer.write(
          Frame.newBuilder()
              .setHello(
                  Hello.newBuilder()
                      .setVersion(Handshake.VERSION + 1)
                      .setRole(Role.ROLE_MASTER)
                      .setSession("job-1")
                      .setNonce(ByteString.copyFrom(new byte[32])))
              .build());
      assertEquals(
          "protocol version "
              + (Handshake.VERSION + 1)
              + " is not supported: this side speaks "
              + Handshake.VERSION,
          dialer.read(WAIT).getRefused().getReason());
      failure(frontEnd);
    }
  }

  @Test
  void aSilentDialerIsGivenUpOn() throws Exception {
    try (SocketPair pair = SocketPair.open()) {
      FrameConnection c = FrameConnection.plain(pair.answerer());
      IOException e =
          assertThrows(
              IOException.class,
              () ->
                  Handshake.answer(
                      c, Role.ROLE_FRONT_END, s -> Optional.of(SECRET), Duration.ofMillis(200)));
      assertTrue(e.getMessage().contains("no answer"), e.getMessage());
      assertTrue(c.isClosed());
    }
  }
}

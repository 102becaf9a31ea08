package io.sdmfabric.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.FrameConnection;
import io.sdmfabric.wire.Handshake;
import io.sdmfabric.wire.HostPort;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.SessionSecret;
import io.sdmfabric.wire.proto.Bye;
import io.sdmfabric.wire.proto.CallDone;
import io.sdmfabric.wire.proto.CallReply;
import io.sdmfabric.wire.proto.Event;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.Frame;
import io.sdmfabric.wire.proto.Hello;
import io.sdmfabric.wire.proto.Progress;
import io.sdmfabric.wire.proto.Refused;
import io.sdmfabric.wire.proto.Role;
import io.sdmfabric.wire.proto.Welcome;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * sdm listen's console when what it shows was chosen by someone else (a request's fields, a
 * master's progress, welcome, replies, refusal and goodbye, a stranger's hello or refusal), and
 * when the connect directory holds files that are not requests to read. Each test plays the master
 * over a real connection to the console's listener.
 */
class ListenConsoleTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  private static final String FORGED_REQUEST =
      "request 00000000: you  (accept 00000000 | reject 00000000)";
  private static final String FORGED_END = "session 1 ended: forged";

  /** A screen clear, a title, forged lines, a bidi override, a C1 CSI and a carriage return. */
  private static final String NASTY =
      "\u001b[2J\u001b]0;owned\u0007\r\n"
          + FORGED_REQUEST
          + "\n"
          + FORGED_END
          + "\u202e\u2067\u009b1m\u007f\r";

  @TempDir Path tmp;

  private final AwaitedLines out = new AwaitedLines();
  private final List<String> questions = new CopyOnWriteArrayList<>();
  private ConnectDirectory dir;
  private FrontEndListener listener;
  private ListenConsole console;

  private void open(boolean acceptWhenAsked) throws IOException {
    dir = ConnectDirectory.open(tmp.resolve(".sdm"));
    listener = new FrontEndListener(new HostPort("127.0.0.1", 0), w -> {});
    console =
        new ListenConsole(
            dir,
            listener,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            q -> {
              questions.add(q);
              return acceptWhenAsked;
            });
  }

  @AfterEach
  void close() {
    if (console != null) {
      console.close();
    }
  }

  private static ConnectRequest request(String id, String nasty) {
    return new ConnectRequest(
        id,
        "user" + nasty,
        "node" + nasty,
        List.of("10.0.0.1" + nasty),
        ProcessHandle.current().pid(),
        Instant.now(),
        "/home" + nasty,
        List.of("srun", "./app" + nasty),
        "42" + nasty,
        SessionSecret.random());
  }

  /** A character a terminal acts on, but the line feed and the tab. */
  private static boolean acts(int c) {
    return (c < 0x20 && c != '\n' && c != '\t')
        || (c >= 0x7f && c <= 0x9f)
        || (c >= 0x202a && c <= 0x202e)
        || (c >= 0x2066 && c <= 0x2069);
  }

  /** No control character, and no forged line as a line of its own. */
  private static void assertHarmless(String text) {
    text.chars().forEach(c -> assertFalse(acts(c), "char " + c + " in:\n" + text));
    for (String line : text.split("\n")) {
      assertFalse(line.startsWith("request 00000000"), "a forged line in:\n" + text);
      assertFalse(line.startsWith(FORGED_END), "a forged line in:\n" + text);
    }
  }

  /** The master of {@code r}, as sdm connect dials: proves the request's secret. */
  private FrameConnection dialAsMaster(ConnectRequest r) throws IOException {
    HostPort at = HostPort.parse(listener.address());
    FrameConnection c = FrameConnection.dial(at.host(), at.port(), WAIT);
    Handshake.dial(c, Role.ROLE_MASTER, r.id(), r.secret(), WAIT);
    return c;
  }

  /** Answers the next call on {@code c} with {@code body} from {@code ranks}. */
  private void answerCall(FrameConnection c, RankSet ranks, EventBody body) throws IOException {
    Frame f;
    try {
      f = c.read(WAIT);
    } catch (IOException e) {
      throw new IOException(e.getMessage() + "; sdm listen said:\n" + out.toString(), e);
    }
    assertEquals(Frame.KindCase.CALL, f.getKindCase(), f.toString());
    long id = f.getCall().getId();
    c.write(
        Frame.newBuilder()
            .setReply(
                CallReply.newBuilder().setCallId(id).setRanks(Protos.toProto(ranks)).setBody(body))
            .build());
    c.write(Frame.newBuilder().setDone(CallDone.newBuilder().setCallId(id)).build());
  }

  /** {@code accept ID} on a thread of its own, as it waits for the master. */
  private CompletableFuture<Boolean> acceptAsync(String words) {
    return CompletableFuture.supplyAsync(() -> console.execute(words));
  }

  @Test
  void escapeSequencesInARequestsFieldsStayVisibleOnTheirOwnLine() throws Exception {
    open(false);
    dir.submit(request("1234abcd", NASTY));
    console.start(); // announces it
    out.await(l -> l.startsWith("request 1234abcd: "), WAIT);
    console.execute("requests");
    console.execute("accept 1234abcd"); // asked, and not accepted

    String text = out.toString();
    assertTrue(text.contains("request 1234abcd: user\\x1b[2J"), text);
    assertEquals(2, text.lines().filter(l -> l.startsWith("request 1234abcd: ")).count(), text);
    assertTrue(text.contains("request 1234abcd not accepted"), text);
    assertHarmless(text);
    assertEquals(1, questions.size());
    assertTrue(questions.get(0).startsWith("accept request 1234abcd from user\\x1b"));
    assertHarmless(questions.get(0));
    assertFalse(questions.get(0).contains("\n"), questions.get(0));
  }

  @Test
  void aMastersProgressWelcomeRepliesEventsAndGoodbyeAreShownEscaped() throws Exception {
    open(true);
    ConnectRequest r = request("5678abcd", "");
    dir.submit(r);
    CompletableFuture<Boolean> accepted = acceptAsync("accept 5678abcd");
    out.await(l -> l.startsWith("accepted request 5678abcd"), WAIT);
    FrameConnection master = dialAsMaster(r);
    master.write(Frame.newBuilder().setProgress(Progress.newBuilder().setText(NASTY)).build());
    master.write(
        Frame.newBuilder()
            .setWelcome(
                Welcome.newBuilder()
                    .setSize(2)
                    .setProgram("/bin/app")
                    .setMissing(Protos.toProto(RankSet.empty()))
                    .setDescription(NASTY))
            .build());
    answerCall(master, RankSet.all(2), EventBodies.error(NASTY)); // the program's load
    assertTrue(accepted.get(WAIT.toSeconds(), TimeUnit.SECONDS));
    master.write(
        Frame.newBuilder()
            .setEvent(
                Event.newBuilder()
                    .setRanks(Protos.toProto(RankSet.of(1)))
                    .setBody(EventBodies.error(NASTY)))
            .build());
    master.write(Frame.newBuilder().setBye(Bye.newBuilder().setReason(NASTY)).build());
    out.await(l -> l.startsWith("session 1 ended: "), WAIT);
    master.close();

    String text = out.toString();
    assertTrue(text.contains("request 5678abcd: \\x1b[2J"), text); // the progress line
    assertTrue(text.contains("session 1: 2 ranks, \\x1b[2J"), text); // the welcome
    assertTrue(text.contains("[0,1] error: \\x1b[2J"), text); // the load's reply
    assertTrue(text.contains("[1] error: \\x1b[2J"), text); // the event
    assertTrue(text.contains("session 1 ended: the master ended the session: \\x1b[2J"), text);
    assertHarmless(text);
  }

  @Test
  void aMastersRefusalIsShownEscaped() throws Exception {
    open(true);
    ConnectRequest r = request("9abcdef0", "");
    dir.submit(r);
    CompletableFuture<Boolean> accepted = acceptAsync("accept 9abcdef0");
    out.await(l -> l.startsWith("accepted request 9abcdef0"), WAIT);
    FrameConnection master = dialAsMaster(r);
    master.write(Frame.newBuilder().setRefused(Refused.newBuilder().setReason(NASTY)).build());
    assertTrue(accepted.get(WAIT.toSeconds(), TimeUnit.SECONDS));
    master.close();

    String text = out.toString();
    assertTrue(text.contains("error: the master refused: \\x1b[2J"), text);
    assertHarmless(text);
  }

  @Test
  void theListenersWarningsQuoteAStrangersSessionNameAndRefusalEscaped() throws Exception {
    // A Hello naming a session that is no request, with escape sequences.
    String unknown =
        refusalShown(
            (c, secret) -> {
              assertThrows(
                  IOException.class,
                  () -> Handshake.dial(c, Role.ROLE_MASTER, "x" + NASTY, secret, WAIT));
            });
    assertTrue(unknown.contains("no session \"x\\x1b[2J"), unknown);
    assertHarmless(unknown);
    // A Hello for the request expected, then a refusal with escape sequences.
    String refused =
        refusalShown(
            (c, secret) -> {
              c.write(
                  Frame.newBuilder()
                      .setHello(
                          Hello.newBuilder()
                              .setVersion(Handshake.VERSION)
                              .setRole(Role.ROLE_MASTER)
                              .setSession("0badcafe")
                              .setNonce(ByteString.copyFrom(new byte[Handshake.NONCE_BYTES])))
                      .build());
              assertEquals(Frame.KindCase.CHALLENGE, c.read(WAIT).getKindCase());
              c.write(Frame.newBuilder().setRefused(Refused.newBuilder().setReason(NASTY)).build());
            });
    assertTrue(refused.contains(": \\x1b[2J\\x1b]0;owned\\x07\\x0d\\x0arequest 00000000"), refused);
    assertHarmless(refused);
  }

  /** What a stranger does on a connection to the listener, which expects request 0badcafe. */
  private interface Stranger {
    void act(FrameConnection c, SessionSecret secret) throws IOException;
  }

  /**
   * The warning sdm listen prints when {@code stranger} is refused. One listener each: the listener
   * says only the first refusal of a kind in full.
   */
  private static String refusalShown(Stranger stranger) throws Exception {
    AwaitedLines err = new AwaitedLines();
    Consumer<String> shown =
        ListenConsole.listenerWarnings(new PrintStream(err, true, StandardCharsets.UTF_8));
    SessionSecret secret = SessionSecret.random();
    try (FrontEndListener l = new FrontEndListener(new HostPort("127.0.0.1", 0), shown)) {
      l.expect("0badcafe", secret);
      HostPort at = HostPort.parse(l.address());
      FrameConnection c = FrameConnection.dial(at.host(), at.port(), WAIT);
      try {
        stranger.act(c, secret);
        return err.await(line -> line.startsWith("sdm listen: refused a connection"), WAIT);
      } finally {
        c.close();
      }
    }
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void filesThatAreNoRequestToReadAreRefusedOnceAndTheRealRequestIsServed() throws Exception {
    open(true);
    ConnectRequest real = request("600dcafe", "");
    dir.submit(real);
    Path elsewhere = tmp.resolve("elsewhere.request");
    Files.writeString(elsewhere, request("0badc0de", "").toText());
    Files.createSymbolicLink(dir.dir().resolve("0badc0de.request"), elsewhere);
    Files.createSymbolicLink(dir.dir().resolve("deadbeef.request"), Path.of("/dev/zero"));
    Path fifo = dir.dir().resolve("f1f0f1f0.request");
    assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
    Files.write(dir.dir().resolve("0123abcd.request"), new byte[ConnectRequest.MAX_BYTES + 1]);
    Path shared = dir.dir().resolve("abcd0123.request");
    Files.writeString(shared, request("abcd0123", "").toText());
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rw--w----"));
    Files.writeString(dir.dir().resolve("\u001b[2J\r.request"), "not a request");

    console.start();
    out.await(l -> l.startsWith("request 600dcafe: "), WAIT);
    console.execute("requests");
    // The only request waiting: accept needs no id.
    CompletableFuture<Boolean> accepted = acceptAsync("accept");
    out.await(l -> l.startsWith("accepted request 600dcafe"), WAIT);
    FrameConnection master = dialAsMaster(real);
    master.write(
        Frame.newBuilder()
            .setWelcome(
                Welcome.newBuilder()
                    .setSize(1)
                    .setProgram("/bin/app")
                    .setMissing(Protos.toProto(RankSet.empty()))
                    .setDescription("app"))
            .build());
    answerCall(master, RankSet.of(0), EventBodies.ok());
    assertTrue(accepted.get(WAIT.toSeconds(), TimeUnit.SECONDS));
    master.write(
        Frame.newBuilder().setBye(Bye.newBuilder().setReason("the job has ended")).build());
    out.await(l -> l.startsWith("session 1 ended: "), WAIT);
    master.close();

    String text = out.toString();
    List<String> warnings =
        text.lines()
            .filter(l -> l.startsWith("sdm listen: ") && !l.startsWith("sdm listen: waiting"))
            .toList();
    assertEquals(6, warnings.size(), text); // each said once, however often the directory is read
    for (String name : List.of("0badc0de", "deadbeef", "f1f0f1f0")) {
      assertTrue(
          warnings.stream().anyMatch(w -> w.contains(name) && w.contains("not a regular file")),
          text);
    }
    assertTrue(warnings.stream().anyMatch(w -> w.contains("0123abcd") && w.contains("limit")));
    assertTrue(warnings.stream().anyMatch(w -> w.contains("abcd0123") && w.contains("others")));
    assertTrue(warnings.stream().anyMatch(w -> w.contains("/\\x1b[2J\\x0d.request")), text);
    assertEquals(2, text.lines().filter(l -> l.startsWith("request 600dcafe: ")).count(), text);
    assertFalse(text.contains("request 0badc0de:"), text);
    assertFalse(text.contains("request abcd0123:"), text);
    assertHarmless(text);
  }
}

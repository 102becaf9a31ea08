package io.sdmfabric.connect;

import io.sdmfabric.frontend.Console;
import io.sdmfabric.frontend.ConsoleInput;
import io.sdmfabric.frontend.ConsoleParser;
import io.sdmfabric.frontend.Durations;
import io.sdmfabric.frontend.InteractiveConsole;
import io.sdmfabric.frontend.ProgramLoad;
import io.sdmfabric.frontend.RemoteSession;
import io.sdmfabric.frontend.TextRenderer;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.wire.HostPort;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.proto.Welcome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The console of {@code sdm listen}: it announces reverse connect requests as they arrive, accepts
 * and rejects them ({@code requests}, {@code accept}, {@code reject}), and runs the console
 * language on the sessions accepted, several at once ({@code sessions}, {@code session N}). Lines
 * that are not its own go to the active session's {@link Console}; while more than one session is
 * open, each session's lines start with its number in braces, e.g. {@code {2} [0-3] stopped ...}.
 */
public final class ListenConsole implements AutoCloseable {
  /** How long the job of an accepted request has to start. */
  static final Duration START_LIMIT = Duration.ofMinutes(15);

  private static final long POLL_MS = 200;

  /** Asks the user a yes-or-no question; scripts answer yes. */
  public interface Asker {
    boolean confirm(String question);
  }

  /** A session accepted from a request. */
  private record Accepted(
      int number, ConnectRequest request, RemoteSession session, Console console) {}

  private final ConnectDirectory dir;
  private final FrontEndListener listener;
  private final PrintStream out;
  private final TextRenderer own;
  private final Asker asker;
  private final List<Accepted> sessions = new ArrayList<>();
  private final Set<String> announced = new HashSet<>();
  private final Thread watcher;
  private final Set<String> warned = new HashSet<>();
  private volatile boolean closing;
  private Accepted active;
  private int nextNumber = 1;

  public ListenConsole(
      ConnectDirectory dir, FrontEndListener listener, PrintStream out, Asker asker) {
    this.dir = dir;
    this.listener = listener;
    this.out = out;
    this.own = new TextRenderer(out);
    this.asker = asker;
    this.watcher = new Thread(this::watch, "request-watcher");
    watcher.setDaemon(true);
  }

  /**
   * Serves until {@code quit}, {@code exit} or the end of the input: announces requests as they
   * come and runs the lines of {@code script}, then of the terminal or standard input. Ctrl-C or
   * SIGTERM meanwhile ends the accepted jobs too, as {@code exit} does.
   */
  public void serve(Optional<Path> script, Optional<InteractiveConsole> terminal)
      throws IOException {
    Thread hook = new Thread(this::close, "end-sessions");
    Runtime.getRuntime().addShutdownHook(hook);
    start();
    ConsoleInput.run(this::prompt, this::execute, script, terminal);
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // Going down already.
    }
  }

  /**
   * Where the listener of {@code sdm listen} says what it refused: on {@code err}, one escaped line
   * each, as a refusal quotes what a stranger sent (the session a {@code Hello} names, the reason
   * of a {@code Refused}).
   */
  public static Consumer<String> listenerWarnings(PrintStream err) {
    return w -> err.println("sdm listen: " + TerminalText.escape(w));
  }

  /**
   * Prints one line of sdm listen's own, which may hold text that others chose (a request's fields,
   * a peer's reason, a master's progress): escaped, so that it stays one harmless line.
   */
  private void say(String line) {
    out.println(TerminalText.escape(line));
  }

  /** Starts announcing requests as they arrive. */
  public void start() {
    say(
        "sdm listen: waiting for requests of sdm connect in "
            + dir.dir()
            + "; masters connect to "
            + listener.address()
            + " (help lists the commands)");
    announce();
    watcher.start();
  }

  /** The prompt: the active session and its focus, or none. */
  public synchronized String prompt() {
    return active == null
        ? "sdm listen> "
        : "sdm " + active.number() + " [" + active.console().focus() + "]> ";
  }

  /**
   * Runs one line.
   *
   * @return false when {@code sdm listen} should end: {@code exit}, or {@code quit} with no session
   */
  public boolean execute(String line) {
    String text = line.strip();
    String[] words = text.isEmpty() ? new String[0] : text.split("\\s+");
    if (words.length == 0 || text.startsWith("#")) {
      return true;
    }
    try {
      switch (words[0]) {
        case "requests" -> requests(words);
        case "accept" -> accept(words);
        case "reject" -> reject(words);
        case "sessions" -> listSessions();
        case "session" -> switchTo(words);
        case "exit" -> {
          return false;
        }
        case "help" -> help();
        default -> {
          return toSession(text);
        }
      }
    } catch (IllegalArgumentException e) {
      own.error(RankSet.empty(), e.getMessage());
    } catch (IOException e) {
      own.error(RankSet.empty(), e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    return true;
  }

  private boolean toSession(String line) {
    Accepted s;
    synchronized (this) {
      s = active;
    }
    if (s == null) {
      if (line.equals("quit")) {
        return false;
      }
      own.error(RankSet.empty(), "no session yet: accept a request first (requests lists them)");
      return true;
    }
    if (!s.console().execute(line)) {
      end(s);
    }
    return true;
  }

  private void requests(String[] words) throws IOException, InterruptedException {
    List<ConnectRequest> pending = pending();
    if (words.length > 1 && words[1].equals("wait")) {
      Duration limit = words.length > 2 ? Durations.parse(words[2]) : Duration.ofSeconds(60);
      long deadline = System.nanoTime() + limit.toNanos();
      while (pending.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(POLL_MS);
        pending = pending();
      }
      if (pending.isEmpty()) {
        own.error(RankSet.empty(), "no request within " + limit.toSeconds() + " s");
        return;
      }
    } else if (words.length > 1) {
      throw new IllegalArgumentException("requests takes nothing, or: wait [TIMEOUT]");
    }
    if (pending.isEmpty()) {
      say("no requests waiting");
    }
    for (ConnectRequest r : pending) {
      say("request " + r.id() + ": " + r.describe());
    }
  }

  private void accept(String[] words) throws IOException, InterruptedException {
    Optional<String> id = Optional.empty();
    Optional<String> via = Optional.empty();
    for (int i = 1; i < words.length; i++) {
      if (words[i].equals("--via")) {
        if (i + 1 >= words.length) {
          throw new IllegalArgumentException("--via needs HOST:PORT, the relay's address");
        }
        via = Optional.of(HostPort.parse(words[++i]).toString());
      } else if (words[i].startsWith("-")) {
        throw new IllegalArgumentException(
            "unknown option " + words[i] + " (accept [ID] [--via HOST:PORT])");
      } else if (id.isEmpty()) {
        id = Optional.of(words[i]);
      } else {
        throw new IllegalArgumentException(
            "accept takes one request: accept [ID] [--via HOST:PORT]");
      }
    }
    ConnectRequest r = pick(id);
    String question = "accept request " + r.id() + " from " + r.describe() + "? [y/N] ";
    if (!asker.confirm(TerminalText.escape(question))) {
      say("request " + r.id() + " not accepted; it still waits (reject " + r.id() + " to say no)");
      return;
    }
    RemoteSession session =
        RequestAcceptance.accept(dir, listener, r, via, line -> say(line), START_LIMIT);
    open(r, session);
  }

  private void open(ConnectRequest r, RemoteSession session) throws IOException {
    int number;
    synchronized (this) {
      number = nextNumber++;
    }
    PrintStream lines = new PrintStream(new SessionLines(number), true, StandardCharsets.UTF_8);
    TextRenderer renderer = new TextRenderer(lines);
    Console console = new Console(session, renderer);
    Accepted s = new Accepted(number, r, session, console);
    synchronized (this) {
      sessions.add(s);
      active = s;
    }
    Welcome w = session.welcome();
    RankSet missing = Protos.fromProto(w.getMissing());
    say(
        "session "
            + number
            + ": "
            + w.getSize()
            + " ranks, "
            + w.getDescription()
            + (missing.isEmpty()
                ? ""
                : "; ranks " + missing + " are missing and answer with errors"));
    session.onClosed(reason -> ended(s, reason));
    try {
      ProgramLoad.load(session, renderer, w.getProgram(), w.getArgsList());
    } catch (Exception e) {
      own.error(RankSet.empty(), "session " + number + ": the program did not load: " + e);
    }
  }

  /**
   * {@code reject [ID] [REASON]}: the first word is an id when a waiting request's id starts so.
   */
  private void reject(String[] words) throws IOException {
    int reasonFrom = 1;
    Optional<String> id = Optional.empty();
    if (words.length > 1
        && words[1].matches("[0-9a-f]+")
        && pending().stream().anyMatch(r -> r.id().startsWith(words[1]))) {
      id = Optional.of(words[1]);
      reasonFrom = 2;
    }
    ConnectRequest r = pick(id);
    String reason = String.join(" ", List.of(words).subList(reasonFrom, words.length));
    dir.reject(r.id(), reason);
    say("rejected request " + r.id());
  }

  /** The request {@code id} names (a prefix will do), or the only one waiting. */
  private ConnectRequest pick(Optional<String> id) throws IOException {
    List<ConnectRequest> pending = pending();
    if (id.isEmpty()) {
      if (pending.size() == 1) {
        return pending.get(0);
      }
      throw new IllegalArgumentException(
          pending.isEmpty()
              ? "no requests waiting"
              : pending.size() + " requests are waiting: say which (requests lists them)");
    }
    List<ConnectRequest> matching =
        pending.stream().filter(r -> r.id().startsWith(id.get())).toList();
    if (matching.size() != 1) {
      throw new IllegalArgumentException(
          matching.isEmpty()
              ? "no request " + id.get() + " waiting (requests lists them)"
              : "request " + id.get() + " is ambiguous: give more of its id");
    }
    return matching.get(0);
  }

  private synchronized void listSessions() {
    if (sessions.isEmpty()) {
      say("no sessions");
    }
    for (Accepted s : sessions) {
      say(
          (s == active ? "* " : "  ")
              + "session "
              + s.number()
              + ": "
              + s.session().size()
              + " ranks, "
              + s.session().welcome().getDescription());
    }
  }

  private synchronized void switchTo(String[] words) {
    if (words.length != 2) {
      throw new IllegalArgumentException("session N: which session (sessions lists them)");
    }
    for (Accepted s : sessions) {
      if (Integer.toString(s.number()).equals(words[1])) {
        active = s;
        return;
      }
    }
    throw new IllegalArgumentException("no session " + words[1] + " (sessions lists them)");
  }

  private void help() {
    own.info(
        String.join(
            "\n",
            "Requests and sessions:",
            "  requests [wait [TIMEOUT]]    requests waiting (wait: until there is one)",
            "  accept [ID] [--via H:P]      accept a request: its job starts, a session opens",
            "  reject [ID] [REASON]         reject a request: its sdm connect fails",
            "  sessions | session N         the open sessions; make N the active one",
            "  quit                         end the active session (its job), or leave",
            "  exit                         end every session and leave",
            "In a session:"));
    own.info(ConsoleParser.help());
  }

  /** Ends session {@code s} at the user's word: its job ends, or it is detached. */
  private void end(Accepted s) {
    say("session " + s.number() + ": ending");
    s.session().close();
    ended(s, s.session().ended().getNow("ended"));
  }

  /** Session {@code s} is over, for {@code reason}; says so once. */
  private void ended(Accepted s, String reason) {
    // Said under the lock: whoever comes second (quit's thread, or the connection's as the
    // master says goodbye) returns only once it is said, so it is never lost to the exit.
    synchronized (this) {
      if (!sessions.remove(s)) {
        return;
      }
      if (active == s) {
        active = sessions.isEmpty() ? null : sessions.get(sessions.size() - 1);
      }
      if (!closing) {
        say("session " + s.number() + " ended: " + reason);
      }
    }
  }

  /** The requests waiting; each problem with the directory's files is said once. */
  private List<ConnectRequest> pending() throws IOException {
    return dir.pending(
        w -> {
          boolean isNew;
          synchronized (warned) {
            isNew = warned.add(w);
          }
          if (isNew) {
            say("sdm listen: " + w);
          }
        });
  }

  private void watch() {
    while (!closing) {
      announce();
      try {
        Thread.sleep(POLL_MS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Announces each request once, as it arrives. */
  private void announce() {
    List<ConnectRequest> pending;
    try {
      pending = pending();
    } catch (IOException e) {
      return; // said by the next command that reads the directory
    }
    for (ConnectRequest r : pending) {
      boolean isNew;
      synchronized (announced) {
        isNew = announced.add(r.id());
      }
      if (isNew) {
        say(
            "request "
                + r.id()
                + ": "
                + r.describe()
                + "  (accept "
                + r.id()
                + " | reject "
                + r.id()
                + ")");
      }
    }
  }

  /** Ends every session (their jobs end) and stops listening. */
  @Override
  public void close() {
    List<Accepted> open;
    synchronized (this) {
      closing = true;
      open = List.copyOf(sessions);
    }
    watcher.interrupt();
    List<Thread> enders = new ArrayList<>();
    for (Accepted s : open) {
      Thread t = new Thread(() -> s.session().close(), "end-session-" + s.number());
      t.start();
      enders.add(t);
    }
    for (Thread t : enders) {
      try {
        t.join(RemoteSession.GOODBYE_LIMIT.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    listener.close();
  }

  /** A session's output: whole lines, numbered while more than one session is open. */
  private final class SessionLines extends OutputStream {
    private final int number;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    SessionLines(int number) {
      this.number = number;
    }

    @Override
    public synchronized void write(int b) {
      if (b != '\n') {
        line.write(b);
        return;
      }
      boolean several;
      synchronized (ListenConsole.this) {
        several = sessions.size() > 1;
      }
      out.println((several ? "{" + number + "} " : "") + line.toString(StandardCharsets.UTF_8));
      line.reset();
    }
  }
}

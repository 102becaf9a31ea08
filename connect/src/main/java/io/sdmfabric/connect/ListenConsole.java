package io.sdmfabric.connect;

import io.sdmfabric.frontend.Console;
import io.sdmfabric.frontend.ConsoleInput;
import io.sdmfabric.frontend.ConsoleParser;
import io.sdmfabric.frontend.InteractiveConsole;
import io.sdmfabric.frontend.ProgramLoad;
import io.sdmfabric.frontend.RemoteSession;
import io.sdmfabric.frontend.TextRenderer;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.TerminalText;
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
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The console of {@code sdm listen}: it announces reverse connect requests as they arrive, accepts
 * and rejects them ({@code requests}, {@code accept}, {@code reject}), and runs the console
 * language on the sessions accepted, several at once ({@code sessions}, {@code session N}). Lines
 * that are not its own go to the active session's {@link Console}; while more than one session is
 * open, each session's lines start with its number in braces, e.g. {@code {2} [0-3] stopped ...}.
 *
 * <p>Its parts: {@link ListenParser} reads its commands, {@link RequestWatcher} announces requests,
 * {@link SessionRoster} keeps the sessions and which is active; this class runs the commands (a
 * method for each kind of line) and wires each session's events (its end) to the roster, in one
 * place ({@link #open}).
 */
public final class ListenConsole implements AutoCloseable {
  /** How long the job of an accepted request has to start. */
  static final Duration START_LIMIT = Duration.ofMinutes(15);

  /** Asks the user a yes-or-no question; scripts answer yes. */
  public interface Asker {
    boolean confirm(String question);
  }

  private final ConnectDirectory dir;
  private final FrontEndListener listener;
  private final PrintStream out;
  private final TextRenderer own;
  private final Asker asker;
  private final RequestWatcher requests;
  private final SessionRoster roster;
  private final OwnCommands commands = new OwnCommands();

  public ListenConsole(
      ConnectDirectory dir, FrontEndListener listener, PrintStream out, Asker asker) {
    this.dir = dir;
    this.listener = listener;
    this.out = out;
    this.own = new TextRenderer(out);
    this.asker = asker;
    this.requests = new RequestWatcher(dir, this::say);
    this.roster = new SessionRoster(this::say);
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
    requests.start();
  }

  /** The prompt: the active session and its focus, or none. */
  public String prompt() {
    return roster.prompt();
  }

  /**
   * Runs one line.
   *
   * @return false when {@code sdm listen} should end: {@code exit}, or {@code quit} with no session
   */
  public boolean execute(String line) {
    try {
      return ListenParser.parse(line).runOn(commands);
    } catch (IllegalArgumentException | IOException e) {
      own.error(RankSet.empty(), e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    return true;
  }

  /**
   * sdm listen's commands, a method for each kind of line ({@link ListenParser.Commands}: a new
   * kind does not compile until it is handled here).
   */
  private final class OwnCommands implements ListenParser.Commands {
    @Override
    public boolean nothing() {
      return true;
    }

    @Override
    public boolean requests(ListenParser.Line.Requests line)
        throws IOException, InterruptedException {
      List<ConnectRequest> pending;
      if (line.waitAtMost().isPresent()) {
        Duration limit = line.waitAtMost().get();
        pending = requests.awaitPending(limit);
        if (pending.isEmpty()) {
          own.error(RankSet.empty(), "no request within " + limit.toSeconds() + " s");
          return true;
        }
      } else {
        pending = requests.pending();
      }
      if (pending.isEmpty()) {
        say("no requests waiting");
      }
      for (ConnectRequest r : pending) {
        say("request " + r.id() + ": " + r.describe());
      }
      return true;
    }

    @Override
    public boolean accept(ListenParser.Line.Accept line) throws IOException, InterruptedException {
      ConnectRequest r = pick(line.id());
      String question = "accept request " + r.id() + " from " + r.describe() + "? [y/N] ";
      if (!asker.confirm(TerminalText.escape(question))) {
        say(
            "request "
                + r.id()
                + " not accepted; it still waits (reject "
                + r.id()
                + " to say no)");
        return true;
      }
      RemoteSession session =
          RequestAcceptance.accept(
              dir, listener, r, line.via(), ListenConsole.this::say, START_LIMIT);
      open(r, session);
      return true;
    }

    /**
     * {@code reject [ID] [REASON]}: the first word is an id when a waiting request's id starts so.
     */
    @Override
    public boolean reject(ListenParser.Line.Reject line) throws IOException {
      Optional<String> word = line.id();
      boolean named =
          word.isPresent()
              && requests.pending().stream().anyMatch(r -> r.id().startsWith(word.get()));
      Optional<String> id = named ? word : Optional.empty();
      ConnectRequest r = pick(id);
      dir.reject(r.id(), line.reason(id.isPresent()));
      say("rejected request " + r.id());
      return true;
    }

    @Override
    public boolean sessions() {
      roster.list().forEach(ListenConsole.this::say);
      return true;
    }

    @Override
    public boolean switchTo(ListenParser.Line.SwitchTo line) {
      roster.switchTo(line.number());
      return true;
    }

    @Override
    public boolean exit() {
      return false;
    }

    @Override
    public boolean help() {
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
      return true;
    }

    @Override
    public boolean toSession(ListenParser.Line.ToSession line) {
      SessionRoster.Entry s = roster.active().orElse(null);
      if (s == null) {
        if (line.text().equals("quit")) {
          return false;
        }
        own.error(RankSet.empty(), "no session yet: accept a request first (requests lists them)");
        return true;
      }
      if (!s.console().execute(line.text())) {
        end(s);
      }
      return true;
    }
  }

  private void open(ConnectRequest r, RemoteSession session) throws IOException {
    int number = roster.nextNumber();
    PrintStream lines = new PrintStream(new SessionLines(number), true, StandardCharsets.UTF_8);
    TextRenderer renderer = new TextRenderer(lines);
    Console console = new Console(session, renderer);
    SessionRoster.Entry s = new SessionRoster.Entry(number, r, session, console);
    roster.add(s);
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
    session.onClosed(reason -> roster.ended(s, reason));
    try {
      ProgramLoad.load(session, renderer, w.getProgram(), w.getArgsList());
    } catch (Exception e) {
      own.error(RankSet.empty(), "session " + number + ": the program did not load: " + e);
    }
  }

  /** The request {@code id} names (a prefix will do), or the only one waiting. */
  private ConnectRequest pick(Optional<String> id) throws IOException {
    List<ConnectRequest> pending = requests.pending();
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

  /** Ends session {@code s} at the user's word: its job ends, or it is detached. */
  private void end(SessionRoster.Entry s) {
    say("session " + s.number() + ": ending");
    s.session().close();
    roster.ended(s, s.session().ended().getNow("ended"));
  }

  /** Ends every session (their jobs end) and stops listening. */
  @Override
  public void close() {
    List<SessionRoster.Entry> open = roster.closeAll();
    requests.close();
    List<Thread> enders = new ArrayList<>();
    for (SessionRoster.Entry s : open) {
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
      boolean several = roster.several();
      out.println((several ? "{" + number + "} " : "") + line.toString(StandardCharsets.UTF_8));
      line.reset();
    }
  }
}

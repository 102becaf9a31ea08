package io.sdmfabric.runtime;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.sdmfabric.model.TerminalText;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.LoggerFactory;

/**
 * Where this JVM's log lines go: sdm's own (its loggers, {@value #OWN}) to the console as always,
 * the libraries' (Pekko, Aeron, anything else through SLF4J) out of the user's way. A node that is
 * cut off makes Pekko warn on every JVM of the session, on both sides of the cut, around sdm's own
 * line that says which ranks were lost; the user reads sdm's line.
 *
 * <ul>
 *   <li>The sdm command ({@link #toFile}): the libraries' lines go to one file of the run under
 *       sdm's home ({@link LogFile}), whose path the console hears once, when the first line comes;
 *       and so do its agents' ({@link #agentLine}). {@link #toConsole} (sdm's {@code --verbose})
 *       shows them on the console, as before.
 *   <li>An agent ({@link #marked}): its standard error goes to its master (through the launcher or
 *       the remote shell), so every line of a library's there begins with {@link #MARK}, by which
 *       the master tells them from the agent's own.
 * </ul>
 *
 * The levels stay those of cli's LogSettings. Without logback (another SLF4J binding on the class
 * path) nothing changes.
 */
public final class LibraryLog {
  /** The start of an agent's line that a library logged. */
  static final String MARK = "sdm-log| ";

  /** The loggers of sdm's own code, whose lines the user reads. */
  static final String OWN = "io.sdmfabric";

  private static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{20} - %msg%n";

  /** Where the console's lines go. */
  private static volatile PrintStream console = System.err;

  /** This run's file; null: the libraries' lines go to the console. */
  private static volatile LogFile file;

  /**
   * Whether the libraries' lines go to the console: as cli's LogSettings says, or {@code
   * --verbose}.
   */
  private static volatile boolean onConsole = true;

  private LibraryLog() {}

  /**
   * The sdm command: from now on sdm's lines go to {@code console}, the libraries' (this JVM's and
   * its agents') to a file in {@code home}'s {@code logs/}, whose path {@code console} hears once.
   */
  public static void toFile(Path home, PrintStream console) {
    LibraryLog.console = console;
    file = new LogFile(home, LogFile.nameForThisRun(), console::println);
    onConsole = false;
    route(LibraryLog::library, LibraryLog::own);
  }

  /** From now on the libraries' lines, this JVM's and its agents', go to the console too. */
  public static void toConsole() {
    file = null;
    onConsole = true;
  }

  /**
   * An agent: sdm's lines go to {@code err} as they are, the libraries' there each line behind
   * {@link #MARK}.
   */
  public static void marked(PrintStream err) {
    console = err;
    file = null;
    onConsole = false;
    route(text -> text.lines().forEach(l -> err.println(MARK + l)), LibraryLog::own);
  }

  /**
   * A line an agent wrote on its standard error, as the master heard it from {@code source}: empty
   * when it was a library's and went to this run's file; else the line to show (a library's without
   * its {@link #MARK}).
   */
  public static Optional<String> agentLine(String source, String line) {
    if (!line.startsWith(MARK)) {
      return Optional.of(line);
    }
    String said = line.substring(MARK.length());
    LogFile f = file;
    if (f != null && f.write(TerminalText.escape("[" + source + "] " + said) + "\n")) {
      return Optional.empty();
    }
    return Optional.of(said);
  }

  /**
   * {@code pekko.stdout-loglevel} for an actor system started now: Pekko writes its warnings to
   * standard output itself, not through SLF4J, while its logging starts and once it has stopped (an
   * actor system shutting down), so where the libraries' lines stay off the console, so do those.
   */
  public static String pekkoStandardOutLevel() {
    return onConsole ? "WARNING" : "OFF";
  }

  private static void own(String text) {
    PrintStream out = console;
    out.print(text);
    out.flush();
  }

  private static void library(String text) {
    LogFile f = file;
    // Escaped as the console's lines are: a library can quote what came from the network.
    if (f == null || !f.write(TerminalText.escapeLines(text))) {
      own(text);
    }
  }

  /**
   * Sends the root logger's lines to {@code library}, those of sdm's own loggers to {@code own}.
   */
  private static void route(Consumer<String> library, Consumer<String> own) {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return;
    }
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.detachAndStopAllAppenders();
    root.addAppender(new Lines(context, library));
    Logger sdm = context.getLogger(OWN);
    sdm.detachAndStopAllAppenders();
    sdm.setAdditive(false);
    sdm.addAppender(new Lines(context, own));
  }

  /** Each event as LogSettings's pattern writes it (with its stack trace), to a consumer. */
  private static final class Lines extends AppenderBase<ILoggingEvent> {
    private final PatternLayout layout = new PatternLayout();
    private final Consumer<String> out;

    Lines(LoggerContext context, Consumer<String> out) {
      this.out = out;
      setContext(context);
      setName("sdm-lines");
      layout.setContext(context);
      layout.setPattern(PATTERN);
      layout.start();
      start();
    }

    @Override
    protected void append(ILoggingEvent event) {
      out.accept(layout.doLayout(event));
    }
  }
}

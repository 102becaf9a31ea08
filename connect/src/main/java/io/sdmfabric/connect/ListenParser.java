package io.sdmfabric.connect;

import io.sdmfabric.frontend.Durations;
import io.sdmfabric.wire.HostPort;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The grammar of {@code sdm listen}'s own commands: {@code requests [wait [TIMEOUT]]}, {@code
 * accept [ID] [--via HOST:PORT]}, {@code reject [ID] [REASON]}, {@code sessions}, {@code session
 * N}, {@code exit}, {@code help}. Any other line is the active session's ({@link Line.ToSession}).
 * Words are separated by white space; a line that is blank or starts with {@code #} is nothing.
 * Errors are {@link IllegalArgumentException}s whose message the user reads. A parsed line runs on
 * {@link Commands}, which has a method for each kind of line.
 */
public final class ListenParser {
  private ListenParser() {}

  /**
   * What runs {@code sdm listen}'s lines: a method for each kind of {@link Line}, so that a new
   * kind does not compile until it is handled. Each returns whether {@code sdm listen} goes on
   * (false: it ends).
   */
  public interface Commands {
    boolean nothing();

    boolean requests(Line.Requests line) throws IOException, InterruptedException;

    boolean accept(Line.Accept line) throws IOException, InterruptedException;

    boolean reject(Line.Reject line) throws IOException;

    boolean sessions();

    boolean switchTo(Line.SwitchTo line);

    boolean exit();

    boolean help();

    boolean toSession(Line.ToSession line);
  }

  /** One line of {@code sdm listen}, parsed. */
  public sealed interface Line {
    /** Runs this line on {@code commands}; returns whether {@code sdm listen} goes on. */
    boolean runOn(Commands commands) throws IOException, InterruptedException;

    /** A blank line or a comment. */
    enum Nothing implements Line {
      INSTANCE;

      @Override
      public boolean runOn(Commands commands) {
        return commands.nothing();
      }
    }

    /**
     * {@code requests}: list the requests waiting; {@code wait}: until there is one, at most so.
     */
    record Requests(Optional<Duration> waitAtMost) implements Line {
      @Override
      public boolean runOn(Commands commands) throws IOException, InterruptedException {
        return commands.requests(this);
      }
    }

    /** {@code accept}: the request {@code id} names (a prefix will do), or the only one waiting. */
    record Accept(Optional<String> id, Optional<String> via) implements Line {
      @Override
      public boolean runOn(Commands commands) throws IOException, InterruptedException {
        return commands.accept(this);
      }
    }

    /**
     * {@code reject}: its words after the command. The first is an id when a waiting request's id
     * starts so ({@link #id}), which only the directory can tell; the rest is the reason.
     */
    record Reject(List<String> words) implements Line {
      public Reject {
        words = List.copyOf(words);
      }

      @Override
      public boolean runOn(Commands commands) throws IOException {
        return commands.reject(this);
      }

      /** The first word, when it may be a request's id (hexadecimal digits). */
      public Optional<String> id() {
        return words.isEmpty() || !words.get(0).matches("[0-9a-f]+")
            ? Optional.empty()
            : Optional.of(words.get(0));
      }

      /** The reason, given whether the first word is an id. */
      public String reason(boolean firstIsId) {
        return String.join(" ", firstIsId ? words.subList(1, words.size()) : words);
      }
    }

    /** {@code sessions}: list the open sessions. */
    enum Sessions implements Line {
      INSTANCE;

      @Override
      public boolean runOn(Commands commands) {
        return commands.sessions();
      }
    }

    /** {@code session N}: make session {@code number} the active one. */
    record SwitchTo(String number) implements Line {
      @Override
      public boolean runOn(Commands commands) {
        return commands.switchTo(this);
      }
    }

    /** {@code exit}: end every session and leave. */
    enum Exit implements Line {
      INSTANCE;

      @Override
      public boolean runOn(Commands commands) {
        return commands.exit();
      }
    }

    /** {@code help}. */
    enum Help implements Line {
      INSTANCE;

      @Override
      public boolean runOn(Commands commands) {
        return commands.help();
      }
    }

    /** A line for the active session's console (stripped). */
    record ToSession(String text) implements Line {
      @Override
      public boolean runOn(Commands commands) {
        return commands.toSession(this);
      }
    }
  }

  /** Parses one line; throws {@link IllegalArgumentException} saying what is wrong. */
  public static Line parse(String line) {
    String text = line.strip();
    String[] words = text.isEmpty() ? new String[0] : text.split("\\s+");
    if (words.length == 0 || text.startsWith("#")) {
      return Line.Nothing.INSTANCE;
    }
    return switch (words[0]) {
      case "requests" -> requests(words);
      case "accept" -> accept(words);
      case "reject" -> new Line.Reject(List.of(words).subList(1, words.length));
      case "sessions" -> Line.Sessions.INSTANCE;
      case "session" -> {
        if (words.length != 2) {
          throw new IllegalArgumentException("session N: which session (sessions lists them)");
        }
        yield new Line.SwitchTo(words[1]);
      }
      case "exit" -> Line.Exit.INSTANCE;
      case "help" -> Line.Help.INSTANCE;
      default -> new Line.ToSession(text);
    };
  }

  private static Line requests(String[] words) {
    if (words.length > 1 && words[1].equals("wait")) {
      return new Line.Requests(
          Optional.of(words.length > 2 ? Durations.parse(words[2]) : Duration.ofSeconds(60)));
    } else if (words.length > 1) {
      throw new IllegalArgumentException("requests takes nothing, or: wait [TIMEOUT]");
    }
    return new Line.Requests(Optional.empty());
  }

  private static Line accept(String[] words) {
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
    return new Line.Accept(id, via);
  }
}

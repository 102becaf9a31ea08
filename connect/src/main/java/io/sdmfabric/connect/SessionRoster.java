package io.sdmfabric.connect;

import io.sdmfabric.frontend.Console;
import io.sdmfabric.frontend.RemoteSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The sessions {@code sdm listen} has open, each with its number (1, 2, ... in the order they were
 * accepted), and which one is active: the one its lines go to. When the active one ends, the last
 * opened of the others becomes active. Thread-safe: sessions end on their connections' threads.
 */
final class SessionRoster {

  /** A session accepted from a request. */
  record Entry(int number, ConnectRequest request, RemoteSession session, Console console) {}

  private final Consumer<String> say;
  private final List<Entry> sessions = new ArrayList<>();
  private Entry active;
  private int nextNumber = 1;
  private boolean closing;

  /** A roster that says when a session ended through {@code say}. */
  SessionRoster(Consumer<String> say) {
    this.say = say;
  }

  /** The number the next session gets. */
  synchronized int nextNumber() {
    return nextNumber++;
  }

  /** Adds an opened session and makes it the active one. */
  synchronized void add(Entry s) {
    sessions.add(s);
    active = s;
  }

  /** The active session, if any. */
  synchronized Optional<Entry> active() {
    return Optional.ofNullable(active);
  }

  /** Whether more than one session is open (their lines are numbered then). */
  synchronized boolean several() {
    return sessions.size() > 1;
  }

  /** The prompt: the active session and its focus, or none. */
  synchronized String prompt() {
    return active == null
        ? "sdm listen> "
        : "sdm " + active.number() + " [" + active.console().focus() + "]> ";
  }

  /** One line per open session, the active one marked {@code *}. */
  synchronized List<String> list() {
    List<String> lines = new ArrayList<>();
    if (sessions.isEmpty()) {
      lines.add("no sessions");
    }
    for (Entry s : sessions) {
      lines.add(
          (s == active ? "* " : "  ")
              + "session "
              + s.number()
              + ": "
              + s.session().size()
              + " ranks, "
              + s.session().welcome().getDescription());
    }
    return lines;
  }

  /** Makes the session numbered {@code number} the active one. */
  synchronized void switchTo(String number) {
    for (Entry s : sessions) {
      if (Integer.toString(s.number()).equals(number)) {
        active = s;
        return;
      }
    }
    throw new IllegalArgumentException("no session " + number + " (sessions lists them)");
  }

  /** Session {@code s} is over, for {@code reason}; says so once, unless all are closing. */
  void ended(Entry s, String reason) {
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
        say.accept("session " + s.number() + " ended: " + reason);
      }
    }
  }

  /** From now on endings are not said; returns the sessions open now, to be ended. */
  synchronized List<Entry> closeAll() {
    closing = true;
    return List.copyOf(sessions);
  }
}

package io.sdmfabric.connect;

import io.sdmfabric.frontend.RemoteSession;
import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.wire.HostPort;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;

/**
 * One job accepted on a listener of its own, for a front-end that debugs one job at a time (the
 * debug adapter's attach with {@code listen}): the first reverse connect request to arrive in
 * {@code ~/.sdm/connect} is accepted ({@link RequestAcceptance#acceptFirst}), on any free port of
 * this host's address, and the listener ends with the session.
 */
public final class ListenOnce {
  /** How long an accepted job has to start and connect. */
  private static final Duration START_LIMIT = Duration.ofMinutes(15);

  private ListenOnce() {}

  /**
   * The session of the first request to arrive within {@code wait}; what happens on the way is said
   * on {@code log}.
   *
   * @throws IOException when none arrives in time or its job does not connect; the message says why
   */
  public static RemoteSession accept(Duration wait, PrintStream log)
      throws IOException, InterruptedException {
    ConnectDirectory dir = ConnectDirectory.open();
    FrontEndListener listener =
        new FrontEndListener(
            HostPort.parse("0", ClusterSettings.localAddress()),
            ListenConsole.listenerWarnings(log));
    try {
      RemoteSession session =
          RequestAcceptance.acceptFirst(dir, listener, wait, log::println, START_LIMIT);
      session.onClosed(why -> listener.close()); // one job per listener
      return session;
    } catch (IOException | InterruptedException | RuntimeException e) {
      listener.close();
      throw e;
    }
  }
}

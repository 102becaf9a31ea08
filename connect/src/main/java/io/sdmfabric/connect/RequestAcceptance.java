package io.sdmfabric.connect;

import io.sdmfabric.frontend.RemoteSession;
import io.sdmfabric.wire.FrameConnection;
import java.io.IOException;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Accepting a reverse connect request: the answer in {@code ~/.sdm/connect} that tells the job's
 * master where to connect, then its connection proved with the request's secret, then the session
 * with it. {@code sdm listen} accepts the requests its user picks; {@code sdm dap} the first to
 * come.
 */
public final class RequestAcceptance {
  /** How long an accepted request's master has to connect. */
  static final Duration CONNECT_LIMIT = Duration.ofSeconds(60);

  private static final long POLL_MS = 200;

  private RequestAcceptance() {}

  /**
   * Accepts {@code r}: its master is to connect to {@code listener}, through the relay {@code via}
   * if there is one, within a minute; its job then has {@code startLimit} to start.
   *
   * @param say where progress goes, one line at a time
   * @throws IOException when the master does not connect or the session does not start, saying why
   */
  static RemoteSession accept(
      ConnectDirectory dir,
      FrontEndListener listener,
      ConnectRequest r,
      Optional<String> via,
      Consumer<String> say,
      Duration startLimit)
      throws IOException, InterruptedException {
    CompletableFuture<FrameConnection> connected = listener.expect(r.id(), r.secret());
    dir.accept(r.id(), listener.address(), via);
    say.accept(
        "accepted request "
            + r.id()
            + ": waiting for its master to connect to "
            + via.map(v -> listener.address() + " through " + v).orElse(listener.address()));
    FrameConnection c;
    try {
      c = connected.get(CONNECT_LIMIT.toSeconds(), TimeUnit.SECONDS);
    } catch (TimeoutException | ExecutionException e) {
      listener.forget(r.id());
      throw new IOException(
          "the master of request "
              + r.id()
              + " did not connect within "
              + CONNECT_LIMIT.toSeconds()
              + " s: can "
              + r.host()
              + " reach "
              + listener.address()
              + "? If not, start sdm relay on a node both reach and use sdm connect --via");
    }
    return RemoteSession.open(c, line -> say.accept("request " + r.id() + ": " + line), startLimit);
  }

  /**
   * Waits up to {@code wait} for a request, and accepts the oldest waiting (its master connects
   * directly to {@code listener}).
   *
   * @throws IOException when none comes in time, or as {@link #accept}
   */
  public static RemoteSession acceptFirst(
      ConnectDirectory dir,
      FrontEndListener listener,
      Duration wait,
      Consumer<String> say,
      Duration startLimit)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    say.accept("waiting for a reverse connect request (sdm connect) in " + dir.dir());
    while (true) {
      List<ConnectRequest> pending = dir.pending(w -> {});
      Optional<ConnectRequest> oldest =
          pending.stream().min(Comparator.comparing(ConnectRequest::created));
      if (oldest.isPresent()) {
        say.accept("request " + oldest.get().id() + ": " + oldest.get().describe());
        return accept(dir, listener, oldest.get(), Optional.empty(), say, startLimit);
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("no reverse connect request came within " + wait.toSeconds() + " s");
      }
      Thread.sleep(POLL_MS);
    }
  }
}

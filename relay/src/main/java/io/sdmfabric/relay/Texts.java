package io.sdmfabric.relay;

import io.sdmfabric.wire.HostPort;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

/** How the relay's log lines write sockets, errors and durations. */
final class Texts {
  private Texts() {}

  /** The other end of {@code socket}, as {@code ADDR:PORT}. */
  static String peer(Socket socket) {
    return socket.getRemoteSocketAddress() instanceof InetSocketAddress a
        ? HostPort.of(a).toString()
        : String.valueOf(socket.getRemoteSocketAddress());
  }

  /** The exception's message, or its type when it has none. */
  static String describe(IOException e) {
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  /**
   * {@code d} in the largest unit that writes it whole: {@code 12 h}, {@code 90 s}, {@code 250 ms}.
   */
  static String duration(Duration d) {
    long ms = d.toMillis();
    if (ms % 1000 != 0 || ms == 0) {
      return ms + " ms";
    }
    long s = ms / 1000;
    if (s % 3600 == 0) {
      return s / 3600 + " h";
    }
    if (s % 60 == 0) {
      return s / 60 + " min";
    }
    return s + " s";
  }
}

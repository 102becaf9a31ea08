package io.sdmfabric.connect;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;

/**
 * A hostile hop for one connection, as a relay or a router on the path could be: it forwards bytes
 * both ways between the side that dials it and {@code target}, and once {@link #arm armed} passes
 * every chunk that the target sends through {@code tamper}, which may change, drop or add bytes.
 */
final class TamperingProxy implements AutoCloseable {
  private final ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
  private final AtomicBoolean armed = new AtomicBoolean();
  private volatile Socket dialer;
  private volatile Socket toTarget;

  TamperingProxy(int target, UnaryOperator<byte[]> tamper) throws IOException {
    Thread t =
        new Thread(
            () -> {
              try {
                dialer = server.accept();
                toTarget = new Socket(InetAddress.getLoopbackAddress(), target);
                pump(dialer.getInputStream(), toTarget.getOutputStream(), UnaryOperator.identity());
                pump(toTarget.getInputStream(), dialer.getOutputStream(), tamper);
              } catch (IOException e) {
                // Closed: the test's own assertions say what went wrong.
              }
            },
            "proxy");
    t.setDaemon(true);
    t.start();
  }

  int port() {
    return server.getLocalPort();
  }

  /** From now on the target's bytes go through {@code tamper}. */
  void arm() {
    armed.set(true);
  }

  private void pump(InputStream from, OutputStream to, UnaryOperator<byte[]> tamper) {
    Thread t =
        new Thread(
            () -> {
              byte[] buffer = new byte[16384];
              try {
                for (int n; (n = from.read(buffer)) > 0; ) {
                  byte[] chunk = Arrays.copyOf(buffer, n);
                  to.write(armed.get() ? tamper.apply(chunk) : chunk);
                  to.flush();
                }
              } catch (IOException e) {
                // One side closed: the other learns it from its own socket.
              }
            },
            "proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket s : new Socket[] {dialer, toTarget}) {
      if (s != null) {
        s.close();
      }
    }
  }
}

package io.sdmfabric.relay;

import io.sdmfabric.relay.BytePattern.Received;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The ends of the connections in {@code SdmRelayIT} (in cli), run as their own processes inside
 * network namespaces ({@code ip netns exec NS java -cp target/test-classes
 * io.sdmfabric.launch.RelayPeer ...}); it needs nothing but the JDK. One line on standard output
 * per event, for the test to read:
 *
 * <ul>
 *   <li>{@code serve ADDR PORT}: an echo server; prints {@code listening ADDR:PORT}, then for each
 *       connection, once its client has half-closed and everything is echoed, {@code connection
 *       SEED received BYTES SHA256} (SEED: the stream's first 8 bytes, see {@link BytePattern}).
 *       Runs until killed.
 *   <li>{@code send HOST PORT CONNECTIONS BYTES}: that many connections at once, each sending the
 *       pattern of seed 1, 2 ... while reading the echo, then half-closing; prints {@code
 *       connection SEED sent BYTES SHA256 received BYTES SHA256} for each, exit status 0. When a
 *       connection cannot be made within 3 s: {@code cannot connect to HOST:PORT: WHY}, exit 3.
 *   <li>{@code hold HOST PORT}: one connection, one byte there and back ({@code connected}), then
 *       reads until the connection ends ({@code ended}, exit 0) or a minute has passed ({@code
 *       still open}, exit 4).
 * </ul>
 */
public final class RelayPeer {
  private static final int CONNECT_TIMEOUT_MS = 3_000;

  private RelayPeer() {}

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "serve" -> serve(args[1], Integer.parseInt(args[2]));
      case "send" ->
          System.exit(send(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]), args[4]));
      case "hold" -> System.exit(hold(args[1], Integer.parseInt(args[2])));
      default -> throw new IllegalArgumentException("serve, send or hold, not " + args[0]);
    }
  }

  private static void serve(String address, int port) throws IOException {
    ServerSocket server = new ServerSocket();
    server.bind(new InetSocketAddress(address, port));
    System.out.println("listening " + address + ":" + server.getLocalPort());
    while (true) {
      Socket s = server.accept();
      Thread t = new Thread(() -> echo(s));
      t.setDaemon(true);
      t.start();
    }
  }

  private static void echo(Socket s) {
    try (s) {
      InputStream in = s.getInputStream();
      OutputStream out = s.getOutputStream();
      MessageDigest sha = BytePattern.sha256();
      ByteBuffer head = ByteBuffer.allocate(Long.BYTES);
      long bytes = 0;
      byte[] buffer = new byte[64 * 1024];
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        head.put(buffer, 0, Math.min(n, head.remaining()));
        sha.update(buffer, 0, n);
        bytes += n;
        out.write(buffer, 0, n);
      }
      s.shutdownOutput();
      System.out.println(
          "connection "
              + head.flip().getLong()
              + " received "
              + bytes
              + " "
              + HexFormat.of().formatHex(sha.digest()));
    } catch (IOException | RuntimeException e) {
      System.out.println("connection failed: " + e);
    }
  }

  private static int send(String host, int port, int connections, String size) throws Exception {
    long bytes = Long.parseLong(size);
    List<Socket> sockets = new ArrayList<>();
    ExecutorService pool = Executors.newCachedThreadPool();
    try {
      for (int i = 0; i < connections; i++) {
        Socket s = new Socket();
        sockets.add(s);
        try {
          s.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
        } catch (IOException e) {
          System.out.println("cannot connect to " + host + ":" + port + ": " + e.getMessage());
          return 3;
        }
      }
      List<Future<String>> results = new ArrayList<>();
      for (int i = 0; i < connections; i++) {
        Socket s = sockets.get(i);
        long seed = i + 1;
        Future<String> sent = pool.submit(() -> write(s, seed, bytes));
        results.add(
            pool.submit(
                () -> {
                  Received got = Received.readAll(s.getInputStream(), new byte[0]);
                  return "connection "
                      + seed
                      + " sent "
                      + bytes
                      + " "
                      + sent.get()
                      + " received "
                      + got.bytes()
                      + " "
                      + got.digest();
                }));
      }
      for (Future<String> r : results) {
        System.out.println(r.get(2, TimeUnit.MINUTES));
      }
      return 0;
    } finally {
      for (Socket s : sockets) {
        s.close();
      }
      pool.shutdownNow();
    }
  }

  private static String write(Socket s, long seed, long size) throws IOException {
    BytePattern pattern = new BytePattern(seed);
    byte[] buffer = new byte[64 * 1024];
    OutputStream out = s.getOutputStream();
    for (long left = size; left > 0; left -= buffer.length) {
      int n = (int) Math.min(left, buffer.length);
      pattern.fill(buffer, 0, n);
      out.write(buffer, 0, n);
    }
    s.shutdownOutput();
    return pattern.digest();
  }

  private static int hold(String host, int port) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
      s.setSoTimeout(60_000);
      s.getOutputStream().write(42);
      if (s.getInputStream().read() != 42) {
        System.out.println("no echo");
        return 5;
      }
      System.out.println("connected");
      try {
        while (s.getInputStream().read() >= 0) {
          // Nothing more is sent; anything that comes is read and dropped.
        }
      } catch (java.net.SocketTimeoutException e) {
        System.out.println("still open");
        return 4;
      } catch (IOException e) {
        // Reset rather than closed: ended either way.
      }
      System.out.println("ended");
      return 0;
    }
  }
}

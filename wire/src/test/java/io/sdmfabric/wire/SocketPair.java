package io.sdmfabric.wire;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** Two ends of one real loopback TCP connection, for tests. */
record SocketPair(Socket dialer, Socket answerer) implements AutoCloseable {
  static SocketPair open() throws IOException {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Socket dialer = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
      return new SocketPair(dialer, server.accept());
    }
  }

  @Override
  public void close() throws IOException {
    dialer.close();
    answerer.close();
  }
}

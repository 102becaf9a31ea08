package io.sdmfabric.server;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The host this JVM serves ranks on, as a rank's {@code process_info} reply names it: the kernel's
 * host name of this JVM's UTS namespace, read once from {@code /proc} (no name service is asked, so
 * that a broken DNS cannot hold a reply), else Java's own idea of it.
 */
final class ThisHost {
  /** This host's name. */
  static final String NAME = read();

  /** The pid of this JVM: the agent's, or the master's when it serves ranks itself. */
  static final int SERVER_PID = (int) ProcessHandle.current().pid();

  private ThisHost() {}

  private static String read() {
    try {
      String name =
          Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.UTF_8).strip();
      if (!name.isEmpty()) {
        return name;
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux, or no /proc: ask Java.
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "localhost";
    }
  }
}

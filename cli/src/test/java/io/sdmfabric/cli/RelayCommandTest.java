package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code sdm relay} on bad input: one line on standard error and exit status 2. */
class RelayCommandTest {
  private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "--listen 70000 --to 127.0.0.1:9 | not [HOST:]PORT: 70000 (port 70000 is not between",
        "--listen x --to 127.0.0.1:9 | not [HOST:]PORT: x",
        "--listen 0 | --to HOST:PORT is missing",
        "--to 127.0.0.1:9 | --listen [ADDR:]PORT is missing",
        "--listen 0 --to 127.0.0.1 | not HOST:PORT: 127.0.0.1",
        "--listen 0 --to 127.0.0.1:0 | port 0 cannot be connected to",
        "--listen 0 --to 127.0.0.1:99999 | port 99999 is not between 0 and 65535",
        "--listen 0 --to nohost.invalid:80 | cannot resolve nohost.invalid",
        "--listen 0 --to 127.0.0.1:9 --max-connections 0 | --max-connections must be at least 1",
      })
  void badInputIsOneLineAndExitStatusTwo(String args, String message) {
    assertOneLineError(message, args.split(" "));
  }

  @Test
  void anAddressInUseIsOneLineAndExitStatusTwo() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, LOOPBACK)) {
      assertOneLineError(
          "Address already in use",
          "--listen",
          "127.0.0.1:" + taken.getLocalPort(),
          "--to",
          "127.0.0.1:9");
    }
  }

  private static void assertOneLineError(String message, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> all = new ArrayList<>(List.of("relay"));
    all.addAll(List.of(args));
    int status =
        Main.execute(
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            all.toArray(String[]::new));
    String printed = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, status, printed);
    assertEquals(1, printed.lines().count(), "one line, not\n" + printed);
    assertTrue(printed.startsWith("sdm relay: "), printed);
    assertTrue(printed.contains(message), "\"" + message + "\" missing in " + printed);
    assertEquals("", out.toString(StandardCharsets.UTF_8));
  }
}

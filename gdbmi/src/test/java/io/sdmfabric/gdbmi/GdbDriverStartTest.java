package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("gdb")
class GdbDriverStartTest {
  @Test
  void aMissingGdbIsAClearError() {
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                GdbDriver.start(
                    GdbOptions.defaults().withExecutable("/no/such/gdb"), new MiListener() {}));
    assertTrue(e.getMessage().contains("is gdb installed"), e.getMessage());
  }

  @Test
  void anExitStatusNamesTheSignalThatEndedTheProcess() {
    assertEquals("killed by SIGKILL", GdbProcess.exitStatus(137));
    assertEquals("killed by SIGSEGV", GdbProcess.exitStatus(139));
    assertEquals("killed by signal 31", GdbProcess.exitStatus(159));
    assertEquals("exit code 1", GdbProcess.exitStatus(1));
    assertEquals("exit code 0", GdbProcess.exitStatus(0));
    assertEquals("exit code 128", GdbProcess.exitStatus(128));
  }
}

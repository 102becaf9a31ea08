package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

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
}

package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class MiCommandTest {
  @Test
  void quotesParametersOnlyWhenNeeded() {
    assertEquals(
        "-break-insert -f -c \"x > 5\" main.c:12",
        MiCommand.of("-break-insert")
            .option("-f")
            .option("-c")
            .param("x > 5")
            .param("main.c:12")
            .text());
    assertEquals("\"\"", MiCommand.quote(""));
    assertEquals("\"-x\"", MiCommand.quote("-x"));
    assertEquals("\"a\\\"b\\\\c\\nd\\001\"", MiCommand.quote("a\"b\\c\nd\u0001"));
  }

  @Test
  void rejectsWhatIsNotAnOperation() {
    assertThrows(IllegalArgumentException.class, () -> MiCommand.of("break-insert"));
    assertThrows(IllegalArgumentException.class, () -> MiCommand.of("-a b"));
  }
}

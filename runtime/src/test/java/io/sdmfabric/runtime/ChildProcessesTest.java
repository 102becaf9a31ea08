package io.sdmfabric.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.runtime.launch.Executables;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A launcher sdm starts leads a session of its own, out of the terminal's foreground process group
 * (a Ctrl-C at sdm's prompt must not reach mpirun); a missing one is still said to be missing.
 */
class ChildProcessesTest {

  /** The session id of process {@code pid}: field 6 of /proc/PID/stat. */
  private static String sessionOf(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.US_ASCII);
    return stat.substring(stat.lastIndexOf(')') + 2).split(" ")[3];
  }

  @Test
  void aChildLeadsASessionOfItsOwn() throws Exception {
    Assumptions.assumeTrue(
        Files.isExecutable(Path.of("/usr/bin/setsid"))
            || Files.isExecutable(Path.of("/bin/setsid")),
        "no setsid(1) here");
    Process p = ChildProcesses.start(List.of("sleep", "30"), Map.of(), false);
    try {
      String own = sessionOf(ProcessHandle.current().pid());
      // setsid may take a moment between its start and the exec of sleep: the pid is the same.
      String child = sessionOf(p.pid());
      for (int i = 0; i < 50 && child.equals(own); i++) {
        Thread.sleep(20);
        child = sessionOf(p.pid());
      }
      assertNotEquals(own, child, "the child's session");
      assertEquals(Long.toString(p.pid()), child, "the child leads its session");
    } finally {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aProgramThatIsNotThereIsSaidToBeMissing() {
    IOException e =
        assertThrows(
            IOException.class,
            () -> ChildProcesses.start(List.of("no-such-launcher-xyz"), Map.of(), false));
    assertTrue(e.getMessage().startsWith("cannot run no-such-launcher-xyz: is it installed"));
  }

  @Test
  void aNameIsLookedUpOnThePathAndAPathIsTakenAsItIs() {
    assertTrue(Executables.find("sh", "/nowhere:/bin:/usr/bin").isPresent());
    assertFalse(Executables.find("sh", "/nowhere").isPresent());
    assertTrue(Executables.find("/bin/sh", "/nowhere").isPresent());
    assertFalse(Executables.find("/bin", "/nowhere").isPresent(), "a directory");
  }
}

package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FrozenProcessesTest {
  private Process sleeper;

  @AfterEach
  void end() {
    if (sleeper != null) {
      sleeper.destroyForcibly();
    }
  }

  private long sleeper() throws IOException {
    sleeper = new ProcessBuilder("sleep", "300").start();
    return sleeper.pid();
  }

  /** The process's state letter in /proc, once it is {@code wanted} (or the last seen in 20 s). */
  private static char awaitState(long pid, char wanted) throws Exception {
    char state = '?';
    for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20); System.nanoTime() < end; ) {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      state = stat.substring(stat.lastIndexOf(')') + 1).strip().charAt(0);
      if (state == wanted) {
        break;
      }
      Thread.sleep(20);
    }
    return state;
  }

  private static void signal(String name, long pid) throws Exception {
    assertEquals(0, new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start().waitFor());
  }

  @Test
  void aRunningProcessStandsStillUntilLetGo() throws Exception {
    long pid = sleeper();
    awaitState(pid, 'S');
    try (FrozenProcesses frozen = FrozenProcesses.freeze(List.of(pid))) {
      assertEquals(1, frozen.count());
      assertEquals('T', awaitState(pid, 'T'));
      frozen.thaw(pid);
      assertEquals(0, frozen.count());
      assertEquals('S', awaitState(pid, 'S'));
    }
  }

  @Test
  void closingLetsGoEveryProcessStillStopped() throws Exception {
    long pid = sleeper();
    awaitState(pid, 'S');
    FrozenProcesses frozen = FrozenProcesses.freeze(List.of(pid, Long.MAX_VALUE / 2));
    assertEquals(1, frozen.count(), "a process that is not there is not held");
    assertEquals('T', awaitState(pid, 'T'));
    frozen.close();
    assertEquals('S', awaitState(pid, 'S'));
  }

  @Test
  void aProcessStoppedAlreadyIsLeftAsItIs() throws Exception {
    long pid = sleeper();
    signal("STOP", pid);
    assertEquals('T', awaitState(pid, 'T'));
    FrozenProcesses frozen = FrozenProcesses.freeze(List.of(pid));
    assertEquals(0, frozen.count());
    frozen.close();
    frozen.thaw(pid);
    Thread.sleep(200); // a SIGCONT sent by mistake would have taken effect by now
    assertEquals('T', awaitState(pid, 'T'), "still stopped by its own user");
  }

  @Test
  void aJvmKilledWhileHoldingThemLetsThemGo() throws Exception {
    long pid = sleeper();
    awaitState(pid, 'S');
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                FreezeAndWait.class.getName(),
                Long.toString(pid))
            .redirectErrorStream(true)
            .start();
    try {
      BufferedReader lines =
          new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      assertEquals("frozen 1", lines.readLine());
      assertEquals('T', awaitState(pid, 'T'));
      child.destroyForcibly(); // SIGKILL: no shutdown hook runs
      child.waitFor(30, TimeUnit.SECONDS);
      assertEquals('S', awaitState(pid, 'S'), "its guard let it go");
    } finally {
      child.destroyForcibly();
    }
  }
}

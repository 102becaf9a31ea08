package io.sdmfabric.runtime.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finding processes' ranks on this host and through a remote shell. The remote shell here runs the
 * command on this host, through sh and with an empty environment, as ssh runs it on another.
 */
class ProcessProbeTest {
  private final List<Process> started = new ArrayList<>();

  @TempDir Path dir;

  @AfterEach
  void end() throws Exception {
    for (Process p : started) {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private Process sleeper(Map<String, String> env) throws IOException {
    ProcessBuilder b = new ProcessBuilder("sleep", "60");
    b.environment().putAll(env);
    Process p = b.start();
    started.add(p);
    return p;
  }

  /** A remote shell that runs the command here: {@code rsh HOST COMMAND}. */
  private List<String> rsh() throws IOException {
    Path rsh = dir.resolve("rsh");
    Files.writeString(rsh, "#!/bin/sh\nshift\nexec env -i PATH=\"$PATH\" sh -c \"$*\"\n");
    Files.setPosixFilePermissions(rsh, PosixFilePermissions.fromString("rwx------"));
    return List.of(rsh.toString());
  }

  @Test
  void findsTheRanksOfThisHostsProcesses() throws Exception {
    Process a = sleeper(Map.of("PMIX_RANK", "1", "OMPI_COMM_WORLD_SIZE", "2"));
    Process b = sleeper(Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "2"));
    List<ProcessProbe.Found> found =
        ProcessProbe.probe(
            new AttachTargets.Host("localhost", List.of(a.pid(), b.pid())), List.of("ssh"));
    assertEquals(new RankEnvironment(1, 2, ""), found.get(0).env());
    assertEquals(new RankEnvironment(0, 2, ""), found.get(1).env());
    assertEquals(Long.toString(a.pid()), found.get(0).name());
    assertTrue(found.get(0).executable().endsWith("sleep"), found.get(0).executable());
  }

  @Test
  void findsTheRanksOfAnotherHostsProcessesThroughTheRemoteShell() throws Exception {
    Process a =
        sleeper(
            Map.of("SLURM_PROCID", "3", "SLURM_NTASKS", "4", "PMIX_NAMESPACE", "slurm.pmix.9.0"));
    Process b = sleeper(Map.of("PMI_RANK", "0", "PMI_SIZE", "4", "PMIX_NAMESPACE", "x'y"));
    List<ProcessProbe.Found> found =
        ProcessProbe.probe(new AttachTargets.Host("node7", List.of(a.pid(), b.pid())), rsh());
    assertEquals(2, found.size());
    assertEquals(new RankEnvironment(3, 4, "slurm.pmix.9.0"), found.get(0).env());
    assertEquals(new RankEnvironment(0, 4, "x'y"), found.get(1).env());
    assertEquals("node7:" + a.pid(), found.get(0).name());
    assertTrue(found.get(1).executable().endsWith("sleep"), found.get(1).executable());
  }

  @Test
  void anotherHostsProcessWithoutARankOrNotThereIsNamedWithItsHost() throws Exception {
    Process ranked = sleeper(Map.of("PMI_RANK", "0"));
    Process plain = sleeper(Map.of());
    IOException none =
        assertThrows(
            IOException.class,
            () ->
                ProcessProbe.probe(
                    new AttachTargets.Host("node7", List.of(ranked.pid(), plain.pid())), rsh()));
    assertTrue(
        none.getMessage()
            .matches("process node7:" + plain.pid() + " \\(.*sleep\\) has no MPI rank .*"),
        none.getMessage());
    plain.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    IOException gone =
        assertThrows(
            IOException.class,
            () -> ProcessProbe.probe(new AttachTargets.Host("node7", List.of(plain.pid())), rsh()));
    assertEquals("no process " + plain.pid() + " on node7", gone.getMessage());
  }

  @Test
  void aRemoteShellThatFailsIsReportedWithWhatItSaid() throws Exception {
    Path failing = dir.resolve("failing-rsh");
    Files.writeString(
        failing, "#!/bin/sh\necho \"ssh: connect to host $1: refused\" >&2\nexit 255\n");
    Files.setPosixFilePermissions(failing, PosixFilePermissions.fromString("rwx------"));
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                ProcessProbe.probe(
                    new AttachTargets.Host("node7", List.of(1L)), List.of(failing.toString())));
    assertEquals(
        "could not look at the processes of node7: ssh: connect to host node7: refused",
        e.getMessage());
  }
}

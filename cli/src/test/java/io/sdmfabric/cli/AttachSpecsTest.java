package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sdmfabric.server.FabricConfig;
import java.io.PrintStream;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AttachSpecsTest {
  private static final PrintStream QUIET = new PrintStream(java.io.OutputStream.nullOutputStream());

  private static io.sdmfabric.runtime.PmixSession.AttachSpec pmix(String arg) {
    return AttachSpecs.pmix(
        arg, new DistributedOptions(), new GdbSharingOptions(), FabricConfig.defaults(), QUIET);
  }

  @Test
  void pmixTakesTheLaunchersPidAndTheJobsNamespaceWhenGiven() {
    assertEquals(4700, pmix("4700").launcher());
    assertEquals(Optional.empty(), pmix("4700").namespace());
    assertEquals(Optional.of("prterun-vm-4700@1"), pmix("4700:prterun-vm-4700@1").namespace());
  }

  @Test
  void pmixWithoutAPidIsRefusedSayingWhatItNeeds() {
    for (String bad : new String[] {"", "mpirun", "-3", "0", "4700:"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> pmix(bad), bad);
      assertEquals(
          "--pmix needs the launcher's pid, and its job's namespace if it runs several:"
              + " PID[:NAMESPACE], not "
              + bad,
          e.getMessage());
    }
  }
}

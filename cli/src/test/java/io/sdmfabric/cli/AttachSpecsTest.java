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
  void pmixTakesTheLaunchersPidOrAServersUriAndTheJobsNamespaceWhenGiven() {
    assertEquals("4700", pmix("4700").server());
    assertEquals(Optional.empty(), pmix("4700").namespace());
    assertEquals(Optional.of("prterun-vm-4700@1"), pmix("4700:prterun-vm-4700@1").namespace());
    String uri = "prte-vm-31034@0.0;tcp4://127.0.0.1:41379";
    assertEquals(uri, pmix(uri).server());
    assertEquals(Optional.empty(), pmix(uri).namespace());
    assertEquals(uri, pmix(uri + "#prte-vm-31034@2").server());
    assertEquals(Optional.of("prte-vm-31034@2"), pmix(uri + "#prte-vm-31034@2").namespace());
  }

  @Test
  void pmixWithoutAPidIsRefusedSayingWhatItNeeds() {
    for (String bad : new String[] {"", "mpirun", "-3", "0", "4700:", "tcp4://h:1#"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> pmix(bad), bad);
      assertEquals(
          "--pmix needs the launcher's pid or a PMIx server's URI, and its job's namespace if it"
              + " runs several: PID[:NAMESPACE] or URI[#NAMESPACE], not "
              + bad,
          e.getMessage());
    }
  }
}

package io.sdmfabric.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sdmfabric.server.FabricConfig;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** {@link SessionFactory#open}: requests that mix what does not go together start nothing. */
class SessionFactoryTest {
  private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

  private static String refusal(
      Optional<String> launcher,
      Optional<String> family,
      List<String> launcherOptions,
      OptionalLong dvm) {
    LaunchRequest request =
        new LaunchRequest(
            2,
            "/bin/true",
            List.of(),
            launcher,
            family,
            launcherOptions,
            dvm,
            1,
            false,
            DistributedSettings.DEFAULTS,
            FabricConfig.defaults());
    return assertThrows(IllegalArgumentException.class, () -> SessionFactory.open(request, QUIET))
        .getMessage();
  }

  @Test
  void aDvmTakesNoLauncher() {
    assertEquals(
        "--dvm starts the job in the DVM: no --launcher, --launcher-family or launcher options",
        refusal(Optional.of("mpirun"), Optional.empty(), List.of(), OptionalLong.of(4700)));
  }

  @Test
  void aLauncherFamilyNeedsALauncher() {
    assertEquals(
        "--launcher-family needs --launcher",
        refusal(Optional.empty(), Optional.of("mpich"), List.of(), OptionalLong.empty()));
  }

  @Test
  void launcherOptionsNeedALauncher() {
    assertEquals(
        "unknown options --oversubscribe -x (launcher options need --launcher)",
        refusal(
            Optional.empty(),
            Optional.empty(),
            List.of("--oversubscribe", "-x"),
            OptionalLong.empty()));
  }

  @Test
  void theWireUpIsCheckedBeforeTheLauncherIsAsked() {
    LaunchRequest request =
        new LaunchRequest(
            2,
            "/bin/true",
            List.of(),
            Optional.of("no-such-launcher"),
            Optional.empty(),
            List.of(),
            OptionalLong.empty(),
            1,
            false,
            new DistributedSettings("tls-tcp", false, Optional.empty(), 0),
            FabricConfig.defaults());
    assertEquals(
        "--wire-up needs at least 1 second",
        assertThrows(IllegalArgumentException.class, () -> SessionFactory.open(request, QUIET))
            .getMessage());
  }
}

package io.sdmfabric.cli;

import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.runtime.DistributedMaster;
import io.sdmfabric.runtime.DistributedSettings;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The options of a session whose ranks are served by agent JVMs ({@code sdm debug --launcher},
 * {@code sdm stacks --launcher}, {@code sdm attach}): how the JVMs talk, where the nodes reach the
 * master, and how long to wait for the ranks. What they mean is {@link DistributedSettings}'s.
 */
final class DistributedOptions {
  @Option(
      names = "--transport",
      paramLabel = "NAME",
      description =
          "between the JVMs of a launched or attached job: tls-tcp (encrypted, authenticated),"
              + " aeron-udp (every message sealed, not TLS) or insecure-tcp (for a"
              + " trusted test network only: anyone who reaches it runs commands as you)"
              + " (default: ${DEFAULT-VALUE})")
  String transport = DistributedSettings.DEFAULTS.transport();

  @Option(
      names = "--secrets-in-clear",
      description =
          "send the session's secret and keystore to the agents in the launcher's environment"
              + " (mpirun and srun pass it to other nodes in clear: anyone on the network can then"
              + " take over the session), for nodes that do not share your sdm home; by default"
              + " the agents read them from a private directory of your sdm home, which every node"
              + " must share")
  boolean secretsInClear;

  @Option(
      names = "--address",
      paramLabel = "HOST",
      description =
          "this host's address as the job's nodes reach it (default: the address this host sends"
              + " from to the job's nodes)")
  String address;

  @Option(
      names = "--wire-up",
      paramLabel = "SECONDS",
      description =
          "how long to wait for every rank of a launched or attached job; then go on with those"
              + " there (default: ${DEFAULT-VALUE})")
  int wireUpSeconds = DistributedSettings.DEFAULTS.wireUpSeconds();

  /** The settings as given, checked when a session with agents reads them. */
  DistributedSettings settings() {
    return new DistributedSettings(
        transport, secretsInClear, Optional.ofNullable(address), wireUpSeconds);
  }

  /** {@link DistributedSettings#transport}. */
  ClusterSettings.Transport transport(PrintStream err) {
    return settings().transport(err);
  }

  /** {@link DistributedSettings#keys}. */
  DistributedMaster.KeyPassing keys(PrintStream err) {
    return settings().keys(err);
  }

  /** {@link DistributedSettings#wireUp}. */
  Duration wireUp() {
    return settings().wireUp();
  }
}

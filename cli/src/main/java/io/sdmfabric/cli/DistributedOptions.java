package io.sdmfabric.cli;

import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.runtime.DistributedMaster;
import java.io.PrintStream;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The options of a session whose ranks are served by agent JVMs ({@code sdm debug --launcher},
 * {@code sdm stacks --launcher}, {@code sdm attach}): how the JVMs talk, where the nodes reach the
 * master, and how long to wait for the ranks.
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
  String transport = "tls-tcp";

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
  int wireUpSeconds = 120;

  /**
   * The transport; what a transport other than the default leaves exposed is said on {@code err}.
   *
   * @throws IllegalArgumentException for an unknown one
   */
  ClusterSettings.Transport transport(PrintStream err) {
    ClusterSettings.Transport t = ClusterSettings.Transport.named(transport);
    if (t == ClusterSettings.Transport.INSECURE_TCP) {
      err.println(
          "sdm: WARNING: insecure-tcp: the job's JVMs talk in clear and without authentication;"
              + " anyone who reaches their ports can read the session and run commands as you on"
              + " every rank");
    } else if (t == ClusterSettings.Transport.AERON_UDP) {
      err.println(
          "sdm: aeron-udp: every message is sealed with a key from the session's secret, but"
              + " not by TLS: an eavesdropper sees which actors talk and when (not what), and a"
              + " copied heartbeat can hide a lost node for a minute; nobody outside the session"
              + " can read it or run commands");
    }
    return t;
  }

  /** How the agents get the session's secrets; sending them in clear is said on {@code err}. */
  DistributedMaster.KeyPassing keys(PrintStream err) {
    if (!secretsInClear) {
      return DistributedMaster.KeyPassing.SHARED_HOME;
    }
    err.println(
        "sdm: WARNING: --secrets-in-clear: the session's secret and keystore travel to the agents"
            + " in the launcher's environment, which it sends to other nodes in clear; anyone who"
            + " reads the network can then run commands as you on every rank");
    return DistributedMaster.KeyPassing.ENVIRONMENT_IN_CLEAR;
  }

  /**
   * The wire-up time.
   *
   * @throws IllegalArgumentException when it is under a second
   */
  Duration wireUp() {
    if (wireUpSeconds < 1) {
      throw new IllegalArgumentException("--wire-up needs at least 1 second");
    }
    return Duration.ofSeconds(wireUpSeconds);
  }
}

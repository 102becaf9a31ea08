package io.sdmfabric.runtime;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the JVMs of a job served by agents talk, as the user gave it ({@code --transport}, {@code
 * --secrets-in-clear}, {@code --address}, {@code --wire-up}): kept as given and read only when a
 * session has agents, so that a session in this JVM neither checks nor warns about them.
 *
 * @param transport the transport's name ({@link ClusterSettings.Transport#named})
 * @param secretsInClear whether the agents get the session's secrets in their environment
 * @param address this host's address as the job's nodes reach it; empty: the address this host
 *     sends from to them
 * @param wireUpSeconds how long to wait for every rank
 */
public record DistributedSettings(
    String transport, boolean secretsInClear, Optional<String> address, int wireUpSeconds) {

  /** Each setting's default. */
  public static final DistributedSettings DEFAULTS =
      new DistributedSettings("tls-tcp", false, Optional.empty(), 120);

  public DistributedSettings {
    Objects.requireNonNull(transport, "transport");
    Objects.requireNonNull(address, "address");
  }

  /**
   * The transport; what a transport other than the default leaves exposed is said on {@code err}.
   *
   * @throws IllegalArgumentException for an unknown one
   */
  public ClusterSettings.Transport transport(PrintStream err) {
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
  public DistributedMaster.KeyPassing keys(PrintStream err) {
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
  public Duration wireUp() {
    if (wireUpSeconds < 1) {
      throw new IllegalArgumentException("--wire-up needs at least 1 second");
    }
    return Duration.ofSeconds(wireUpSeconds);
  }

  /**
   * The address for the sessions' specs, which take null for "the address this host sends from".
   */
  String addressOrNull() {
    return address.orElse(null);
  }
}

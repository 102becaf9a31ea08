package io.sdmfabric.cli;

import io.sdmfabric.runtime.ClusterSettings;
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
          "between the JVMs of a launched or attached job: tcp, aeron-udp or tls-tcp"
              + " (default: ${DEFAULT-VALUE})")
  String transport = "tcp";

  @Option(
      names = "--address",
      paramLabel = "HOST",
      description = "this host's address as the job's nodes reach it (default: ${DEFAULT-VALUE})")
  String address = ClusterSettings.localAddress();

  @Option(
      names = "--wire-up",
      paramLabel = "SECONDS",
      description =
          "how long to wait for every rank of a launched or attached job; then go on with those"
              + " there (default: ${DEFAULT-VALUE})")
  int wireUpSeconds = 120;

  /**
   * The transport.
   *
   * @throws IllegalArgumentException for an unknown one
   */
  ClusterSettings.Transport artery() {
    return ClusterSettings.Transport.named(transport);
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

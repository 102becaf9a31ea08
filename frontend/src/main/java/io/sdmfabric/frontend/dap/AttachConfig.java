package io.sdmfabric.frontend.dap;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a DAP {@code attach} request asks for, read from its arguments: either the running processes
 * of a job ({@code targets}: {@code "HOST:PID,PID"} or {@code "PID"} as {@code sdm attach} takes
 * them, reached through {@code rsh}; or a Slurm step, {@code "JOBID[.STEP]"}), which stay stopped
 * where they were until the client resumes them and run on when it disconnects; or ({@code
 * "listen": true}) the next reverse connect request of a batch job ({@code sdm connect}), accepted
 * and started like a launch.
 */
public record AttachConfig(
    List<String> targets,
    String slurm,
    String rsh,
    boolean listen,
    int listenSeconds,
    String cwd,
    boolean stopOnEntry,
    int threadPerRankUpTo) {

  /** How long a listening attach waits for a request, unless the configuration says. */
  static final int LISTEN_SECONDS = 600;

  public AttachConfig {
    targets = List.copyOf(targets);
    Objects.requireNonNull(slurm, "slurm");
    Objects.requireNonNull(rsh, "rsh");
  }

  /**
   * Reads an attach request's arguments.
   *
   * @throws IllegalArgumentException saying which attribute is missing or wrong
   */
  static AttachConfig from(Map<String, Object> arguments) {
    List<String> targets = Attributes.texts(arguments.get("targets"), "targets");
    String slurm =
        arguments.containsKey("slurm") ? Attributes.text(arguments.get("slurm"), "slurm") : "";
    boolean listen =
        arguments.containsKey("listen") && Attributes.flag(arguments.get("listen"), "listen");
    int ways = (targets.isEmpty() ? 0 : 1) + (slurm.isBlank() ? 0 : 1) + (listen ? 1 : 0);
    if (ways != 1) {
      throw new IllegalArgumentException(
          "an attach configuration takes one of \"targets\" (processes: [\"HOST:PID,PID\","
              + " \"PID\"]), \"slurm\" (a job step: \"JOBID[.STEP]\") or \"listen\": true"
              + " (a reverse connect request of sdm connect)");
    }
    int seconds =
        arguments.containsKey("listenSeconds")
            ? Attributes.number(arguments.get("listenSeconds"), "listenSeconds")
            : LISTEN_SECONDS;
    if (seconds < 1) {
      throw new IllegalArgumentException("\"listenSeconds\" must be at least 1, not " + seconds);
    }
    return new AttachConfig(
        targets,
        slurm.strip(),
        arguments.containsKey("rsh") ? Attributes.text(arguments.get("rsh"), "rsh") : "ssh",
        listen,
        seconds,
        arguments.containsKey("cwd") ? Attributes.text(arguments.get("cwd"), "cwd") : "",
        arguments.containsKey("stopOnEntry")
            && Attributes.flag(arguments.get("stopOnEntry"), "stopOnEntry"),
        arguments.containsKey("threadPerRankUpTo")
            ? Attributes.number(arguments.get("threadPerRankUpTo"), "threadPerRankUpTo")
            : LaunchConfig.THREAD_PER_RANK_UP_TO);
  }
}

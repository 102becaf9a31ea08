package io.sdmfabric.model;

import java.util.List;
import java.util.Locale;

/**
 * A cluster node's state as a user sorts nodes: Slurm's base state (idle, allocated, mixed, down
 * ...) with the flags that change what the node can do (drain, completing, not responding,
 * reserved) folded in, as {@code sinfo} words it.
 */
public enum ClusterNodeState {
  /** Free for jobs. */
  IDLE,
  /** Some of its CPUs run jobs. */
  MIXED,
  /** All of its CPUs run jobs. */
  ALLOCATED,
  /** Its jobs are ending. */
  COMPLETING,
  /** Runs jobs, but takes no new ones. */
  DRAINING,
  /** Takes no jobs, and runs none. */
  DRAINED,
  /** Down, failed or not responding. */
  DOWN,
  /** Held for a reservation. */
  RESERVED,
  /** Configured, not yet there. */
  FUTURE,
  /** A state this class does not know. */
  UNKNOWN;

  /**
   * The state of a node in Slurm's base state {@code base} (any case) with {@code flags} (Slurm's
   * names: {@code DRAIN}, {@code COMPLETING}, {@code NOT_RESPONDING} ...).
   */
  public static ClusterNodeState of(String base, List<String> flags) {
    String b = base.strip().toUpperCase(Locale.ROOT);
    List<String> f = flags.stream().map(s -> s.strip().toUpperCase(Locale.ROOT)).toList();
    boolean busy = b.equals("ALLOCATED") || b.equals("MIXED") || b.equals("COMPLETING");
    if (b.equals("DOWN") || b.equals("ERROR") || f.contains("NOT_RESPONDING")) {
      return DOWN;
    }
    if (f.contains("DRAIN") || f.contains("FAIL")) {
      return busy || f.contains("COMPLETING") ? DRAINING : DRAINED;
    }
    if (f.contains("COMPLETING") || b.equals("COMPLETING")) {
      return COMPLETING;
    }
    return switch (b) {
      case "IDLE" -> f.contains("RESERVED") ? RESERVED : IDLE;
      case "MIXED" -> MIXED;
      case "ALLOCATED" -> ALLOCATED;
      case "FUTURE" -> FUTURE;
      default -> UNKNOWN;
    };
  }

  /** The state as {@code sinfo} writes it: {@code idle}, {@code drained} ... */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }
}

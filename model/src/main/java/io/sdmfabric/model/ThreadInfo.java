package io.sdmfabric.model;

import java.util.Objects;

/**
 * A thread of a debugged process.
 *
 * @param id the debugger's thread number
 * @param targetId the system's description, e.g. {@code Thread 0x7ffff7d8a740 (LWP 1234)}
 * @param name the thread's name, empty when it has none
 * @param stopped whether it is stopped (false: running)
 * @param frame where it is stopped; {@link Frame#UNKNOWN} while it runs
 */
public record ThreadInfo(int id, String targetId, String name, boolean stopped, Frame frame) {

  public ThreadInfo {
    Objects.requireNonNull(targetId, "targetId");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(frame, "frame");
  }
}

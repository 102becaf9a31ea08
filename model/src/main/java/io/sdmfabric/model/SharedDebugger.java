package io.sdmfabric.model;

import java.util.Optional;

/**
 * A {@link Debugger} whose debugger process serves other ranks too (one gdb, several programs), and
 * which may be asked together with them through {@link #joint}. A capability beside the SPI, as
 * {@link java.util.RandomAccess} is beside {@code List}: callers that know it ask once per process,
 * the others ask each debugger.
 */
public interface SharedDebugger extends Debugger {

  /**
   * Where to ask this debugger together with the others that return the same object; empty when it
   * must be asked alone (its process cannot answer for several, or it has detached).
   */
  Optional<JointRequests> joint();
}

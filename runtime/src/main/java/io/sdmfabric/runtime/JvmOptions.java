package io.sdmfabric.runtime;

import java.util.List;

/**
 * The options of sdm's own JVMs: the master (started by {@code ./sdm}, the VS Code extension and
 * the benchmarks and tests that start sdm as a user does) and the agents (started by {@link
 * DistributedMaster#agentCommand}). {@code ./sdm} and the extension's {@code sdm.js} cannot read
 * this class and spell {@link #MASTER} again.
 *
 * <p>Both run on the client compiler alone ({@code -XX:TieredStopAtLevel=1}). sdm's JVMs mostly
 * wait on gdb, and the server compiler's work in a session's first minutes costs more than its code
 * saves: measured (load 10-40, 2 cores), a launch of 32 ranks under mpirun spent 2.4-3.2 s of the
 * master's 4-5 s of CPU in the server compiler, 0.3 s without it; 256 ranks embedded launched in
 * 6.2-7.3 s instead of 8.3-8.9 s, and their first 20 bt took 25-26 ms instead of 45-50 ms (the
 * JVM's CPU per bt 15-16 ms instead of 31-36); over 400 {@code next}s of 32 ranks the JVM's CPU per
 * next was 10.8 ms instead of 15.8, its threads' own share 15% higher. The master keeps G1: at
 * thousands of ranks its heap is gigabytes, which the serial collector would stop the world to
 * collect.
 */
public final class JvmOptions {
  private JvmOptions() {}

  /** The master's options beyond the class-data archive's ({@code ./sdm} adds those). */
  public static final List<String> MASTER = List.of("-XX:TieredStopAtLevel=1");

  /** An agent's options: an agent's heap is small, and the serial collector starts soonest. */
  public static final List<String> AGENT = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
}

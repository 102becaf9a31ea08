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
 * next was 10.8 ms instead of 15.8, its threads' own share 15% higher.
 *
 * <p>The master compiles on one thread ({@code -XX:CICompilerCount=1}) and collects with the
 * parallel collector. At a session's start the client compiler's threads took about 230 ms of CPU
 * while gdb and the actor system wanted the same cores; with one, a start of 4 ranks took 581 ms
 * instead of 629 (the parallel collector's share about 15 ms of it), 1,024 ranks launched in
 * 12.8-13.1 s instead of 13.2-13.8 and answered bt in 49 ms instead of 56-59, print in 57-58 ms
 * instead of 68-69 (2026-11-28, 2 cores, side by side). The master's heap is small: 45 MB live
 * after a young collection at 2,048 ranks (the gigabytes of a large session are its gdbs'), and G1
 * made 24 collections of it where the parallel collector made 9; a step's code is compiled within
 * its first few hundred runs either way ({@code next} of 32 ranks: 24-25 ms both).
 */
public final class JvmOptions {
  private JvmOptions() {}

  /** The master's options beyond the class-data archive's ({@code ./sdm} adds those). */
  public static final List<String> MASTER =
      List.of("-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:+UseParallelGC");

  /** An agent's options: an agent's heap is small, and the serial collector starts soonest. */
  public static final List<String> AGENT = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
}

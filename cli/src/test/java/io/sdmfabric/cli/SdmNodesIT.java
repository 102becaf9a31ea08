package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.Protos;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MPI jobs spread over the four nodes that {@code dev/lib/nodes.sh} makes on this machine (each a
 * network, hostname and /tmp of its own; {@code dev/test} brings them up with a slurmd each), under
 * real srun and mpirun (its remote launch through the test bed's rsh): one agent on each node, the
 * master on this machine reached at the address it chose by itself, two ranks per node.
 */
class SdmNodesIT {
  private static final String NODES = "SDM_NODES_DIR";

  @BeforeAll
  static void needsNodes() {
    Sdm.assumeGdbAndMpi();
    assumeTrue(
        System.getenv(NODES) != null,
        "no test nodes: dev/test starts four with dev/lib/nodes.sh (needs root and iproute2)");
  }

  @AfterEach
  void nothingIsLeftBehind() throws Exception {
    for (int i = 0; i < 100 && !Sdm.leftovers().isEmpty(); i++) {
      Thread.sleep(100);
    }
    assertEquals(List.of(), Sdm.leftovers());
  }

  /**
   * {@code sdm COMMAND} with the launcher's options that spread 8 ranks over the 4 nodes, 2 on
   * each, up to {@code --}.
   */
  private static List<String> launch(String command, String launcher) {
    List<String> args = new ArrayList<>(List.of(command, "--launcher", launcher));
    if (launcher.equals("srun")) {
      args.addAll(List.of("-N", "4", "--ntasks-per-node=2"));
    } else {
      args.addAll(
          List.of(
              "--hostfile",
              System.getenv("SDM_NODES_HOSTFILE"),
              "--mca",
              "plm_rsh_agent",
              System.getenv("SDM_NODES_RSH"),
              "--map-by",
              "ppr:2:node"));
    }
    args.addAll(List.of("-n", "8", "--"));
    return args;
  }

  private static Sdm.Result debug(String launcher, String example, String input) throws Exception {
    return sdm(launch("debug", launcher), example, input);
  }

  /** Runs sdm with {@code args} and the example program; it must exit with 0. */
  private static Sdm.Result sdm(List<String> args, String example, String input) throws Exception {
    args.add(Sdm.mpiExample(example).toString());
    Sdm.Result r =
        Sdm.runWithEnv(
            Map.of("SLURM_CONF", System.getenv("SDM_NODES_SLURM_CONF")),
            input,
            args.toArray(String[]::new));
    assertEquals(0, r.exitCode(), r.toString());
    return r;
  }

  /** The lines {@code [RANKS] TEXT} of the output whose text matches {@code text}, by rank. */
  private static Map<Integer, String> byRank(String out, String text) {
    Map<Integer, String> found = new TreeMap<>();
    Matcher m = Pattern.compile("(?m)^\\[([0-9,-]+)\\] (" + text + ")$").matcher(out);
    while (m.find()) {
      String what = m.group(2);
      RankSet.parse(m.group(1)).forEach(rank -> found.put(rank, what));
    }
    return found;
  }

  @ParameterizedTest
  @ValueSource(strings = {"srun", "mpirun"})
  void eachNodeHasOneAgentWhoseGdbDebugsThatNodesRanks(String launcher) throws Exception {
    Sdm.Result r =
        debug(
            launcher,
            "mpi_reduce",
            "break combine\nrun\nwait 60\nprint mine\n"
                + "gdb python print('node', __import__('os').uname().nodename)\n"
                + "gdb python print('agent', __import__('os').getppid())\n"
                + "quit\n");
    Map<Integer, String> values = byRank(r.out(), "mine = .*");
    for (int rank = 0; rank < 8; rank++) {
      assertEquals(
          "mine = " + (rank == 2 ? -3 : rank + 1), values.get(rank), "rank " + rank + "\n" + r);
    }
    Map<Integer, String> nodes = byRank(r.out(), "node node\\d");
    Map<Integer, String> agents = byRank(r.out(), "agent \\d+");
    for (int rank = 0; rank < 8; rank++) {
      assertEquals("node node" + (rank / 2 + 1), nodes.get(rank), "rank " + rank + "\n" + r);
    }
    assertEquals(8, agents.size(), r.toString());
    for (int rank = 0; rank < 8; rank += 2) {
      assertEquals(agents.get(rank), agents.get(rank + 1), "one agent for node " + rank / 2);
    }
    assertEquals(4, agents.values().stream().distinct().count(), "an agent per node\n" + r);
  }

  @ParameterizedTest
  @ValueSource(strings = {"srun", "mpirun"})
  void stacksOfADeadlockAcrossNodesMergeTheRanksOfEveryNode(String launcher) throws Exception {
    // Ranks 0 and 1 (node1) wait for each other; ranks 2-7 (nodes 2-4) wait in a barrier.
    List<String> args = launch("stacks", launcher);
    args.addAll(args.indexOf("--"), List.of("--after", "20s"));
    Sdm.Result r = sdm(args, "mpi_deadlock", "");
    String out = r.out();
    assertTrue(out.contains("exchange at mpi_deadlock.c:8  [0,1]"), r.toString());
    assertTrue(out.contains("PMPI_Recv  [0,1]"), r.toString());
    assertTrue(out.contains("wait_for_all at mpi_deadlock.c:12  [2-7]"), r.toString());
    assertTrue(out.contains("PMPI_Barrier  [2-7]"), r.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"srun", "mpirun"})
  void theRankThatCrashesOnTheLastNodeStopsWhereItCrashedAndTheOthersRun(String launcher)
      throws Exception {
    Sdm.Result r = debug(launcher, "mpi_crash", "run\n[7] wait 60\n[7] bt\n[0-6] procs\nquit\n");
    assertTrue(
        r.out().contains("[7] stopped: signal SIGSEGV in send_halo at mpi_crash.c:13"),
        r.toString());
    assertTrue(r.out().contains("send_halo at mpi_crash.c:13  [7]"), r.toString());
    assertTrue(r.out().contains("running"), r.toString());
  }

  /** Runs the test bed's {@code link HOST down|up}: cuts or mends the node's network. */
  private static void link(String host, String state) throws Exception {
    Process p =
        new ProcessBuilder(System.getenv("SDM_NODES_LINK"), host, state)
            .redirectErrorStream(true)
            .start();
    String said =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), "link " + host + " " + state + ": " + said);
  }

  @Test
  void aNodeCutOffLosesExactlyItsRanksWhileTheOthersAnswerAndTheSessionEndsCleanly()
      throws Exception {
    List<String> args = launch("debug", "srun");
    // Slurm cancels a job one of whose nodes fails (SlurmdTimeout), unless told not to.
    args.add(args.indexOf("--"), "--no-kill");
    args.add(Sdm.mpiExample("mpi_reduce").toString());
    Map<String, String> env = Map.of("SLURM_CONF", System.getenv("SDM_NODES_SLURM_CONF"));
    try (SdmConsole c = SdmConsole.start(env, args)) {
      c.type("break combine");
      c.type("run");
      int at = c.await("[0-7] stopped: breakpoint 1 in combine", 0, Duration.ofMinutes(2));
      link("node3", "down");
      try {
        long cut = System.nanoTime();
        c.type("print mine");
        c.await("[4,5] error: " + Protos.RANK_LOST, at, Duration.ofSeconds(60));
        long lostAfter = Duration.ofNanos(System.nanoTime() - cut).toSeconds();
        assertTrue(lostAfter < 30, "node3's ranks were lost only after " + lostAfter + " s");
        c.await("[0] mine = 1", at, Duration.ofSeconds(10));
        at = c.await("[7] mine = 8", at, Duration.ofSeconds(10));
        // The others go on answering, with node3 still cut off.
        c.type("print mine + 100");
        at = c.await("[7] mine + 100 = 108", at, Duration.ofSeconds(30));
      } finally {
        link("node3", "up");
      }
      // The node's return changes nothing: its ranks stay lost, the rest answer.
      Thread.sleep(5000);
      c.type("print mine + 200");
      int before = at;
      at = c.await("[7] mine + 200 = 208", at, Duration.ofSeconds(30));
      c.await("[4,5] error: " + Protos.RANK_LOST, before, Duration.ofSeconds(30));
      assertFalse(c.out().contains("[4] mine + 200"), c.toString());
      c.type("quit");
      assertEquals(0, c.finish(Duration.ofSeconds(60)), c.toString());
    }
  }
}

package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * An IT class whose jobs run on the four test nodes ({@code dev/lib/nodes.sh}, started by {@code
 * dev/test}): skipped without them, gdb or MPI; the nodes are its alone while it runs (IT classes
 * run side by side, and its tests cut links and kill agents); nothing of its tests is left behind.
 */
abstract class OnTheTestNodes {
  static final String NODES = "SDM_NODES_DIR";

  private static AutoCloseable nodes;

  @BeforeAll
  static void takeTheNodes() throws Exception {
    Sdm.assumeGdbAndMpi();
    assumeTrue(
        System.getenv(NODES) != null,
        "no test nodes: dev/test starts four with dev/lib/nodes.sh (needs root and iproute2)");
    nodes = Sdm.exclusive("nodes");
  }

  @AfterAll
  static void releaseTheNodes() throws Exception {
    if (nodes != null) {
      nodes.close();
      nodes = null;
    }
  }

  @AfterEach
  void nothingIsLeftBehind() throws Exception {
    Sdm.assertNothingLeftBehind();
  }
}

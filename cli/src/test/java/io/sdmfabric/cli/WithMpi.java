package io.sdmfabric.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/** An IT class of MPI jobs on this host: skipped without gdb or MPI; nothing is left behind. */
abstract class WithMpi {
  @BeforeAll
  static void needsMpi() {
    Sdm.assumeGdbAndMpi();
  }

  @AfterEach
  void nothingIsLeftBehind() throws Exception {
    Sdm.assertNothingLeftBehind();
  }
}

package io.sdmfabric.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.Frame;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.StackTree;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The picture of 1,024 ranks of a stencil code on 20 distinct paths, two threads each (main and the
 * MPI library's progress thread), as Open MPI's stacks look: most ranks in a halo exchange deep in
 * the library, others computing at different lines, in a reduction, writing a checkpoint,
 * finalizing. The pages are left in target/stack-picture for a person (or a browser) to look at.
 */
class StackPictureScaleTest {
  private static final String MPI = "/usr/lib/x86_64-linux-gnu/libmpi.so.40";
  private static final String PAL = "/usr/lib/x86_64-linux-gnu/libopen-pal.so.40";
  private static final String LIBC = "/lib/x86_64-linux-gnu/libc.so.6";
  private static final String HDF5 = "/usr/lib/x86_64-linux-gnu/libhdf5.so.103";

  private static Frame src(String function, String file, int line) {
    return new Frame(0, 0, function, file, line, "");
  }

  private static Frame lib(String function, String library) {
    return new Frame(0, 0x7f0000001000L, function, "", 0, library);
  }

  /** A stack from the outermost frame in, as a debugger lists it: innermost first. */
  private static List<Frame> stack(Frame... outermostFirst) {
    List<Frame> in = new ArrayList<>();
    for (int i = outermostFirst.length - 1, level = 0; i >= 0; i--, level++) {
      Frame f = outermostFirst[i];
      in.add(new Frame(level, f.address(), f.function(), f.file(), f.line(), f.library()));
    }
    return in;
  }

  private static List<Frame> mainThread(int rank) {
    Frame main = src("main", "stencil.c", 120);
    Frame step = src("timestep", "stencil.c", 88);
    if (rank >= 1000) {
      return stack(
          main,
          src("finish", "stencil.c", 140),
          lib("PMPI_Finalize", MPI),
          lib("ompi_mpi_finalize", MPI),
          lib("opal_progress", PAL));
    }
    switch (rank % 8) {
      case 5 -> {
        return stack(main, step, src("compute_flux", "flux.c", 201 + rank / 8 % 9));
      }
      case 6 -> {
        String[] leaves = {"mca_pml_ob1_progress", "opal_timer_linux_get_cycles"};
        return stack(
            main,
            step,
            src("check_convergence", "solver.c", 77),
            lib("PMPI_Allreduce", MPI),
            lib("ompi_coll_tuned_allreduce_intra_dec_fixed", MPI),
            lib("ompi_coll_base_allreduce_intra_recursivedoubling", MPI),
            lib("ompi_request_default_wait", MPI),
            lib("opal_progress", PAL),
            lib(leaves[rank / 8 % 2], rank / 8 % 2 == 0 ? MPI : PAL));
      }
      case 7 -> {
        String[] leaves = {"write", "pwrite64", "fsync"};
        return stack(
            main,
            step,
            src("write_checkpoint", "io.c", 55),
            lib("H5Dwrite", HDF5),
            lib("H5D__write", HDF5),
            lib("H5FD_write", HDF5),
            lib(leaves[rank / 8 % 3], LIBC));
      }
      default -> {
        String[] leaves = {
          "mca_btl_vader_component_progress", "mca_pml_ob1_progress", "opal_timer_linux_get_cycles"
        };
        return stack(
            main,
            step,
            src("halo_exchange", "halo.c", 41),
            lib("PMPI_Waitall", MPI),
            lib("ompi_request_default_wait_all", MPI),
            lib("opal_progress", PAL),
            lib(leaves[rank % 3], rank % 3 == 2 ? PAL : MPI));
      }
    }
  }

  private static List<Frame> progressThread(int rank) {
    return stack(
        lib("clone3", LIBC),
        lib("start_thread", LIBC),
        lib("progress_engine", PAL),
        lib("opal_libevent2022_event_base_loop", PAL),
        lib(rank % 16 == 0 ? "poll" : "epoll_wait", LIBC));
  }

  /** The tree of 1,024 ranks. */
  static StackTree tree() {
    StackTree.Builder b = StackTree.builder();
    for (int rank = 0; rank < 1024; rank++) {
      b.addThreads(List.of(mainThread(rank), progressThread(rank)), RankSet.of(rank));
    }
    return b.build();
  }

  @Test
  void aThousandRanksOnTwentyPathsMakeAPictureOfABoxPerFrame() throws Exception {
    StackTree tree = tree();
    assertEquals(1024, tree.ranks().size());
    assertEquals(20, tree.pathCount());
    StackPicture picture = new StackPicture(tree, Optional.empty(), Optional.empty());
    assertEquals(tree.nodeCount(), picture.boxes().size());
    String html = picture.html("scaleTestNonce");
    String svg = picture.svg();
    assertEquals(tree.nodeCount(), count(svg, "\" id=\"n"));
    assertTrue(html.contains("1024 ranks, 20 paths"), picture.summary());
    Path dir = Path.of("target", "stack-picture");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("ranks-1024.html"), html, StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("ranks-1024.svg"), svg, StandardCharsets.UTF_8);
  }

  private static int count(String s, String what) {
    int n = 0;
    for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }
}

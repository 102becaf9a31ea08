package io.sdmfabric.runtime.launch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Which programs' ranks sdm holds at the end of MPI_Init, from what {@code ldd} lists (lines as
 * Debian's Open MPI 4.1 and MPICH 4.0 programs show them): a rank that never came through the
 * library's MPI_Init would never be attached.
 */
class MpiWaitLibraryHoldTest {
  private static final String LIBC =
      "\tlinux-vdso.so.1 (0x00007ffd)\n"
          + "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f1)\n"
          + "\t/lib64/ld-linux-x86-64.so.2 (0x00007f2)\n";

  @Test
  void aCProgramOfOpenMpiOrMpichIsHeldInMpiInit() {
    assertTrue(
        MpiWaitLibrary.holdsInInit(
            "\tlibmpi.so.40 => /lib/x86_64-linux-gnu/libmpi.so.40 (0x00007f0)\n" + LIBC));
    assertTrue(
        MpiWaitLibrary.holdsInInit(
            "\tlibmpich.so.12 => /lib/x86_64-linux-gnu/libmpich.so.12 (0x00007f0)\n" + LIBC));
  }

  @Test
  void aProgramWithoutMpiIsNot() {
    assertFalse(MpiWaitLibrary.holdsInInit(LIBC));
    assertFalse(MpiWaitLibrary.holdsInInit(""));
  }

  /** Fortran's MPI_INIT need not call the C MPI_Init the library wraps. */
  @Test
  void aFortranProgramIsNot() {
    assertFalse(
        MpiWaitLibrary.holdsInInit(
            "\tlibmpi_mpifh.so.40 => /lib/x86_64-linux-gnu/libmpi_mpifh.so.40 (0x1)\n"
                + "\tlibmpi.so.40 => /lib/x86_64-linux-gnu/libmpi.so.40 (0x2)\n"
                + "\tlibgfortran.so.5 => /lib/x86_64-linux-gnu/libgfortran.so.5 (0x3)\n"
                + LIBC));
    assertFalse(
        MpiWaitLibrary.holdsInInit(
            "\tlibmpifort.so.12 => /lib/x86_64-linux-gnu/libmpifort.so.12 (0x1)\n"
                + "\tlibmpi.so.12 => /lib/x86_64-linux-gnu/libmpi.so.12 (0x2)\n"
                + LIBC));
  }
}

package io.sdmfabric.runtime.launch;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * sdm's MPI wait-records library ({@code sdm_mpiwait.c}, in the jar), which the rank shim preloads
 * into the ranks of the jobs sdm launches so that sdm can tell who waits for whom in MPI. It is
 * built with the job's own MPI's {@code mpicc}, so it matches the job's MPI whatever that is: the
 * program's MPI library ({@code ldd}: MPICH's {@code libmpich}, Intel MPI's {@code libmpi.so.12},
 * Open MPI's {@code libmpi.so.40}) names the family, and the first of {@code mpicc}, {@code
 * mpicc.mpich} / {@code mpicc.openmpi} on the {@code PATH} whose {@code -show} is that family's
 * builds it (a program whose MPI is not seen takes {@code mpicc}). Into {@code mpiwait/KEY/} of
 * sdm's home, a directory of the user's alone; KEY is a hash of the source and of {@code mpicc
 * -show}, so a new source or another MPI builds anew, and every later launch with the same ones
 * takes the one built.
 */
public final class MpiWaitLibrary {
  private MpiWaitLibrary() {}

  /**
   * The library for the job's MPI, built if need be.
   *
   * @throws IOException saying why there is none: no mpicc, or it failed
   */
  public static Path build() throws IOException {
    return build("mpicc", run(List.of("mpicc", "-show"), "mpicc -show").strip());
  }

  /**
   * The library built with the compiler {@code mpicc} (a path: the one beside a launcher whose MPI
   * the job runs with), built if need be.
   *
   * @throws IOException saying why there is none: that mpicc fails
   */
  public static Path buildWith(Path mpicc) throws IOException {
    String c = mpicc.toString();
    return build(c, run(List.of(c, "-show"), c + " -show").strip());
  }

  /**
   * The library for the MPI that {@code program} runs with, built if need be.
   *
   * @throws IOException saying why there is none: no mpicc of that MPI, or it failed
   */
  public static Path build(String program) throws IOException {
    return buildFor(program, libraries(program));
  }

  /**
   * The library for {@code program}'s ranks, built if need be, and whether it can hold them at the
   * end of MPI_Init ({@link #holdsInInit}), both from one {@code ldd} of the program.
   *
   * @param library the library built
   * @param holdsInInit whether the library can hold the program's ranks at the end of MPI_Init
   */
  public record ForProgram(Path library, boolean holdsInInit) {}

  /**
   * {@link #build(String)}, and whether the library can hold {@code program}'s ranks in MPI_Init.
   *
   * @throws IOException as {@link #build(String)}
   */
  public static ForProgram forProgram(String program) throws IOException {
    String libraries = libraries(program);
    return new ForProgram(buildFor(program, libraries), holdsInInit(libraries));
  }

  /** {@link #build(String)} of a program whose {@code ldd} listed {@code libraries}. */
  private static Path buildFor(String program, String libraries) throws IOException {
    Optional<Mpi> mpi = Mpi.in(libraries);
    if (mpi.isEmpty()) {
      return build();
    }
    List<String> tried = new ArrayList<>();
    for (String mpicc : List.of("mpicc", mpi.get().compiler)) {
      String show;
      try {
        show = run(List.of(mpicc, "-show"), mpicc + " -show").strip();
      } catch (IOException e) {
        continue;
      }
      tried.add(mpicc);
      if (Mpi.of(show).equals(mpi)) {
        return build(mpicc, show);
      }
    }
    throw new IOException(
        program
            + " runs with "
            + mpi.get().name
            + " and no mpicc on the PATH is "
            + mpi.get().name
            + "'s ("
            + (tried.isEmpty() ? "none found" : "found " + String.join(", ", tried))
            + "; looked for mpicc and "
            + mpi.get().compiler
            + ")");
  }

  /**
   * Whether the library can hold the ranks of a program whose {@code ldd} listed {@code libraries}
   * at the end of MPI_Init ({@link RankShim.Hold#IN_MPI_INIT}): it is linked with an MPI, and with
   * no Fortran, whose MPI_INIT need not pass through the library's MPI_Init (a rank that never
   * stops there would never be attached). A program whose libraries cannot be listed is not held.
   */
  static boolean holdsInInit(String libraries) {
    boolean mpi = false;
    for (String line : libraries.lines().toList()) {
      String name = line.strip().split("\\s+")[0];
      if (FORTRAN.matcher(name).find()) {
        return false;
      }
      mpi |= name.startsWith("libmpi");
    }
    return mpi;
  }

  /** Libraries of Fortran's runtimes and of MPI's Fortran bindings (Open MPI's, MPICH's). */
  private static final Pattern FORTRAN =
      Pattern.compile("^lib(gfortran|ifcore|ifport|mpi_mpifh|mpi_usempi|mpifort|flang)");

  /** The MPI families a rank's library is built for, and their own compiler's name on Debian. */
  enum Mpi {
    MPICH("MPICH", "mpicc.mpich"),
    OPEN_MPI("Open MPI", "mpicc.openmpi");

    final String name;
    final String compiler;

    Mpi(String name, String compiler) {
      this.name = name;
      this.compiler = compiler;
    }

    /** The MPI of a library path or compiler line that names it. */
    static Optional<Mpi> of(String text) {
      if (text.contains("mpich") || text.contains("libmpi.so.12")) {
        return Optional.of(MPICH);
      }
      if (text.contains("openmpi") || text.contains("libmpi.so.40") || text.contains("-lmpi")) {
        return Optional.of(OPEN_MPI);
      }
      return Optional.empty();
    }

    /** The MPI that {@code program} loads, as {@code ldd} lists its libraries; empty if unseen. */
    static Optional<Mpi> linkedBy(String program) {
      return in(libraries(program));
    }

    /** The MPI among {@code libraries}, as {@code ldd} lists them; empty if unseen. */
    private static Optional<Mpi> in(String libraries) {
      for (String line : libraries.lines().toList()) {
        String name = line.strip().split("\\s+")[0];
        if (name.startsWith("libmpi")) {
          return of(line);
        }
      }
      return Optional.empty();
    }
  }

  /** What {@code ldd} lists of {@code program}'s libraries; nothing when it cannot. */
  private static String libraries(String program) {
    try {
      return run(List.of("ldd", program), "ldd " + program);
    } catch (IOException e) {
      return "";
    }
  }

  private static Path build(String mpicc, String mpi) throws IOException {
    return CompiledOnce.build(
        "sdm_mpiwait.c",
        "mpiwait",
        "libsdm_mpiwait.so",
        mpi,
        (c, out) -> List.of(mpicc, "-shared", "-fPIC", "-O2", "-o", out.toString(), c.toString()));
  }

  /** The standard output of {@code command}; fails with its output when it fails. */
  static String run(List<String> command, String what) throws IOException {
    return CompiledOnce.run(command, what);
  }
}

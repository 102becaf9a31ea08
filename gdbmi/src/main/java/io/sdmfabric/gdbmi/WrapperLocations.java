package io.sdmfabric.gdbmi;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Keeps breakpoints out of sdm's MPI wait-records library ({@value #LIBRARY}, preloaded into the
 * MPI jobs sdm launches). Its functions bear the names of the MPI calls they wrap ({@code
 * MPI_Barrier}), so a breakpoint on an MPI call resolves to a location in it besides the MPI
 * library's own, and a rank would stop twice in one call. Each location gdb places inside the
 * library's address range (from {@code =library-loaded}) is disabled as gdb reports it, in the
 * reply to {@code -break-insert} or in {@code =breakpoint-modified}: the rank stops once, in the
 * MPI library, its caller the wrapper. A listener of the {@link MiChannel}'s records, called on its
 * reader thread only.
 */
final class WrapperLocations {
  static final String LIBRARY = "libsdm_mpiwait.so";

  private final List<long[]> ranges = new CopyOnWriteArrayList<>();
  private final Consumer<MiCommand> send;

  WrapperLocations(Consumer<MiCommand> send) {
    this.send = send;
  }

  /** Notes what {@code record} says of the library or of breakpoints' locations. */
  void onRecord(MiRecord record) {
    if (record instanceof MiAsyncRecord a) {
      onAsync(a);
    } else if (record instanceof MiResultRecord r) {
      onResult(r);
    }
  }

  /** Notes the library's ranges, and disables the locations a breakpoint report puts in them. */
  void onAsync(MiAsyncRecord r) {
    if (r.kind() != MiAsyncKind.NOTIFY) {
      return;
    }
    if (r.asyncClass().equals("library-loaded")
        && r.results().optString("id").orElse("").endsWith("/" + LIBRARY)) {
      r.results()
          .get("ranges")
          .filter(MiList.class::isInstance)
          .ifPresent(
              l -> {
                for (MiValue v : ((MiList) l).items()) {
                  MiTuple range = GdbResults.asTuple(v);
                  ranges.add(
                      new long[] {
                        Long.decode(range.string("from")), Long.decode(range.string("to"))
                      });
                }
              });
    } else if (r.asyncClass().equals("breakpoint-modified")
        || r.asyncClass().equals("breakpoint-created")) {
      onBreakpoint(r.results());
    }
  }

  /** Disables the locations the reply to a {@code -break-insert} puts in the library. */
  void onResult(MiResultRecord r) {
    onBreakpoint(r.results());
  }

  private void onBreakpoint(MiTuple results) {
    if (ranges.isEmpty()) {
      return;
    }
    results
        .get("bkpt")
        .filter(MiTuple.class::isInstance)
        .map(MiTuple.class::cast)
        .flatMap(b -> b.get("locations"))
        .filter(MiList.class::isInstance)
        .ifPresent(
            l -> {
              for (MiValue v : ((MiList) l).items()) {
                MiTuple location = GdbResults.asTuple(v);
                if (location.optString("enabled").orElse("n").equals("y")
                    && inside(location.optString("addr").orElse(""))) {
                  send.accept(MiCommands.enableBreakpoint(location.string("number"), false));
                }
              }
            });
  }

  private boolean inside(String address) {
    if (!address.startsWith("0x")) {
      return false;
    }
    long a = Long.parseUnsignedLong(address.substring(2), 16);
    return ranges.stream().anyMatch(r -> a >= r[0] && a < r[1]);
  }
}

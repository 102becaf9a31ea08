package io.sdmfabric.gdbmi;

import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.LaunchSpec;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A JVM that starts gdb and a program, prints their pids, and exits without closing anything: the
 * shutdown hook must end both. Run by {@link GdbCleanupOnExitTest}.
 */
public final class ExitWithoutClose {
  public static void main(String[] args) throws Exception {
    GdbDebugger gdb = GdbDebugger.start();
    CompletableFuture<DebugEvent> stopped = new CompletableFuture<>();
    gdb.subscribe(
        e -> {
          if (e instanceof DebugEvent.Stopped) {
            stopped.complete(e);
          }
        });
    gdb.load(LaunchSpec.of(args[0])).get(30, TimeUnit.SECONDS);
    gdb.insertBreakpoint(BreakpointSpec.at("main")).get(30, TimeUnit.SECONDS);
    gdb.run().get(30, TimeUnit.SECONDS);
    stopped.get(30, TimeUnit.SECONDS);
    System.out.println(gdb.driver().pid() + " " + gdb.driver().inferiorPid().orElseThrow());
    System.out.flush();
    if (args.length > 1 && args[1].equals("wait")) {
      Thread.sleep(Long.MAX_VALUE); // until the test kills this JVM
    }
    System.exit(0);
  }
}

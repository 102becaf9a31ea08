package io.sdmfabric.gdbmi;

import io.sdmfabric.model.BreakpointSpec;
import java.util.concurrent.TimeUnit;

/**
 * A JVM that attaches gdb to a running process, prints gdb's pid, and exits without closing
 * anything (or waits to be killed): the process must run on unharmed. Run by {@link GdbAttachTest}.
 */
public final class AttachWithoutClose {
  public static void main(String[] args) throws Exception {
    GdbDebugger gdb = GdbDebugger.start();
    gdb.attach(Long.parseLong(args[0])).get(30, TimeUnit.SECONDS);
    if (args[1].startsWith("running")) {
      // A breakpoint that never stops, but is in the program's code while it runs.
      gdb.insertBreakpoint(BreakpointSpec.at("tick").withCondition("ticks < 0"))
          .get(30, TimeUnit.SECONDS);
      gdb.resume().get(30, TimeUnit.SECONDS);
    }
    System.out.println(gdb.driver().pid());
    System.out.flush();
    if (args[1].endsWith("wait")) {
      Thread.sleep(Long.MAX_VALUE); // until the test kills this JVM
    }
    System.exit(0);
  }
}

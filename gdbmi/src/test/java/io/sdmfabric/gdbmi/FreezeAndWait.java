package io.sdmfabric.gdbmi;

import java.util.List;

/**
 * A JVM that stops a process for an attach, says so, and waits to be killed without letting it go:
 * the process must run again once this JVM is gone. Run by {@link FrozenProcessesTest}.
 */
public final class FreezeAndWait {
  public static void main(String[] args) throws Exception {
    FrozenProcesses frozen = FrozenProcesses.freeze(List.of(Long.parseLong(args[0])));
    System.out.println("frozen " + frozen.count());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE); // until the test kills this JVM
  }
}

package io.sdmfabric.frontend;

import io.sdmfabric.model.ProcessState;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.SessionClient;
import java.util.List;

/**
 * A console session over ranks attached to running processes ({@code sdm attach}, or any front-end
 * that attached): how it begins and how it leaves. It begins by showing what each rank attached to,
 * recording the ranks as stopped, and, when only some ranks of the job are attached, putting the
 * focus on them. It leaves every rank still attached running on without the debugger.
 */
public final class AttachWorkflow {
  private AttachWorkflow() {}

  /**
   * Shows what {@code attached} attached to and readies the console for them.
   *
   * @param notAttached what the other ranks of the job answer
   * @return false when no rank attached
   */
  public static boolean begin(
      SessionClient session,
      Console console,
      Renderer renderer,
      RankSet attached,
      String notAttached)
      throws Exception {
    int size = session.size();
    // An attached rank answers what it attached to, whatever the launch says.
    if (!ProgramLoad.load(session, renderer, "attached", List.of(), attached, "attach")) {
      return false;
    }
    console.recordStops(attached);
    RankSet others = RankSet.all(size).minus(attached);
    if (!others.isEmpty()) {
      console.table().put(others, ProcessState.DETACHED, notAttached);
      console.focus(attached);
      renderer.info(
          "attached to ranks "
              + attached
              + " of "
              + size
              + "; commands go to them (the others answer \""
              + notAttached
              + "\")");
    }
    return true;
  }

  /** Detaches every rank of {@code attached} that is still attached: they run on. */
  public static void leaveRunning(Console console, RankSet attached) throws Exception {
    ProcessTable table = console.table();
    RankSet still =
        table
            .ranksIn(ProcessState.STOPPED, attached)
            .union(table.ranksIn(ProcessState.RUNNING, attached))
            .union(table.ranksIn(ProcessState.NOT_STARTED, attached));
    if (!still.isEmpty()) {
      console.detach(still);
    }
  }
}

package io.sdmfabric.connect;

import io.sdmfabric.wire.FrameConnection;
import io.sdmfabric.wire.proto.Frame;
import io.sdmfabric.wire.proto.Progress;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * What the master of a reverse connected session says while the job starts (the launcher's lines,
 * ranks that did not come): each line goes to the local standard error (the batch job's log) and,
 * until the session is welcomed, to the front-end as a {@code Progress} frame. The connection is
 * written directly, before its writer thread starts; {@link #stop} ends that before the gateway
 * takes the connection over.
 */
public final class ProgressLines extends OutputStream {
  private final PrintStream local;
  private final FrameConnection connection;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private boolean stopped;

  public ProgressLines(PrintStream local, FrameConnection connection) {
    this.local = local;
    this.connection = connection;
  }

  /** A print stream over it. */
  public PrintStream printStream() {
    return new PrintStream(this, true, StandardCharsets.UTF_8);
  }

  @Override
  public synchronized void write(int b) {
    if (b != '\n') {
      line.write(b);
      return;
    }
    String text = line.toString(StandardCharsets.UTF_8);
    line.reset();
    local.println(text);
    if (!stopped) {
      try {
        connection.write(
            Frame.newBuilder().setProgress(Progress.newBuilder().setText(text)).build());
      } catch (IOException e) {
        stopped = true; // The front-end is gone; the session's start notices it too.
      }
    }
  }

  /** From now on lines go to the local standard error only. */
  public synchronized void stop() {
    stopped = true;
  }
}

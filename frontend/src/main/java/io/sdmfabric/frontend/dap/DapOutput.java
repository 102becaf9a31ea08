package io.sdmfabric.frontend.dap;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.eclipse.lsp4j.debug.OutputEventArguments;
import org.eclipse.lsp4j.debug.OutputEventArgumentsCategory;
import org.eclipse.lsp4j.debug.StoppedEventArguments;
import org.eclipse.lsp4j.debug.TerminatedEventArguments;
import org.eclipse.lsp4j.debug.ThreadEventArguments;
import org.eclipse.lsp4j.debug.services.IDebugProtocolClient;

/**
 * The events the adapter sends its DAP client, as the parts of the adapter say them: text for the
 * Debug Console or the programs' output, a thread that came or went, a stop, the end. Safe to call
 * from any thread (LSP4J writes each message whole).
 */
final class DapOutput {
  private final IDebugProtocolClient client;

  DapOutput(IDebugProtocolClient client) {
    this.client = client;
  }

  /** {@code text} in the Debug Console. */
  void console(String text) {
    output(OutputEventArgumentsCategory.CONSOLE, text);
  }

  /** The programs' {@code text}. */
  void stdout(String text) {
    output(OutputEventArgumentsCategory.STDOUT, text);
  }

  /** An output event as it is. */
  void output(OutputEventArguments event) {
    client.output(event);
  }

  /** A stream whose lines reach the Debug Console, each as it ends. */
  PrintStream consoleStream() {
    OutputStream lines =
        new OutputStream() {
          private final ByteArrayOutputStream line = new ByteArrayOutputStream();

          @Override
          public synchronized void write(int b) {
            line.write(b);
            if (b == '\n') {
              console(line.toString(StandardCharsets.UTF_8));
              line.reset();
            }
          }
        };
    return new PrintStream(lines, true, StandardCharsets.UTF_8);
  }

  /** Thread {@code id} came or went ({@code reason}: started or exited). */
  void thread(int id, String reason) {
    ThreadEventArguments e = new ThreadEventArguments();
    e.setThreadId(id);
    e.setReason(reason);
    client.thread(e);
  }

  void stopped(StoppedEventArguments stopped) {
    client.stopped(stopped);
  }

  void terminated() {
    client.terminated(new TerminatedEventArguments());
  }

  /** The session is open: the client may configure it. */
  void initialized() {
    client.initialized();
  }

  private void output(String category, String text) {
    OutputEventArguments e = new OutputEventArguments();
    e.setCategory(category);
    e.setOutput(text);
    client.output(e);
  }
}

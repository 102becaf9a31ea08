package io.sdmfabric.cli;

import io.sdmfabric.model.TerminalText;
import java.io.PrintStream;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What the DAP library reports of a client's messages (a malformed one is skipped, and the next
 * served), as one line each on standard error, escaped, since the text quotes the client: instead
 * of java.util.logging's default, a stack trace of some 25 lines per message.
 */
final class DapProtocolLog {
  /** Held here: java.util.logging keeps its loggers only weakly, and with them this setting. */
  private static final Logger LSP4J = Logger.getLogger("org.eclipse.lsp4j.jsonrpc");

  private DapProtocolLog() {}

  /** From now on, the DAP library's reports go to {@code err}, a line each. */
  static void install(PrintStream err) {
    LSP4J.setUseParentHandlers(false);
    for (Handler h : LSP4J.getHandlers()) {
      LSP4J.removeHandler(h);
    }
    LSP4J.addHandler(
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            if (isLoggable(r)) {
              err.println("sdm dap: " + TerminalText.escape(describe(r)));
            }
          }

          @Override
          public void flush() {
            err.flush();
          }

          @Override
          public void close() {}
        });
  }

  /** The first line of what went wrong: the innermost cause's message, else the record's. */
  static String describe(LogRecord r) {
    Throwable t = r.getThrown();
    String text = r.getMessage();
    if (t != null) {
      while (t.getCause() != null) {
        t = t.getCause();
      }
      text = t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
    }
    if (text == null) {
      return "";
    }
    int eol = text.indexOf('\n');
    return eol < 0 ? text : text.substring(0, eol);
  }
}

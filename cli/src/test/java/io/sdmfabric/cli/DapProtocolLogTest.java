package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class DapProtocolLogTest {
  @Test
  void aMalformedMessageIsOneEscapedLineWithoutAStackTrace() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DapProtocolLog.install(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    // As LSP4J's StreamMessageProducer reports a message it cannot parse; the text quotes it.
    RuntimeException parse =
        new RuntimeException(
            "wrapped",
            new IllegalStateException(
                "Expected ':' at line 1 column 6 path $.\u001b[2Jbad\nSee https://example"));
    Logger.getLogger("org.eclipse.lsp4j.jsonrpc.json.StreamMessageProducer")
        .log(Level.SEVERE, parse.getMessage(), parse);
    assertEquals(
        "sdm dap: Expected ':' at line 1 column 6 path $.\\x1b[2Jbad\n",
        bytes.toString(StandardCharsets.UTF_8));
  }
}

package io.sdmfabric.cli;

import io.sdmfabric.connect.ConnectDirectory;
import io.sdmfabric.connect.FrontEndListener;
import io.sdmfabric.connect.ListenConsole;
import io.sdmfabric.frontend.InteractiveConsole;
import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.wire.HostPort;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sdm listen}: the front-end side of reverse connect. It shows the requests that {@code sdm
 * connect} leaves in {@code ~/.sdm/connect} as they arrive, asks before accepting one, and debugs
 * each accepted job in a session of its own with the console language, while it goes on listening
 * for more.
 */
@Command(
    name = "listen",
    description =
        "Accept reverse connect requests (sdm connect in batch jobs) and debug their jobs.",
    mixinStandardHelpOptions = true)
final class ListenCommand implements Callable<Integer> {
  @Option(
      names = "--listen",
      paramLabel = "[ADDR:]PORT",
      description =
          "where masters connect: an address of this host and a port, 0 for any free one"
              + " (default: this host's address, any port)")
  String listen = "0";

  @Option(names = "-x", paramLabel = "FILE", description = "run the commands in FILE first")
  Path script;

  @Option(names = "--batch", description = "exit when the script and standard input end")
  boolean batch;

  @Option(names = "--yes", description = "accept without asking (scripts never ask)")
  boolean yes;

  private final PrintStream out;
  private final PrintStream err;

  ListenCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() throws Exception {
    HostPort at;
    try {
      at = HostPort.parse(listen, ClusterSettings.localAddress());
    } catch (IllegalArgumentException e) {
      throw new UsageError("sdm listen", "--listen " + e.getMessage());
    }
    if (script != null && !Files.isReadable(script)) {
      throw new UsageError("sdm listen", "cannot read the script " + script);
    }
    ConnectDirectory dir;
    FrontEndListener listener;
    try {
      dir = ConnectDirectory.open();
      listener = new FrontEndListener(at, ListenConsole.listenerWarnings(err));
    } catch (IOException e) {
      throw new UsageError("sdm listen", e.getMessage());
    }
    boolean interactive = !batch && System.console() != null;
    try (InteractiveConsole terminal = interactive ? new InteractiveConsole() : null) {
      PrintStream shown = interactive ? terminal.output() : out;
      ListenConsole.Asker asker = interactive && !yes ? q -> terminal.confirm(q) : q -> true;
      try (ListenConsole console = new ListenConsole(dir, listener, shown, asker)) {
        console.serve(Optional.ofNullable(script), Optional.ofNullable(terminal));
      }
      return 0;
    }
  }
}

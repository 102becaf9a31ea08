package io.sdmfabric.runtime;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Where {@code sdm dap --port} keeps the token of a listening port: {@code dap/PORT.token} in sdm's
 * home ({@code ~/.sdm}, or {@code $SDM_HOME}), a file of mode 0600 in directories of mode 0700 that
 * must be the user's alone ({@link PrivateDirectory}). A client of the port reads it there; the
 * token is never on a command line nor in an environment. The file is written under a fresh name
 * made exclusively and renamed into place, so a link planted at its name is replaced, never
 * followed. {@code DapPortServer} in the front-end's {@code dap} package serves the port.
 */
public final class DapTokenFile {
  private DapTokenFile() {}

  /** The token file of {@code port}, in the directory {@code dap} of sdm's home. */
  public static Path of(Path sdmHome, int port) {
    return sdmHome.resolve("dap").resolve(port + ".token");
  }

  /**
   * Writes {@code token} (and a line feed) to the token file of {@code port}, checking or making
   * sdm's home and its {@code dap} directory private first.
   *
   * @throws IOException when a directory is not the user's alone (the message says how to fix it)
   *     or the file cannot be written
   */
  public static Path write(Path sdmHome, int port, String token) throws IOException {
    PrivateDirectory.ensure(sdmHome);
    Path file = of(sdmHome, port);
    PrivateDirectory.ensure(file.getParent());
    PrivateDirectory.write(file, token + "\n");
    return file;
  }
}

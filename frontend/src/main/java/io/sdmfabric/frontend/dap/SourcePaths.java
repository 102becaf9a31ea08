package io.sdmfabric.frontend.dap;

import java.nio.file.Path;
import org.eclipse.lsp4j.debug.Source;

/**
 * Files as gdb names them, as sources of the client's: relative ones from the session's working
 * directory ({@code cwd}, or this JVM's when it is empty).
 */
record SourcePaths(String cwd) {
  /** The working directory of the programs. */
  String workingDirectory() {
    return cwd.isEmpty() ? Path.of("").toAbsolutePath().toString() : cwd;
  }

  /** {@code file} as a source of the client's. */
  Source source(String file) {
    Path path = Path.of(file);
    Source source = new Source();
    source.setPath(
        (path.isAbsolute() ? path : Path.of(workingDirectory()).resolve(path)).toString());
    source.setName(path.getFileName().toString());
    return source;
  }
}

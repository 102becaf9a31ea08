package io.sdmfabric.model;

import java.util.Objects;

/**
 * What a debugger learned when it loaded a program.
 *
 * @param program the program as loaded
 * @param hasDebugInfo whether it has debugging symbols; without them there are no source lines and
 *     no local variables, which users need to be told
 */
public record ProgramInfo(String program, boolean hasDebugInfo) {
  public ProgramInfo {
    Objects.requireNonNull(program, "program");
  }
}

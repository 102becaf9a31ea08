package io.sdmfabric.runtime.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Outputs of Slurm 22.05.8's commands, recorded on the test bed's cluster (partition nodes). */
final class Recorded {
  private Recorded() {}

  static String text(String name) {
    try (InputStream in = Recorded.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("no test resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

package io.sdmfabric.runtime.agent;

import io.sdmfabric.runtime.SessionKeys;
import io.sdmfabric.runtime.SessionKeystore;
import io.sdmfabric.wire.SessionSecret;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The session's secrets as an agent gets them. By default from the session's {@link SessionKeys}, a
 * private directory of the user's shared sdm home whose path alone is on the agent's command line.
 * With {@code --secrets-in-clear}, {@code SDM_SECRET}, and {@code SDM_KEYSTORE} over tls-tcp, from
 * its environment, or as {@code NAME=VALUE} lines on standard input where a remote shell (ssh)
 * passes no environment on. Never on a command line, which {@code ps} shows to every user.
 *
 * @param secret the session secret
 * @param keystoreBase64 the session's keystore, base64, if the master sent one
 * @param keystoreFile the session's keystore in its key directory, if it has one there
 */
record AgentSecrets(
    SessionSecret secret, Optional<String> keystoreBase64, Optional<Path> keystoreFile) {

  /**
   * Reads them from the session's key directory {@code dir}.
   *
   * @throws IOException when it is not there on this node, or not the user's alone
   */
  static AgentSecrets in(Path dir) throws IOException {
    return new AgentSecrets(
        SessionKeys.secretIn(dir), Optional.empty(), SessionKeys.keystoreIn(dir));
  }

  /**
   * Reads them from {@code vars} (the environment, or what {@link #readSecrets} read).
   *
   * @throws IllegalArgumentException when the secret is missing or not a session secret
   */
  static AgentSecrets from(Map<String, String> vars) {
    String hex = vars.get(SessionSecret.ENV);
    if (hex == null || hex.isBlank()) {
      throw new IllegalArgumentException(
          "no session secret: the master passes it in $" + SessionSecret.ENV);
    }
    String keystore = vars.get(SessionKeystore.ENV);
    return new AgentSecrets(
        SessionSecret.fromHex(hex),
        keystore == null || keystore.isBlank() ? Optional.empty() : Optional.of(keystore),
        Optional.empty());
  }

  /**
   * The secrets on standard input: {@code NAME=VALUE} lines up to an empty line or the end, read
   * byte by byte so that nothing past them is taken from the stream.
   */
  static Map<String, String> readSecrets(InputStream in) throws IOException {
    Map<String, String> secrets = new java.util.HashMap<>();
    java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
    int total = 0;
    while (true) {
      int b = in.read();
      if (b >= 0 && b != '\n') {
        if (++total > 1 << 20) {
          throw new IOException("more than 1 MiB without an empty line");
        }
        line.write(b);
        continue;
      }
      String text = line.toString(java.nio.charset.StandardCharsets.UTF_8).strip();
      line.reset();
      if (text.isEmpty()) {
        return secrets;
      }
      int eq = text.indexOf('=');
      if (eq <= 0) {
        throw new IOException("a line that is not NAME=VALUE");
      }
      secrets.put(text.substring(0, eq), text.substring(eq + 1));
      if (b < 0) {
        return secrets;
      }
    }
  }
}

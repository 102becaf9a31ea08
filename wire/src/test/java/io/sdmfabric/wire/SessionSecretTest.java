package io.sdmfabric.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SessionSecretTest {
  @Test
  void theKeystorePasswordIsTheSameForEveryHolderOfTheSecretAndDiffersBetweenSessions() {
    SessionSecret secret = SessionSecret.random();
    SessionSecret sameSecret = SessionSecret.fromHex(secret.hex());
    assertEquals(secret.keystorePassword(), sameSecret.keystorePassword());
    assertNotEquals(secret.keystorePassword(), SessionSecret.random().keystorePassword());
    assertEquals(64, secret.keystorePassword().length());
    assertFalse(secret.keystorePassword().contains(secret.hex()));
  }

  @Test
  void aProofVerifiesOnlyForItsNameAndSecret() {
    SessionSecret secret = SessionSecret.random();
    byte[] proof = secret.proof("pekko://sdm@127.0.0.1:4711");
    assertTrue(secret.verifies("pekko://sdm@127.0.0.1:4711", proof));
    assertFalse(secret.verifies("pekko://sdm@127.0.0.1:4712", proof));
    assertFalse(SessionSecret.random().verifies("pekko://sdm@127.0.0.1:4711", proof));
  }
}

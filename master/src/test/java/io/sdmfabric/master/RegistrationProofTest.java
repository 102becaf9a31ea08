package io.sdmfabric.master;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.SessionSecret;
import org.junit.jupiter.api.Test;

class RegistrationProofTest {
  private static final String AGENT = "pekko://sdm@10.0.0.2:25520";
  private static final String NODE = "pekko://sdm@10.0.0.2:25520/user/node#1";

  private final SessionSecret secret = SessionSecret.random();
  private final RegistrationProof proofs = new RegistrationProof(secret);

  @Test
  void takesEachRegistrationOnceInTheAgentsCount() {
    byte[] nonce = proofs.challenge(AGENT).orElseThrow();
    assertEquals(RegistrationProof.NONCE_BYTES, nonce.length);
    byte[] first = RegistrationProof.of(secret, nonce, AGENT, 1, NODE, RankSet.of(0, 1));
    assertTrue(proofs.verify(AGENT, 1, NODE, RankSet.of(0, 1), first));
    assertFalse(proofs.verify(AGENT, 1, NODE, RankSet.of(0, 1), first), "a replay");
    byte[] second = RegistrationProof.of(secret, nonce, AGENT, 2, NODE, RankSet.of(2));
    assertTrue(proofs.verify(AGENT, 2, NODE, RankSet.of(2), second));
  }

  @Test
  void refusesAProofOfOtherRanksAnotherNodeOrAnotherSecret() {
    byte[] nonce = proofs.challenge(AGENT).orElseThrow();
    byte[] good = RegistrationProof.of(secret, nonce, AGENT, 1, NODE, RankSet.of(0));
    assertFalse(proofs.verify(AGENT, 1, NODE, RankSet.of(0, 1), good));
    assertFalse(proofs.verify(AGENT, 1, NODE + "2", RankSet.of(0), good));
    byte[] stranger =
        RegistrationProof.of(SessionSecret.random(), nonce, AGENT, 1, NODE, RankSet.of(0));
    assertFalse(proofs.verify(AGENT, 1, NODE, RankSet.of(0), stranger));
  }

  @Test
  void refusesAnAgentWithoutAChallengeAndProofsOfAnOldChallenge() {
    byte[] nonce = new byte[RegistrationProof.NONCE_BYTES];
    byte[] proof = RegistrationProof.of(secret, nonce, AGENT, 1, NODE, RankSet.of(0));
    assertFalse(proofs.verify(AGENT, 1, NODE, RankSet.of(0), proof), "never knocked");

    byte[] others = proofs.challenge("another agent").orElseThrow();
    proofs.challenge(AGENT).orElseThrow();
    byte[] borrowed = RegistrationProof.of(secret, others, AGENT, 1, NODE, RankSet.of(0));
    assertFalse(proofs.verify(AGENT, 1, NODE, RankSet.of(0), borrowed), "another's challenge");
  }

  @Test
  void anAgentThatKnocksAgainGetsTheChallengeItHoldsAndProvesWithTheFirstThatReachedIt() {
    byte[] first = proofs.challenge(AGENT).orElseThrow();
    byte[] again = proofs.challenge(AGENT).orElseThrow();
    assertArrayEquals(first, again);
    byte[] proof = RegistrationProof.of(secret, first, AGENT, 1, NODE, RankSet.of(0));
    assertTrue(proofs.verify(AGENT, 1, NODE, RankSet.of(0), proof));
    // A knock after its registration changes nothing: the same registration is still refused.
    proofs.challenge(AGENT).orElseThrow();
    assertFalse(proofs.verify(AGENT, 1, NODE, RankSet.of(0), proof), "replayed");
  }
}

package io.sdmfabric.frontend.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class HandlesTest {
  @Test
  void anEqualValueKeepsItsReferenceAndAReferenceResolvesToItsValue() {
    Handles<GroupFrame> frames = new Handles<>();
    int top = frames.reference(new GroupFrame(5, 0));
    int caller = frames.reference(new GroupFrame(5, 1));
    assertEquals(top, frames.reference(new GroupFrame(5, 0)));
    assertNotEquals(top, caller);
    assertEquals(Optional.of(new GroupFrame(5, 1)), frames.value(caller));
    assertTrue(frames.value(caller + 100).isEmpty());
  }

  @Test
  void aForgottenReferenceStaysUnknownAndIsNeverGivenOutAgain() {
    Handles<GroupFrame> frames = new Handles<>();
    int moved = frames.reference(new GroupFrame(5, 0));
    int stays = frames.reference(new GroupFrame(6, 0));
    frames.forget(f -> f.threadId() == 5);
    assertTrue(frames.value(moved).isEmpty());
    assertEquals(Optional.of(new GroupFrame(6, 0)), frames.value(stays));
    assertNotEquals(moved, frames.reference(new GroupFrame(5, 0)));
  }
}

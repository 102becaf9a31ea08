package io.sdmfabric.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.SignalAction;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SignalWordsTest {
  @Test
  void signalActionsAreGdbWordsInEnumOrder() {
    Set<SignalAction> actions =
        EnumSet.of(SignalAction.NOPASS, SignalAction.STOP, SignalAction.PRINT);
    assertEquals(List.of("stop", "print", "nopass"), SignalWords.words(actions));
    assertEquals(actions, SignalWords.actions(List.of("nopass", "print", "stop", "stop")));
    assertEquals(List.of(), SignalWords.words(Set.of()));
    for (SignalAction a : SignalAction.values()) {
      assertEquals(Set.of(a), SignalWords.actions(SignalWords.words(Set.of(a))));
    }
  }

  @Test
  void unknownSignalActionWordIsRejected() {
    var e =
        assertThrows(IllegalArgumentException.class, () -> SignalWords.actions(List.of("ignore")));
    assertTrue(e.getMessage().contains("ignore"), e.getMessage());
  }
}

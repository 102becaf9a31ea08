package io.sdmfabric.wire;

import io.sdmfabric.model.SignalAction;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A set of {@link SignalAction}s as gdb's words ({@code stop}, {@code nopass}, ...), the way {@code
 * handle SIGNAL ACTIONS} carries them on the wire ({@code HandleSignalCmd.actions}), and back.
 * Equal sets give equal lists, so that equal commands serialize equally.
 */
public final class SignalWords {
  private SignalWords() {}

  /**
   * gdb's words for the actions ({@code stop}, {@code nopass}, ...), in the order of {@link
   * SignalAction}'s constants, so that equal sets give equal lists.
   */
  public static List<String> words(Set<SignalAction> actions) {
    Objects.requireNonNull(actions, "actions");
    EnumSet<SignalAction> sorted =
        actions.isEmpty() ? EnumSet.noneOf(SignalAction.class) : EnumSet.copyOf(actions);
    return sorted.stream().map(SignalAction::word).toList();
  }

  /**
   * The actions named by gdb's words, in any order, repeats allowed.
   *
   * @throws IllegalArgumentException for a word that is not one of gdb's six
   */
  public static Set<SignalAction> actions(List<String> words) {
    Objects.requireNonNull(words, "words");
    EnumSet<SignalAction> actions = EnumSet.noneOf(SignalAction.class);
    for (String word : words) {
      actions.add(action(word));
    }
    return Collections.unmodifiableSet(actions);
  }

  private static SignalAction action(String word) {
    for (SignalAction action : SignalAction.values()) {
      if (action.word().equals(word)) {
        return action;
      }
    }
    throw new IllegalArgumentException(
        "unknown signal action \""
            + word
            + "\"; gdb's are stop, nostop, print, noprint, pass, nopass");
  }
}

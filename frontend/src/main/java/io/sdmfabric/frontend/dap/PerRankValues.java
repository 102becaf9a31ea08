package io.sdmfabric.frontend.dap;

import io.sdmfabric.frontend.TextRenderer;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Values as a DAP client shows them, one text for all the ranks that asked: the value alone when
 * every rank has it ("42"), else each value with its ranks ("42 on [0-2,4-7], -1 on [3]"); an error
 * on some ranks is one more class ("error on [5]: No symbol x"), and values the tree summed up are
 * one more ("1,048,512 more values on 1,048,512 ranks, min 449 [64], max 7340026 [1048575] on
 * [64-1048575]").
 */
final class PerRankValues {
  private PerRankValues() {}

  /** The text of an evaluate's replies (each a class of ranks with one value). */
  static String of(List<RankReply> replies) {
    List<String> classes = new ArrayList<>();
    // By lowest rank, the summary of values not listed last.
    Comparator<RankReply> order =
        Comparator.<RankReply, Boolean>comparing(r -> r.reply() instanceof Reply.ValuesSummarized)
            .thenComparingInt(r -> r.ranks().first());
    for (RankReply r : replies.stream().sorted(order).toList()) {
      classes.add(text(r) + (replies.size() > 1 ? " on [" + r.ranks() + "]" : ""));
    }
    return String.join(", ", classes);
  }

  /** Each rank's text among {@code replies}; "no reply" for a rank none of them has. */
  static Function<Integer, String> byRank(List<RankReply> replies) {
    return rank ->
        replies.stream()
            .filter(r -> r.ranks().contains(rank))
            .findFirst()
            .map(PerRankValues::text)
            .orElse("no reply");
  }

  /** The value of one class of ranks' reply, when it is one. */
  static Optional<Value> value(RankReply r) {
    return r.reply() instanceof Reply.Evaluated v ? Optional.of(v.value()) : Optional.empty();
  }

  /** The text of one class of ranks' reply: its value, or what went wrong. */
  static String text(RankReply r) {
    Reply reply = r.reply();
    if (reply instanceof Reply.Evaluated v) {
      return v.value().text();
    } else if (reply instanceof Reply.ValuesSummarized s) {
      return TextRenderer.summary(s, r.ranks()).substring("and ".length());
    } else if (reply instanceof Reply.Lost) {
      return "lost";
    } else if (reply instanceof Reply.Failure f) {
      // An error, or a body a peer sent malformed.
      return "error: " + f.message();
    }
    return r.kind();
  }
}

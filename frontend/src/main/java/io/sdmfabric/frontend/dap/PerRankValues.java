package io.sdmfabric.frontend.dap;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.RankReply;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Values as a DAP client shows them, one text for all the ranks that asked: the value alone when
 * every rank has it ("42"), else each value with its ranks ("42 on [0-2,4-7], -1 on [3]"); an error
 * on some ranks is one more class ("error on [5]: No symbol x").
 */
final class PerRankValues {
  private PerRankValues() {}

  /** The text of an evaluate's replies (each a class of ranks with one value). */
  static String of(List<RankReply> replies) {
    List<String> classes = new ArrayList<>();
    for (RankReply r : replies) {
      classes.add(text(r) + (replies.size() > 1 ? " on [" + r.ranks() + "]" : ""));
    }
    return String.join(", ", classes);
  }

  /**
   * The locals of a listing's replies (each a class of ranks with one list of variables), as name
   * to text across the classes, in the order the first class lists them.
   */
  static Map<String, String> locals(List<RankReply> replies) {
    Map<String, Map<String, RankSet>> ranksByText = new LinkedHashMap<>();
    for (RankReply r : replies) {
      if (r.body().hasVariables()) {
        for (var proto : r.body().getVariables().getVariablesList()) {
          Value v = Protos.fromProto(proto);
          ranksByText
              .computeIfAbsent(v.name(), k -> new LinkedHashMap<>())
              .merge(v.text(), r.ranks(), RankSet::union);
        }
      }
    }
    Map<String, String> locals = new LinkedHashMap<>();
    ranksByText.forEach(
        (name, classes) -> {
          if (classes.size() == 1) {
            locals.put(name, classes.keySet().iterator().next());
          } else {
            List<String> texts = new ArrayList<>();
            classes.forEach((text, ranks) -> texts.add(text + " on [" + ranks + "]"));
            locals.put(name, String.join(", ", texts));
          }
        });
    return locals;
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

  /** The text of one class of ranks' reply: its value, or what went wrong. */
  static String text(RankReply r) {
    if (r.body().hasValue()) {
      return Protos.fromProto(r.body().getValue()).text();
    } else if (r.body().hasError()) {
      return "error: " + r.body().getError().getMessage();
    } else if (r.body().hasLost()) {
      return "lost";
    }
    return r.body().getKindCase().toString().toLowerCase(java.util.Locale.ROOT);
  }
}

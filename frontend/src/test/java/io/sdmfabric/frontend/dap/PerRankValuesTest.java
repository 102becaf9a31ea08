package io.sdmfabric.frontend.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.ValueProto;
import java.util.List;
import org.junit.jupiter.api.Test;

class PerRankValuesTest {
  private static final Value X = Value.scalar("x", "int", Value.Kind.INTEGER, 4, "42");

  @Test
  void eachClassOfRanksShowsItsValueOrWhatWentWrongInRankOrder() {
    EventBody negativeSize =
        EventBody.newBuilder().setValue(ValueProto.newBuilder().setName("x").setSize(-1)).build();
    List<RankReply> replies =
        List.of(
            new RankReply(RankSet.of(3), EventBodies.error("No symbol \"x\" in current context.")),
            new RankReply(RankSet.of(5), negativeSize),
            new RankReply(RankSet.range(0, 3), EventBodies.value(X)),
            new RankReply(RankSet.of(4), EventBodies.rankLost("node 2 stopped")),
            new RankReply(RankSet.of(6), EventBodies.ok()));
    assertEquals(
        "42 on [0-2], error: No symbol \"x\" in current context. on [3], lost on [4],"
            + " error: malformed value reply: size must be >= 0 and childCount >= children read,"
            + " for x on [5], ok on [6]",
        PerRankValues.of(replies));
    assertEquals("42", PerRankValues.of(List.of(replies.get(2))));
    assertEquals("no reply", PerRankValues.byRank(replies).apply(7));
  }

  @Test
  void valuesTheTreeSummedUpAreTheLastClassWithHowManyAndTheirRange() {
    List<RankReply> replies =
        List.of(
            new RankReply(
                RankSet.range(2, 100),
                EventBodies.valueSummary(
                    98,
                    List.of(
                        new Reply.Extreme(
                            Value.scalar("x", "int", Value.Kind.INTEGER, 4, "-7"), RankSet.of(50)),
                        new Reply.Extreme(X, RankSet.of(2, 3))))),
            new RankReply(RankSet.of(1), EventBodies.value(X)),
            new RankReply(
                RankSet.of(0),
                EventBodies.value(Value.scalar("x", "int", Value.Kind.INTEGER, 4, "0"))));
    assertEquals(
        "0 on [0], 42 on [1], 98 more values on 98 ranks, min -7 [50], max 42 [2,3] on [2-99]",
        PerRankValues.of(replies));
  }
}

package io.sdmfabric.server;

import io.sdmfabric.model.TerminalText;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * Refuses, for one node, the messages that name another node as their recipient: copies of another
 * node's messages, which over aeron-udp still open in this JVM. The first is logged, with the names
 * escaped; the rest are counted and told when the node stops ({@link #tellCount}), so that a flood
 * of copies cannot flood the log.
 */
final class Misaddressed {
  private long count;

  /** Refuses a {@code what} meant for {@code to}, which is not {@code context}'s node. */
  void refuse(ActorContext<?> context, String what, ActorRef<?> to) {
    if (++count == 1) {
      context
          .getLog()
          .warn(
              "refused {} meant for {} at {}: a copy of another node's message (later ones are"
                  + " counted)",
              what,
              TerminalText.escape(to.path().toString()),
              TerminalText.escape(context.getSelf().path().toString()));
    }
  }

  /** Logs how many were refused in all, when more than the one logged already. */
  void tellCount(ActorContext<?> context) {
    if (count > 1) {
      context.getLog().warn("refused {} messages meant for other nodes in all", count);
    }
  }
}

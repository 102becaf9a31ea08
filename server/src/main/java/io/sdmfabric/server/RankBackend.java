package io.sdmfabric.server;

import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * What a server actor drives for its rank: commands in, replies and unsolicited events out, in the
 * wire's terms. {@link DebuggerBackend} puts any {@link io.sdmfabric.model.Debugger} (gdb or
 * simulated) behind it.
 *
 * <p>{@link #execute} must not block; a reply that is ready at once should come as a completed
 * stage (the actor then answers without a round trip through its mailbox). Failures are replies
 * too: an error is an {@code EventBody} with an {@code error}, not a failed stage; a failed stage
 * is turned into one by the actor. Backends of one JVM may share {@link ReplyBody} instances for
 * equal replies, so that each is serialized once.
 */
public interface RankBackend extends AutoCloseable {

  /** Runs one command for this rank. */
  CompletionStage<ReplyBody> execute(CommandBody command);

  /** Sets the receiver of unsolicited events (stops, exits, output); called once, first. */
  void subscribe(Consumer<EventBody> events);

  /** Ends the rank's debugger and program; never throws. */
  @Override
  void close();
}

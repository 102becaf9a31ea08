package io.sdmfabric.runtime.agent;

import io.sdmfabric.master.Rendezvous;
import io.sdmfabric.master.Session;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.RankBackend;
import io.sdmfabric.server.ServerNode;
import io.sdmfabric.wire.SessionSecret;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.cluster.typed.SelfUp;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * The guardian of an agent JVM: joins the master's cluster and, once a member, asks for its ranks;
 * each rank that becomes ready gets its server actor, registered with the master's rendezvous (with
 * proof of the session secret) as soon as it is there.
 */
final class NodeAgent {
  /** What the agent hears. */
  sealed interface Message extends NoSerializationVerificationNeeded permits Joined, RankReady {}

  /** This JVM is a member of the master's cluster. */
  record Joined(SelfUp up) implements Message {}

  /** A rank of this node is ready to be served by {@code backend}. */
  record RankReady(int rank, RankBackend backend) implements Message {}

  private NodeAgent() {}

  /**
   * An agent for the master at {@code master}; once joined, {@code ranks} is given the agent's
   * address to tell its {@link RankReady} messages to.
   */
  static Behavior<Message> create(
      Address master,
      SessionSecret secret,
      FabricConfig config,
      Consumer<ActorRef<Message>> ranks) {
    return Behaviors.setup(
        context -> {
          Cluster cluster = Cluster.get(context.getSystem());
          cluster.manager().tell(Join.create(master));
          cluster
              .subscriptions()
              .tell(
                  Subscribe.create(
                      context.messageAdapter(SelfUp.class, Joined::new), SelfUp.class));
          ActorRef<Rendezvous.Command> rendezvous =
              ActorRefResolver.get(context.getSystem())
                  .resolveActorRef(master + "/user/" + Session.RENDEZVOUS);
          String name = cluster.selfMember().address().toString();
          return Behaviors.receive(Message.class)
              .onMessage(
                  Joined.class,
                  joined -> {
                    ranks.accept(context.getSelf());
                    return Behaviors.same();
                  })
              .onMessage(
                  RankReady.class,
                  ready -> {
                    ActorRef<ServerNode.Command> node =
                        context.spawn(
                            ServerNode.detached(config, ready.rank() + 1, ready.backend()),
                            "rank-" + ready.rank(),
                            ServerNode.DISPATCHER);
                    rendezvous.tell(
                        new Rendezvous.Register(
                            name, Map.of(ready.rank(), node), secret.proof(name)));
                    return Behaviors.same();
                  })
              .build();
        });
  }
}

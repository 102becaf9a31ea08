package io.sdmfabric.master.internal;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.sdmfabric.master.Rendezvous;
import io.sdmfabric.server.SealingSerializer;
import io.sdmfabric.server.ServerNode;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.proto.ChallengeProto;
import io.sdmfabric.wire.proto.KnockProto;
import io.sdmfabric.wire.proto.RegisterProto;
import java.io.NotSerializableException;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.javadsl.Adapter;

/**
 * Serializes {@link Rendezvous.Register}, {@link Rendezvous.Knock} and {@link Rendezvous.Challenge}
 * as the protobuf messages of {@code tree.proto}; malformed bytes raise {@link
 * NotSerializableException}, which Pekko logs and drops.
 */
public final class RendezvousSerializer extends SealingSerializer {
  private static final String REGISTER = "G";
  private static final String KNOCK = "K";
  private static final String CHALLENGE = "C";

  private final ActorRefResolver resolver;

  /** Made by Pekko's serialization extension. */
  public RendezvousSerializer(ExtendedActorSystem system) {
    super(system);
    this.resolver = ActorRefResolver.get(Adapter.toTyped(system));
  }

  @Override
  public int identifier() {
    return 7302;
  }

  @Override
  public String manifest(Object o) {
    if (o instanceof Rendezvous.Register) {
      return REGISTER;
    } else if (o instanceof Rendezvous.Knock) {
      return KNOCK;
    } else if (o instanceof Rendezvous.Challenge) {
      return CHALLENGE;
    }
    throw new IllegalArgumentException("not a rendezvous message: " + o.getClass());
  }

  @Override
  protected byte[] encode(Object o) {
    if (o instanceof Rendezvous.Knock k) {
      return KnockProto.newBuilder()
          .setAgent(k.agent())
          .setReplyTo(resolver.toSerializationFormat(k.replyTo()))
          .build()
          .toByteArray();
    } else if (o instanceof Rendezvous.Challenge c) {
      return ChallengeProto.newBuilder()
          .setAgent(c.agent())
          .setNonce(ByteString.copyFrom(c.nonce()))
          .build()
          .toByteArray();
    }
    Rendezvous.Register r = (Rendezvous.Register) o;
    return RegisterProto.newBuilder()
        .setAgent(r.agent())
        .setNode(resolver.toSerializationFormat(r.node()))
        .setRanks(Protos.toProto(r.ranks()))
        .setCounter(r.counter())
        .setProof(ByteString.copyFrom(r.proof()))
        .build()
        .toByteArray();
  }

  @Override
  protected Object decode(byte[] bytes, String manifest) throws NotSerializableException {
    try {
      switch (manifest) {
        case KNOCK:
          {
            KnockProto k = KnockProto.parseFrom(bytes);
            ActorRef<Rendezvous.Challenge> replyTo = resolver.resolveActorRef(k.getReplyTo());
            return new Rendezvous.Knock(k.getAgent(), replyTo);
          }
        case CHALLENGE:
          {
            ChallengeProto c = ChallengeProto.parseFrom(bytes);
            return new Rendezvous.Challenge(c.getAgent(), c.getNonce().toByteArray());
          }
        case REGISTER:
          {
            RegisterProto r = RegisterProto.parseFrom(bytes);
            ActorRef<ServerNode.Command> node = resolver.resolveActorRef(r.getNode());
            return new Rendezvous.Register(
                r.getAgent(),
                node,
                Protos.fromProto(r.getRanks()),
                r.getCounter(),
                r.getProof().toByteArray());
          }
        default:
          throw new NotSerializableException(
              "unknown manifest of a rendezvous message: " + manifest);
      }
    } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
      NotSerializableException n =
          new NotSerializableException("malformed rendezvous message: " + e);
      n.initCause(e);
      throw n;
    }
  }
}

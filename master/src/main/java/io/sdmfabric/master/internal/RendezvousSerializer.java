package io.sdmfabric.master.internal;

import com.google.protobuf.InvalidProtocolBufferException;
import io.sdmfabric.master.Rendezvous;
import io.sdmfabric.server.ServerNode;
import io.sdmfabric.wire.proto.RankNodeProto;
import io.sdmfabric.wire.proto.RegisterProto;
import java.io.NotSerializableException;
import java.util.HashMap;
import java.util.Map;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.SerializerWithStringManifest;

/**
 * Serializes {@link Rendezvous.Register} as {@code RegisterProto}; malformed bytes raise {@link
 * NotSerializableException}, which Pekko logs and drops.
 */
public final class RendezvousSerializer extends SerializerWithStringManifest {
  private static final String REGISTER = "G";

  private final ActorRefResolver resolver;

  /** Made by Pekko's serialization extension. */
  public RendezvousSerializer(ExtendedActorSystem system) {
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
    }
    throw new IllegalArgumentException("not a rendezvous message: " + o.getClass());
  }

  @Override
  public byte[] toBinary(Object o) {
    Rendezvous.Register r = (Rendezvous.Register) o;
    RegisterProto.Builder b =
        RegisterProto.newBuilder()
            .setAgent(r.agent())
            .setProof(com.google.protobuf.ByteString.copyFrom(r.proof()));
    r.nodes().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e ->
                b.addNodes(
                    RankNodeProto.newBuilder()
                        .setRank(e.getKey())
                        .setRef(resolver.toSerializationFormat(e.getValue()))));
    return b.build().toByteArray();
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) throws NotSerializableException {
    if (!REGISTER.equals(manifest)) {
      throw new NotSerializableException("unknown manifest of a rendezvous message: " + manifest);
    }
    try {
      RegisterProto r = RegisterProto.parseFrom(bytes);
      Map<Integer, ActorRef<ServerNode.Command>> nodes = new HashMap<>();
      for (RankNodeProto n : r.getNodesList()) {
        nodes.put(n.getRank(), resolver.resolveActorRef(n.getRef()));
      }
      return new Rendezvous.Register(r.getAgent(), nodes, r.getProof().toByteArray());
    } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
      NotSerializableException n =
          new NotSerializableException("malformed rendezvous message: " + e);
      n.initCause(e);
      throw n;
    }
  }
}

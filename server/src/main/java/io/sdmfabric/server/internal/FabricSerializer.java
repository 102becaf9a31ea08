package io.sdmfabric.server.internal;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.ChildLink;
import io.sdmfabric.server.ReplyGroup;
import io.sdmfabric.server.SealingSerializer;
import io.sdmfabric.server.ServerNode;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.proto.AttachProto;
import io.sdmfabric.wire.proto.ChildLinkProto;
import io.sdmfabric.wire.proto.EventsProto;
import io.sdmfabric.wire.proto.ExecuteProto;
import io.sdmfabric.wire.proto.RankSetProto;
import io.sdmfabric.wire.proto.RanksLostProto;
import io.sdmfabric.wire.proto.RepliesProto;
import io.sdmfabric.wire.proto.ReplyGroupProto;
import io.sdmfabric.wire.proto.RewireProto;
import java.io.NotSerializableException;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.javadsl.Adapter;

/**
 * Serializes the tree's messages ({@link ServerNode.Attach}, {@link ServerNode.Rewire}, {@link
 * ServerNode.Execute}, {@link ServerNode.Replies}, {@link ServerNode.Events}, {@link
 * ServerNode.RanksLost}) as the protobuf messages of {@code tree.proto}. Bound in this module's
 * {@code reference.conf}. Bytes that do not parse raise {@link NotSerializableException}, which
 * Pekko logs and drops: a malformed message never reaches an actor.
 */
public final class FabricSerializer extends SealingSerializer {
  private static final String ATTACH = "A";
  private static final String REWIRE = "W";
  private static final String EXECUTE = "X";
  private static final String REPLIES = "R";
  private static final String EVENTS = "E";
  private static final String LOST = "L";

  private final ActorRefResolver resolver;

  /** Made by Pekko's serialization extension. */
  public FabricSerializer(ExtendedActorSystem system) {
    super(system);
    this.resolver = ActorRefResolver.get(Adapter.toTyped(system));
  }

  @Override
  public int identifier() {
    return 7301;
  }

  @Override
  public String manifest(Object o) {
    if (o instanceof ServerNode.Attach) {
      return ATTACH;
    } else if (o instanceof ServerNode.Rewire) {
      return REWIRE;
    } else if (o instanceof ServerNode.Execute) {
      return EXECUTE;
    } else if (o instanceof ServerNode.Replies) {
      return REPLIES;
    } else if (o instanceof ServerNode.Events) {
      return EVENTS;
    } else if (o instanceof ServerNode.RanksLost) {
      return LOST;
    }
    throw new IllegalArgumentException("not a message of the tree: " + o.getClass());
  }

  @Override
  protected byte[] encode(Object o) {
    if (o instanceof ServerNode.Attach a) {
      return AttachProto.newBuilder()
          .setTo(resolver.toSerializationFormat(a.to()))
          .setNode(a.node())
          .setRanks(ranks(a.ranks()))
          .setParent(resolver.toSerializationFormat(a.parent()))
          .addAllChildren(links(a.children()))
          .build()
          .toByteArray();
    } else if (o instanceof ServerNode.Rewire w) {
      return RewireProto.newBuilder()
          .setTo(resolver.toSerializationFormat(w.to()))
          .setParent(resolver.toSerializationFormat(w.parent()))
          .addAllChildren(links(w.children()))
          .setLost(ranks(w.lost()))
          .build()
          .toByteArray();
    } else if (o instanceof ServerNode.Execute x) {
      return ExecuteProto.newBuilder()
          .setId(x.id())
          .setDest(ranks(x.dest()))
          .setTimeoutMs(x.timeoutMs())
          .setBody(x.body())
          .build()
          .toByteArray();
    } else if (o instanceof ServerNode.Replies r) {
      return RepliesProto.newBuilder()
          .setTo(resolver.toSerializationFormat(r.to()))
          .setId(r.id())
          .addAllGroups(groups(r.groups()))
          .build()
          .toByteArray();
    } else if (o instanceof ServerNode.Events e) {
      return EventsProto.newBuilder()
          .setTo(resolver.toSerializationFormat(e.to()))
          .addAllGroups(groups(e.groups()))
          .setHeldMs(e.heldMs())
          .build()
          .toByteArray();
    } else if (o instanceof ServerNode.RanksLost l) {
      return RanksLostProto.newBuilder()
          .setTo(resolver.toSerializationFormat(l.to()))
          .setRanks(ranks(l.ranks()))
          .setReason(l.reason())
          .build()
          .toByteArray();
    }
    throw new IllegalArgumentException("not a message of the tree: " + o.getClass());
  }

  @Override
  protected Object decode(byte[] bytes, String manifest) throws NotSerializableException {
    try {
      switch (manifest) {
        case ATTACH:
          {
            AttachProto a = AttachProto.parseFrom(bytes);
            ActorRef<ServerNode.Up> parent = resolver.resolveActorRef(a.getParent());
            ActorRef<ServerNode.Command> to = resolver.resolveActorRef(a.getTo());
            return new ServerNode.Attach(
                to, a.getNode(), ranks(a.getRanks()), parent, linksFrom(a.getChildrenList()));
          }
        case REWIRE:
          {
            RewireProto w = RewireProto.parseFrom(bytes);
            ActorRef<ServerNode.Up> parent = resolver.resolveActorRef(w.getParent());
            ActorRef<ServerNode.Command> to = resolver.resolveActorRef(w.getTo());
            return new ServerNode.Rewire(
                to, parent, linksFrom(w.getChildrenList()), ranks(w.getLost()));
          }
        case EXECUTE:
          {
            ExecuteProto x = ExecuteProto.parseFrom(bytes);
            return new ServerNode.Execute(
                x.getId(), ranks(x.getDest()), x.getTimeoutMs(), x.getBody());
          }
        case REPLIES:
          {
            RepliesProto r = RepliesProto.parseFrom(bytes);
            ActorRef<ServerNode.Up> to = resolver.resolveActorRef(r.getTo());
            return new ServerNode.Replies(to, r.getId(), groupsFrom(r.getGroupsList()));
          }
        case EVENTS:
          {
            EventsProto e = EventsProto.parseFrom(bytes);
            ActorRef<ServerNode.Up> to = resolver.resolveActorRef(e.getTo());
            return new ServerNode.Events(to, groupsFrom(e.getGroupsList()), e.getHeldMs());
          }
        case LOST:
          {
            RanksLostProto lost = RanksLostProto.parseFrom(bytes);
            ActorRef<ServerNode.Up> to = resolver.resolveActorRef(lost.getTo());
            return new ServerNode.RanksLost(to, ranks(lost.getRanks()), lost.getReason());
          }
        default:
          throw new NotSerializableException("unknown manifest of a tree message: " + manifest);
      }
    } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
      NotSerializableException n =
          new NotSerializableException("malformed tree message " + manifest + ": " + e);
      n.initCause(e);
      throw n;
    }
  }

  private List<ChildLinkProto> links(List<ChildLink> children) {
    List<ChildLinkProto> out = new ArrayList<>(children.size());
    for (ChildLink c : children) {
      out.add(
          ChildLinkProto.newBuilder()
              .setRef(resolver.toSerializationFormat(c.ref()))
              .setNode(c.node())
              .setEnd(c.end())
              .setRanks(ranks(c.ranks()))
              .build());
    }
    return out;
  }

  private List<ChildLink> linksFrom(List<ChildLinkProto> links) {
    List<ChildLink> out = new ArrayList<>(links.size());
    for (ChildLinkProto c : links) {
      ActorRef<ServerNode.Command> ref = resolver.resolveActorRef(c.getRef());
      out.add(new ChildLink(ref, c.getNode(), c.getEnd(), ranks(c.getRanks())));
    }
    return out;
  }

  private static RankSetProto ranks(RankSet ranks) {
    return Protos.toProto(ranks);
  }

  private static RankSet ranks(RankSetProto proto) {
    return Protos.fromProto(proto);
  }

  private static List<ReplyGroupProto> groups(List<ReplyGroup> groups) {
    List<ReplyGroupProto> out = new ArrayList<>(groups.size());
    for (ReplyGroup g : groups) {
      out.add(
          ReplyGroupProto.newBuilder()
              .setRanks(ranks(g.ranks()))
              .setBody(ByteString.copyFrom(g.body()))
              .build());
    }
    return out;
  }

  private static List<ReplyGroup> groupsFrom(List<ReplyGroupProto> groups) {
    List<ReplyGroup> out = new ArrayList<>(groups.size());
    for (ReplyGroupProto g : groups) {
      out.add(new ReplyGroup(ranks(g.getRanks()), g.getBody().toByteArray()));
    }
    return out;
  }
}

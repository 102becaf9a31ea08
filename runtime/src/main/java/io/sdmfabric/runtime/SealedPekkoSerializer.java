package io.sdmfabric.runtime;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValueFactory;
import io.sdmfabric.server.SealingSerializer;
import io.sdmfabric.wire.MessageSeal;
import java.io.NotSerializableException;
import java.lang.reflect.Constructor;
import java.util.Map;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.SerializerWithStringManifest;
import scala.Option;

/**
 * One of Pekko's own serializers, sealed with the session's {@link MessageSeal} over a transport
 * without TLS (aeron-udp): cluster membership (join, gossip, heartbeats, leave, down), Artery's
 * handshake and control messages, PoisonPill, Kill, Identify, actor selections, system messages,
 * remote deployment. Over aeron-udp anyone on the network can send a datagram to a session's port;
 * sdm's own messages were sealed already ({@link SealingSerializer}), and with Pekko's sealed too a
 * message that is not the session's is refused before any of it is decoded: an outsider can neither
 * join the cluster, nor down or remove a member, nor stop or find an actor. This is what Pekko's
 * untrusted mode would give and more: untrusted mode drops every system message from another node,
 * which remote death watch needs, and refuses no cluster message at all.
 *
 * <p>Unlike sdm's own messages, a copy of one of Pekko's, sent again within {@link
 * MessageSeal#WINDOW}, is taken again: Artery itself sends some control messages as the same bytes
 * on each of its streams. A copy repeats what a JVM of the session said: old gossip is older than
 * what the receiver knows and changes nothing, system messages carry sequence numbers that Artery
 * checks, and sdm sends no PoisonPill, Kill or Identify between nodes. At most a copied heartbeat
 * hides a lost node for that minute, a denial of service that whoever can copy packets can have by
 * dropping them.
 *
 * <p>It takes the place of the serializer it wraps, under the same name and the same identifier, so
 * that every binding stays as it was and a message sent with the wrapped serializer's identifier by
 * an outsider reaches this one. Which serializer a name wraps is the setting {@value
 * #WRAPPED_SETTING}{@code ."NAME"}; {@link #everyPekkoSerializer} writes both.
 */
public final class SealedPekkoSerializer extends SerializerWithStringManifest {
  /** The setting under which each wrapped serializer's class is kept, by its binding name. */
  public static final String WRAPPED_SETTING = "sdm.fabric.sealed-serializers";

  private final ExtendedActorSystem system;
  private final Serializer wrapped;
  private final String key;
  private final MessageSeal seal;

  /** Made by Pekko for the serializer named {@code bindingName}. */
  public SealedPekkoSerializer(ExtendedActorSystem system, String bindingName) {
    this.system = system;
    Config config = system.settings().config();
    String key = config.getString(SealingSerializer.KEY_SETTING);
    if (key.isEmpty()) {
      throw new IllegalArgumentException(
          "the sealed serializer " + bindingName + " needs " + SealingSerializer.KEY_SETTING);
    }
    this.key = key;
    this.seal = MessageSeal.withKey(key);
    this.wrapped = instantiate(config.getString(wrappedPath(bindingName)), system, bindingName);
  }

  /**
   * Settings that put a sealed serializer in the place of every serializer {@code settings} name
   * (Pekko's, and any other library's) but sdm's own, which seal themselves, and Java
   * serialization, which Pekko replaces by one that refuses everything.
   */
  public static Config everyPekkoSerializer(Config settings) {
    Config replaced = ConfigFactory.empty();
    for (Map.Entry<String, Object> e :
        settings.getConfig("pekko.actor.serializers").root().unwrapped().entrySet()) {
      String name = e.getKey();
      String serializer = String.valueOf(e.getValue());
      if (serializer.startsWith("io.sdmfabric.")
          || serializer.equals("org.apache.pekko.serialization.JavaSerializer")
          || serializer.equals("org.apache.pekko.serialization.DisabledJavaSerializer")) {
        continue;
      }
      replaced =
          replaced
              .withValue(
                  ConfigUtil.joinPath("pekko", "actor", "serializers", name),
                  ConfigValueFactory.fromAnyRef(SealedPekkoSerializer.class.getName()))
              .withValue(wrappedPath(name), ConfigValueFactory.fromAnyRef(serializer));
    }
    return replaced;
  }

  /** Where the class of the serializer named {@code name} is kept: {@value #WRAPPED_SETTING}. */
  private static String wrappedPath(String name) {
    return ConfigUtil.joinPath("sdm", "fabric", "sealed-serializers", name);
  }

  /** The serializer {@code className}, made as Pekko makes serializers. */
  private static Serializer instantiate(
      String className, ExtendedActorSystem system, String bindingName) {
    try {
      Class<?> type = Class.forName(className, true, system.dynamicAccess().classLoader());
      for (Constructor<?> c : type.getConstructors()) {
        Class<?>[] p = c.getParameterTypes();
        if (p.length == 1 && p[0].isAssignableFrom(ExtendedActorSystem.class)) {
          return (Serializer) c.newInstance(system);
        }
      }
      for (Constructor<?> c : type.getConstructors()) {
        Class<?>[] p = c.getParameterTypes();
        if (p.length == 0) {
          return (Serializer) c.newInstance();
        }
        if (p.length == 2
            && p[0].isAssignableFrom(ExtendedActorSystem.class)
            && p[1] == String.class) {
          return (Serializer) c.newInstance(system, bindingName);
        }
      }
      throw new IllegalArgumentException(className + " has no constructor Pekko would call");
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException("cannot make the serializer " + className, e);
    }
  }

  @Override
  public int identifier() {
    return wrapped.identifier();
  }

  @Override
  public String manifest(Object o) {
    if (wrapped instanceof SerializerWithStringManifest withManifest) {
      return withManifest.manifest(o);
    }
    return wrapped.includeManifest() ? o.getClass().getName() : "";
  }

  @Override
  public byte[] toBinary(Object o) {
    return seal.seal(wrapped.toBinary(o), manifest(o), identifier());
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) throws NotSerializableException {
    byte[] opened;
    try {
      // A seal of its own for each message: one that opened before is taken again. Artery sends
      // some of its control messages (Flush, when a system stops) as the same bytes on each of
      // its streams, and each copy must arrive; a copy of Pekko's messages repeats only what the
      // session's own JVMs said (below).
      opened = MessageSeal.withKey(key).open(bytes, manifest, identifier());
    } catch (MessageSeal.Refused e) {
      // The manifest is the sender's text: it is left out.
      throw new NotSerializableException(
          "refused a message for Pekko's serializer " + identifier() + ": " + e.getMessage());
    }
    if (wrapped instanceof SerializerWithStringManifest withManifest) {
      return withManifest.fromBinary(opened, manifest);
    }
    Option<Class<?>> type = Option.empty();
    if (wrapped.includeManifest() && !manifest.isEmpty()) {
      try {
        type = Option.apply(Class.forName(manifest, false, system.dynamicAccess().classLoader()));
      } catch (ClassNotFoundException e) {
        throw new NotSerializableException("no class " + manifest);
      }
    }
    return wrapped.fromBinary(opened, type);
  }
}

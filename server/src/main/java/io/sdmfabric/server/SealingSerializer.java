package io.sdmfabric.server;

import io.sdmfabric.model.TerminalText;
import io.sdmfabric.wire.MessageSeal;
import java.io.NotSerializableException;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.serialization.SerializerWithStringManifest;

/**
 * The base of the serializers of the session's own messages: each subclass encodes and decodes its
 * messages, and this class seals them ({@link MessageSeal}) when the actor system's setting {@value
 * #KEY_SETTING} holds a key, as it does over a transport without TLS (aeron-udp). A message that
 * does not open raises {@link NotSerializableException}, and Pekko drops it: it never reaches an
 * actor. Such refusals are told by {@link RefusedMessages}, one line per sender and interval with a
 * count, escaped, in place of Artery's error with a stack trace for each.
 */
public abstract class SealingSerializer extends SerializerWithStringManifest {
  /** The setting that holds the seal's key in hex ({@link MessageSeal#sessionKey}); empty: none. */
  public static final String KEY_SETTING = "sdm.fabric.seal-key";

  private final MessageSeal seal;
  private final ExtendedActorSystem system;

  protected SealingSerializer(ExtendedActorSystem system) {
    String key = system.settings().config().getString(KEY_SETTING);
    this.seal = key.isEmpty() ? null : MessageSeal.withKey(key);
    this.system = system;
    if (seal != null) {
      RefusedMessages.flushEveryInterval(system);
    }
  }

  /** The bytes of {@code o}, one of this serializer's messages. */
  protected abstract byte[] encode(Object o);

  /**
   * The message that {@link #encode} made {@code bytes} of.
   *
   * @throws NotSerializableException when they are not one
   */
  protected abstract Object decode(byte[] bytes, String manifest) throws NotSerializableException;

  @Override
  public final byte[] toBinary(Object o) {
    byte[] bytes = encode(o);
    return seal == null ? bytes : seal.seal(bytes, manifest(o), identifier());
  }

  @Override
  public final Object fromBinary(byte[] bytes, String manifest) throws NotSerializableException {
    if (seal == null) {
      return decode(bytes, manifest);
    }
    RefusedMessages.newMessage();
    byte[] payload;
    try {
      payload = seal.open(bytes, manifest, identifier());
    } catch (MessageSeal.Refused e) {
      // Told here, once per source and interval, in place of Artery's error with a stack trace.
      RefusedMessages.refused(
          system, MessageSeal.claimedSender(bytes).orElse(""), manifest, e.getMessage());
      throw new NotSerializableException(
          "refused a message (manifest \""
              + TerminalText.escape(manifest.substring(0, Math.min(manifest.length(), 64)))
              + "\"): "
              + e.getMessage());
    }
    return decode(payload, manifest);
  }
}

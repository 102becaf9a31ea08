package io.sdmfabric.wire;

import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * TLS 1.3 under the front-end protocol. Each side presents a certificate made in its own JVM
 * ({@link TlsIdentity}: the dialer one for each connection, a listener one for all the connections
 * it accepts) and takes whatever certificate the other side presents: nobody vouches for either.
 * What makes the channel safe is the handshake that follows inside it: both sides prove the session
 * secret over a transcript that holds both certificates' fingerprints as each side saw them ({@link
 * Handshake}), so a man in the middle, who must present certificates of his own to each side, makes
 * every proof fail. After that, TLS's records refuse any byte that was injected, altered, replayed
 * or reordered, and nobody on the path reads a frame.
 */
final class FrameTls {
  private static final String PROTOCOL = "TLSv1.3";

  private FrameTls() {}

  /** A TLS socket over a TCP connection, and the fingerprint of the certificate it presents. */
  record Secured(SSLSocket socket, byte[] fingerprint) {}

  /**
   * One side's TLS: its identity and a context made for it, used for any number of connections.
   * Making it costs nothing but what the identity cost: the key goes to the JDK as it is, not
   * through a password-protected key store.
   */
  record Side(SSLContext context, byte[] fingerprint) {
    static Side of(TlsIdentity identity) {
      try {
        SSLContext c = SSLContext.getInstance(PROTOCOL);
        c.init(
            new X509ExtendedKeyManager[] {new OneKey(identity)},
            new X509ExtendedTrustManager[] {new AnyCertificate()},
            null);
        return new Side(c, identity.fingerprint());
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("TLS 1.3 is part of every JDK 17", e);
      }
    }

    /** A side with an identity of its own, made now. */
    static Side fresh() {
      return of(TlsIdentity.generate("sdm front-end protocol"));
    }
  }

  /** TLS over {@code plain}, as the side that opened the TCP connection (the TLS client). */
  static Secured client(Socket plain, Side side) throws IOException {
    SSLSocket s =
        (SSLSocket)
            side.context()
                .getSocketFactory()
                .createSocket(
                    plain, plain.getInetAddress().getHostAddress(), plain.getPort(), true);
    s.setUseClientMode(true);
    s.setEnabledProtocols(new String[] {PROTOCOL});
    return new Secured(s, side.fingerprint());
  }

  /** TLS over {@code plain}, as the side that accepted the TCP connection (the TLS server). */
  static Secured server(Socket plain, Side side) throws IOException {
    SSLSocket s = (SSLSocket) side.context().getSocketFactory().createSocket(plain, null, true);
    s.setUseClientMode(false);
    s.setNeedClientAuth(true);
    s.setEnabledProtocols(new String[] {PROTOCOL});
    return new Secured(s, side.fingerprint());
  }

  /** Presents the one identity, an EC key, whenever TLS asks for one. */
  private static final class OneKey extends X509ExtendedKeyManager {
    private static final String KEY_TYPE = "EC";

    private final TlsIdentity identity;

    OneKey(TlsIdentity identity) {
      this.identity = identity;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
      return new String[] {TlsIdentity.ALIAS};
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
      return List.of(keyType).contains(KEY_TYPE) ? TlsIdentity.ALIAS : null;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
      return List.of(keyType).contains(KEY_TYPE) ? TlsIdentity.ALIAS : null;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
      return new String[] {TlsIdentity.ALIAS};
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
      return KEY_TYPE.equals(keyType) ? TlsIdentity.ALIAS : null;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
      return KEY_TYPE.equals(keyType) ? TlsIdentity.ALIAS : null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
      return new X509Certificate[] {identity.certificate()};
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
      return identity.key();
    }
  }

  /**
   * Takes any certificate: the handshake inside the channel authenticates the other side, with the
   * certificate's fingerprint in its proofs.
   */
  private static final class AnyCertificate extends X509ExtendedTrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}

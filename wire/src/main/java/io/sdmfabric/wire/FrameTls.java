package io.sdmfabric.wire;

import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * TLS 1.3 under the front-end protocol. Each side of each connection presents a certificate made
 * for that connection ({@link TlsIdentity}: a millisecond or two) and takes whatever certificate
 * the other side presents: nobody vouches for either. What makes the channel safe is the handshake
 * that follows inside it: both sides prove the session secret over a transcript that holds both
 * certificates' fingerprints as each side saw them ({@link Handshake}), so a man in the middle, who
 * must present certificates of his own to each side, makes every proof fail. After that, TLS's
 * records refuse any byte that was injected, altered, replayed or reordered, and nobody on the path
 * reads a frame.
 */
final class FrameTls {
  private static final String PROTOCOL = "TLSv1.3";
  private static final char[] PASSWORD = "in memory only".toCharArray();

  private FrameTls() {}

  /** A TLS socket over a TCP connection, and the fingerprint of the certificate it presents. */
  record Secured(SSLSocket socket, byte[] fingerprint) {}

  /** TLS over {@code plain}, as the side that opened the TCP connection (the TLS client). */
  static Secured client(Socket plain) throws IOException {
    TlsIdentity identity = TlsIdentity.generate("sdm front-end protocol");
    SSLSocket s =
        (SSLSocket)
            context(identity)
                .getSocketFactory()
                .createSocket(
                    plain, plain.getInetAddress().getHostAddress(), plain.getPort(), true);
    s.setUseClientMode(true);
    s.setEnabledProtocols(new String[] {PROTOCOL});
    return new Secured(s, identity.fingerprint());
  }

  /** TLS over {@code plain}, as the side that accepted the TCP connection (the TLS server). */
  static Secured server(Socket plain) throws IOException {
    TlsIdentity identity = TlsIdentity.generate("sdm front-end protocol");
    SSLSocket s = (SSLSocket) context(identity).getSocketFactory().createSocket(plain, null, true);
    s.setUseClientMode(false);
    s.setNeedClientAuth(true);
    s.setEnabledProtocols(new String[] {PROTOCOL});
    return new Secured(s, identity.fingerprint());
  }

  private static SSLContext context(TlsIdentity identity) {
    try {
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(identity.keyStore(PASSWORD), PASSWORD);
      SSLContext c = SSLContext.getInstance(PROTOCOL);
      c.init(keys.getKeyManagers(), new X509ExtendedTrustManager[] {new AnyCertificate()}, null);
      return c;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("TLS 1.3 is part of every JDK 17", e);
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

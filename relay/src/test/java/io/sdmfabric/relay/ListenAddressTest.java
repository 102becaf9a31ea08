package io.sdmfabric.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.wire.HostPort;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ListenAddress}: an address given is used as it is; a port alone goes with the address of
 * this host's name, and is refused when that is loopback or nothing.
 */
class ListenAddressTest {
  private static final ListenAddress.LocalHost NOT_ASKED =
      () -> {
        throw new AssertionError("an address was given: nothing to look up");
      };

  @Test
  void aPortAloneIsRefusedWhenThisHostsNameResolvesToLoopback() throws Exception {
    InetAddress debianStyle = InetAddress.getByAddress("login1", new byte[] {127, 0, 1, 1});
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> ListenAddress.of("7000", () -> debianStyle));
    assertEquals(
        "--listen 7000: this host's name, login1, resolves to 127.0.1.1, a loopback address the"
            + " compute nodes cannot reach: name the address they reach, --listen ADDR:7000 (or"
            + " 0.0.0.0:7000 for every interface)",
        e.getMessage());
  }

  @Test
  void aPortAloneIsRefusedWhenThisHostsNameDoesNotResolve() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ListenAddress.of(
                    "7000",
                    () -> {
                      throw new UnknownHostException("login1: Name or service not known");
                    }));
    assertEquals(
        "--listen 7000: this host's name does not resolve, so a port alone has no address to go"
            + " with: name the address the compute nodes reach, --listen ADDR:7000",
        e.getMessage());
  }

  @Test
  void aPortAloneGoesWithTheAddressOfThisHostsNameAndSaysSo() throws Exception {
    InetAddress named = InetAddress.getByAddress("login1", new byte[] {10, 1, 2, 3});
    ListenAddress where = ListenAddress.of("7000", () -> named);
    assertEquals(new HostPort("10.1.2.3", 7000), where.address());
    assertEquals(1, where.notes().size());
    assertTrue(
        where.notes().get(0).startsWith("listening on the address of this host's name, login1"),
        where.notes().get(0));
  }

  @Test
  void anAddressGivenIsUsedAsItIsWithoutANote() {
    assertEquals(
        new ListenAddress(new HostPort("0.0.0.0", 7000), List.of()),
        ListenAddress.of("0.0.0.0:7000", NOT_ASKED));
  }

  @Test
  void aBadPortIsSaidBeforeAnythingIsLookedUp() {
    assertThrows(IllegalArgumentException.class, () -> ListenAddress.of("70000", NOT_ASKED));
  }
}

package io.sdmfabric.runtime.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.runtime.ClusterSettings;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class AttachTargetsTest {

  @Test
  void barePidsAreThisHostsAndHostsKeepTheirFirstOrder() {
    AttachTargets t =
        AttachTargets.parse(List.of("12,13", "node2:20,21", "14", "node1:30", "node2:22"));
    assertEquals(
        List.of(
            new AttachTargets.Host(AttachTargets.THIS_HOST, List.of(12L, 13L, 14L)),
            new AttachTargets.Host("node2", List.of(20L, 21L, 22L)),
            new AttachTargets.Host("node1", List.of(30L))),
        t.hosts());
  }

  @Test
  void anIpv6HostIsInBrackets() {
    assertEquals(
        List.of(new AttachTargets.Host("fe80::1", List.of(7L))),
        AttachTargets.parse(List.of("[fe80::1]:7")).hosts());
  }

  @Test
  void whatIsNoTargetIsRefusedWithTheForm() {
    for (String bad : List.of("node1:", ":12", "node1:12,", "x", "0", "node1:-3", "1,,2")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> AttachTargets.parse(List.of(bad)));
      assertTrue(e.getMessage().contains("HOST:PID[,PID...]"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> AttachTargets.parse(List.of()));
  }

  @Test
  void aPidGivenTwiceForOneHostIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> AttachTargets.parse(List.of("5,6", "6")));
    assertEquals("pid 6 is given twice", e.getMessage());
    assertEquals(
        2, AttachTargets.parse(List.of("a:6", "b:6")).hosts().size(), "two hosts' pid 6 are two");
  }

  @Test
  void thisHostByNameOrAddressIsLocalAndOthersAreNot() throws Exception {
    assertTrue(AttachTargets.isLocal("localhost"));
    assertTrue(AttachTargets.isLocal("127.0.0.1"));
    assertTrue(AttachTargets.isLocal(InetAddress.getLocalHost().getHostName()));
    assertTrue(AttachTargets.isLocal(ClusterSettings.localAddress()));
    assertFalse(AttachTargets.isLocal("no-such-host.invalid"));
    assertFalse(AttachTargets.isLocal("192.0.2.1")); // TEST-NET-1: nobody's address
  }
}

package io.sdmfabric.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class HostListTest {
  @Test
  void compressesRunsOfNumberedNamesIntoRangesInBrackets() {
    assertEquals("node[1-4]", HostList.compress(List.of("node3", "node1", "node4", "node2")));
    assertEquals(
        "node[1-2,5,7-8]", HostList.compress(List.of("node1", "node2", "node5", "node7", "node8")));
  }

  @Test
  void writesOneNameWithoutBracketsAndEachNameOnce() {
    assertEquals("node2", HostList.compress(List.of("node2", "node2")));
    assertEquals("", HostList.compress(List.of()));
  }

  @Test
  void keepsGroupsOfDifferentPrefixesAndNamesWithoutNumbersApart() {
    assertEquals(
        "gpu[1-2],login,node[3-4]",
        HostList.compress(List.of("node3", "gpu1", "login", "node4", "gpu2")));
  }

  @Test
  void keepsTheWidthOfZeroPaddedNumbers() {
    assertEquals("node[01-03]", HostList.compress(List.of("node02", "node01", "node03")));
    assertEquals(List.of("node08", "node09", "node10"), HostList.expand("node[08-10]"));
  }

  @Test
  void expandsSlurmsNotationInItsOrder() {
    assertEquals(
        List.of("node1", "node2", "node4", "login", "gpu7-ib"),
        HostList.expand("node[1-2,4],login,gpu[7]-ib"));
    assertEquals(List.of(), HostList.expand(""));
  }

  @Test
  void expandOfCompressIsTheSortedNames() {
    List<String> names = List.of("node10", "node9", "node1", "node11", "io3");
    assertEquals(
        List.of("io3", "node1", "node9", "node10", "node11"),
        HostList.expand(HostList.compress(names)));
  }

  @Test
  void refusesTextThatIsNoHostList() {
    assertThrows(IllegalArgumentException.class, () -> HostList.expand("node[1-2"));
    assertThrows(IllegalArgumentException.class, () -> HostList.expand("node[4-2]"));
    assertThrows(IllegalArgumentException.class, () -> HostList.expand("node[a-b]"));
    assertThrows(IllegalArgumentException.class, () -> HostList.expand("node1]"));
  }

  @Test
  void severalBracketsInANameMultiplyOutAndASuffixStays() {
    assertEquals(List.of("r1n1", "r1n2", "r2n1", "r2n2"), HostList.expand("r[1-2]n[1-2]"));
    assertEquals(List.of("gpu1-ib", "gpu2-ib"), HostList.expand("gpu[1-2]-ib"));
    assertEquals(List.of("a", "b"), HostList.expand(" a,b "));
    assertThrows(IllegalArgumentException.class, () -> HostList.expand("node[1-"));
  }
}

package io.sdmfabric.runtime.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class SlurmHostlistTest {
  @Test
  void namesRangesAndPaddingExpandInOrder() {
    assertEquals(List.of("login"), SlurmHostlist.expand("login"));
    assertEquals(List.of("a", "b"), SlurmHostlist.expand("a,b"));
    assertEquals(
        List.of("node1", "node2", "node3", "node7", "login"),
        SlurmHostlist.expand("node[1-3,7],login"));
    assertEquals(List.of("n08", "n09", "n10"), SlurmHostlist.expand("n[08-10]"));
    assertEquals(List.of("r1n1", "r1n2", "r2n1", "r2n2"), SlurmHostlist.expand("r[1-2]n[1-2]"));
    assertEquals(List.of("gpu1-ib", "gpu2-ib"), SlurmHostlist.expand("gpu[1-2]-ib"));
    assertEquals(List.of(), SlurmHostlist.expand(" "));
  }

  @Test
  void aBracketThatIsNotARangeIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> SlurmHostlist.expand("node[1-"));
    assertThrows(IllegalArgumentException.class, () -> SlurmHostlist.expand("node[a-b]"));
  }
}

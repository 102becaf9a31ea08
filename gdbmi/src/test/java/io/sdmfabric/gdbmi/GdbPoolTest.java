package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.LaunchSpec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Programs handed out over real gdbs, a few to each; a gdb ends when nothing more can use it. */
@Tag("gdb")
class GdbPoolTest {
  private final List<GdbDebugger> ranks = new ArrayList<>();

  @BeforeAll
  static void needsGdbAndGcc() {
    TestPrograms.assumeGdbAndGcc();
  }

  @AfterEach
  void closeAll() {
    ranks.forEach(GdbDebugger::close);
  }

  private GdbDebugger next(GdbPool pool) throws IOException {
    GdbDebugger d = pool.next();
    ranks.add(d);
    return d;
  }

  @Test
  void eachGdbTakesAtMostItsShareAndAFullOneStartsTheNext() throws Exception {
    try (GdbPool pool = new GdbPool(GdbOptions.defaults(), 2)) {
      GdbDebugger a = next(pool);
      GdbDebugger b = next(pool);
      GdbDebugger c = next(pool);
      assertSame(a.driver(), b.driver());
      assertNotSame(b.driver(), c.driver());
      assertEquals(2, pool.gdbs());
    }
  }

  @Test
  void aRankClosedWhileTheNextIsComingDoesNotEndTheGdbUntilThePoolIsClosed() throws Exception {
    GdbPool pool = new GdbPool(GdbOptions.defaults(), 4);
    GdbDebugger failed = pool.next();
    // Its attach fails, as when the process is traced already, and it is closed.
    ExecutionException e =
        assertThrows(
            ExecutionException.class,
            () -> failed.attach(Integer.MAX_VALUE).get(20, TimeUnit.SECONDS));
    assertTrue(e.getCause().getMessage().length() > 0);
    failed.close();
    assertTrue(failed.driver().isAlive(), "the gdb is kept for the ranks still to come");
    GdbDebugger next = next(pool);
    next.load(LaunchSpec.of(TestPrograms.get("values").toString())).get(20, TimeUnit.SECONDS);
    pool.close();
    assertThrows(IOException.class, pool::next);
    assertTrue(next.driver().isAlive(), "a closed pool leaves the gdb to its programs");
    next.close();
    ranks.remove(next);
    next.driver().whenExited().get(10, TimeUnit.SECONDS); // the last program ends the gdb
  }

  @Test
  void aGdbLeftWithoutProgramsEndsWhenThePoolCloses() throws Exception {
    GdbPool pool = new GdbPool(GdbOptions.defaults(), 4);
    GdbDebugger only = pool.next();
    only.close();
    assertTrue(only.driver().isAlive());
    pool.close();
    only.driver().whenExited().get(10, TimeUnit.SECONDS); // nothing can use it any more
    assertFalse(only.driver().isAlive());
  }

  @Test
  void programsKnownTogetherGetAGdbOfTheirOwnThatEndsWithTheLastOfThem() throws Exception {
    GdbPool pool = new GdbPool(GdbOptions.defaults(), 3);
    List<GdbDebugger> first = pool.gdbFor(3);
    List<GdbDebugger> second = pool.gdbFor(2);
    ranks.addAll(first);
    ranks.addAll(second);
    assertEquals(2, pool.gdbs());
    assertSame(first.get(0).driver(), first.get(2).driver());
    assertNotSame(first.get(0).driver(), second.get(0).driver());
    for (GdbDebugger d : second) {
      d.load(LaunchSpec.of(TestPrograms.get("values").toString())).get(20, TimeUnit.SECONDS);
    }
    assertThrows(IllegalArgumentException.class, () -> pool.gdbFor(4));
    pool.close();
    assertThrows(IOException.class, () -> pool.gdbFor(1));
    first.forEach(GdbDebugger::close);
    first.get(0).driver().whenExited().get(10, TimeUnit.SECONDS);
    assertTrue(second.get(0).driver().isAlive(), "the other share's gdb is its programs'");
  }

  @Test
  void programsAnnouncedAheadHaveTheirGdbsStartedAtOnceAndOneLeftUnusedEndsWithThePool()
      throws Exception {
    GdbPool pool = new GdbPool(GdbOptions.defaults(), 2);
    try {
      pool.expect(3);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (pool.gdbs() < 2) {
        assertTrue(System.nanoTime() < deadline, "two gdbs did not start within 30 s");
        Thread.sleep(10);
      }
      GdbDebugger a = next(pool);
      GdbDebugger b = next(pool);
      assertSame(a.driver(), b.driver(), "the first gdb is filled first");
      pool.expect(1); // the second gdb has room for it: no third
      assertEquals(2, pool.gdbs());
      GdbDebugger c = next(pool);
      assertNotSame(a.driver(), c.driver());
      c.close();
      ranks.remove(c);
      pool.close();
      c.driver().whenExited().get(10, TimeUnit.SECONDS); // no program left, and none will come
      assertTrue(a.driver().isAlive(), "a full gdb is its programs'");
    } finally {
      pool.close(); // a failure above leaves no gdb without programs behind
    }
  }
}

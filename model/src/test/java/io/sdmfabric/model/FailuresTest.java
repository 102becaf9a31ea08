package io.sdmfabric.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class FailuresTest {

  @Test
  void unwrapsWhatFuturesWrapTheirFailureIn() {
    IOException why = new IOException("gdb exited");
    CompletableFuture<Void> failed = CompletableFuture.failedFuture(why);
    ExecutionException got = assertThrows(ExecutionException.class, failed::get);
    CompletionException joined = assertThrows(CompletionException.class, failed::join);
    assertSame(why, Failures.cause(got));
    assertSame(why, Failures.cause(joined));
    assertSame(why, Failures.cause(new CompletionException(new ExecutionException(why))));
    assertEquals("gdb exited", Failures.message(got));
  }

  @Test
  void leavesOtherFailuresAndWrappersWithoutACauseAlone() {
    IllegalStateException other = new IllegalStateException("x", new IOException("inner"));
    assertSame(other, Failures.cause(other));
    CompletionException empty = new CompletionException("no cause", null);
    assertSame(empty, Failures.cause(empty));
    assertEquals("no cause", Failures.message(empty));
  }

  @Test
  void aFailureWithoutAMessageIsNamedByItsType() {
    assertEquals("TimeoutException", Failures.message(new TimeoutException()));
    assertEquals(
        "TimeoutException", Failures.message(new ExecutionException(new TimeoutException())));
  }
}

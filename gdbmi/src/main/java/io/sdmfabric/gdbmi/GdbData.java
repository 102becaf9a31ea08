package io.sdmfabric.gdbmi;

import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Failures;
import io.sdmfabric.model.MpiWait;
import io.sdmfabric.model.Value;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * One rank's data, as CDT's MIExpressions and its memory service: expressions and their types
 * ({@link ValueReader}), the program's globals, and memory, read and written (with the MPI wait
 * records sdm's library keeps there, {@link MpiWaitRecords}).
 */
final class GdbData {
  static final int MAX_GLOBALS = GdbDebugger.MAX_GLOBALS;

  private final RankLink link;
  private final Inferior inferior;
  private final ValueReader values;

  GdbData(RankLink link) {
    this.link = link;
    this.inferior = link.inferior;
    this.values = new ValueReader(inferior, link::send, link.driver.hasValueCommands());
  }

  CompletableFuture<Value> evaluate(String expression) {
    return values.evaluate(expression);
  }

  CompletableFuture<String> typeOf(String expression) {
    return values.typeOf(expression);
  }

  /**
   * The variables {@code -symbol-info-variables} lists from the program's own source files (not
   * from shared libraries, whose debug info may be installed), at most {@value #MAX_GLOBALS} of
   * them, each evaluated in the current context (a global that a local shadows shows the local's
   * value, as {@code print} would).
   */
  CompletableFuture<List<Value>> globals() {
    CompletableFuture<MiReply> sources =
        link.send(MiCommands.sourceFilesByObjfile(inferior.whole()));
    CompletableFuture<MiReply> variables = link.send(MiCommands.symbolVariables(inferior.whole()));
    return sources.thenCombine(variables, this::programSymbols).thenCompose(this::evaluateAll);
  }

  private List<MiTuple> programSymbols(MiReply sources, MiReply variables) {
    // gdb lists objfiles in load order: the program comes first, then the shared libraries.
    Set<String> own = new HashSet<>();
    List<MiValue> objfiles = sources.results().list("files").items();
    if (!objfiles.isEmpty()) {
      for (MiValue source : GdbResults.asTuple(objfiles.get(0)).list("sources").items()) {
        own.add(GdbResults.asTuple(source).optString("fullname").orElse(""));
      }
    }
    List<MiTuple> symbols = new ArrayList<>();
    for (MiValue file : variables.results().tuple("symbols").list("debug").items()) {
      MiTuple f = GdbResults.asTuple(file);
      if (own.contains(f.optString("fullname").orElse(""))) {
        for (MiValue symbol : f.list("symbols").items()) {
          if (symbols.size() < MAX_GLOBALS) {
            symbols.add(GdbResults.asTuple(symbol));
          }
        }
      }
    }
    return symbols;
  }

  private CompletableFuture<List<Value>> evaluateAll(List<MiTuple> symbols) {
    List<CompletableFuture<Value>> values = new ArrayList<>(symbols.size());
    for (MiTuple symbol : symbols) {
      values.add(global(symbol.string("name"), symbol.optString("type").orElse("")));
    }
    return CompletableFuture.allOf(values.toArray(CompletableFuture[]::new))
        .thenApply(v -> values.stream().map(CompletableFuture::join).toList());
  }

  private CompletableFuture<Value> global(String name, String type) {
    return link.send(MiCommands.evaluate(inferior.here(), name))
        .handle(
            (reply, error) -> {
              String text =
                  error == null
                      ? reply.results().string("value")
                      : "<error: " + Failures.message(error) + ">";
              return Value.scalar(name, type, ValueKinds.classify(type, text, 0), 0, text);
            });
  }

  CompletableFuture<MpiWait> mpiWait() {
    if (!link.events.hasWaitRecords()) {
      return CompletableFuture.completedFuture(MpiWait.UNKNOWN);
    }
    return readMemory("&" + MpiWaitRecords.SYMBOL, MpiWaitRecords.SIZE)
        .thenApply(MpiWaitRecords::decode)
        .exceptionallyCompose(
            e ->
                Failures.message(e).contains("No symbol")
                    ? CompletableFuture.completedFuture(MpiWait.UNKNOWN)
                    : CompletableFuture.failedFuture(e));
  }

  CompletableFuture<byte[]> readMemory(String address, int count) {
    return link.send(MiCommands.readMemory(inferior.here(), address, count))
        .thenApply(
            r -> {
              ByteArrayOutputStream out = new ByteArrayOutputStream(count);
              for (MiValue v : r.results().list("memory").items()) {
                out.writeBytes(GdbResults.hex(GdbResults.asTuple(v).string("contents")));
              }
              if (out.size() < count) {
                throw new DebuggerException(
                    "Cannot access memory: read "
                        + out.size()
                        + " of "
                        + count
                        + " bytes at "
                        + address);
              }
              return out.toByteArray();
            });
  }

  CompletableFuture<Void> writeMemory(String address, byte[] bytes) {
    return RankLink.done(
        link.send(MiCommands.writeMemory(inferior.here(), address, GdbResults.hex(bytes))));
  }
}

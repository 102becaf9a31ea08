package io.sdmfabric.gdbmi;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Hands each MI record of a gdb that runs several programs to the program it is about: records of a
 * thread group by its id, records of a thread by the group the thread was created in, and the exit
 * that gdb reports without naming anyone ({@code *stopped,reason="exited..."}) to the group whose
 * exit gdb announced just before it. gdb's end goes to every program; a library loaded to the
 * program that loaded it; records about no program (breakpoints) to none. Called in the driver's
 * delivery only (one record at a time, in gdb's order).
 */
final class InferiorRouter implements MiListener {
  private final Map<String, MiListener> programs = new ConcurrentHashMap<>();
  private final Map<Integer, String> threads = new ConcurrentHashMap<>();
  private String lastExited = "";

  /** The listener of the program of thread group {@code group}, from now on. */
  void add(String group, MiListener listener) {
    programs.put(group, listener);
  }

  /** The program's output on its first terminal, gdb's own: that is the first program's. */
  @Override
  public void onProgramOutput(byte[] bytes) {
    to("i1").onProgramOutput(bytes);
  }

  @Override
  public void onGdbExit(String description) {
    programs.values().forEach(p -> p.onGdbExit(description));
  }

  @Override
  public void onAsync(MiAsyncRecord r) {
    MiTuple t = r.results();
    switch (r.asyncClass()) {
      case "thread-group-started", "thread-group-added", "thread-group-removed" ->
          t.optString("id").ifPresent(group -> to(group).onAsync(r));
      case "library-loaded" -> t.optString("thread-group").ifPresent(group -> to(group).onAsync(r));
      case "thread-group-exited" ->
          t.optString("id")
              .ifPresent(
                  group -> {
                    lastExited = group;
                    to(group).onAsync(r);
                  });
      case "thread-created" -> {
        String group = t.optString("group-id").orElse("");
        threads.put(Integer.parseInt(t.string("id")), group);
        to(group).onAsync(r);
      }
      case "thread-exited" -> {
        String group = t.optString("group-id").orElse("");
        threads.remove(Integer.parseInt(t.string("id")));
        to(group).onAsync(r);
      }
      case "stopped", "running" -> {
        if (r.kind() != MiAsyncKind.EXEC) {
          return;
        }
        String thread = t.optString("thread-id").orElse("");
        if (thread.equals("all")) {
          programs.values().forEach(p -> p.onAsync(r));
        } else if (!thread.isEmpty()) {
          to(threads.getOrDefault(Integer.parseInt(thread), "")).onAsync(r);
        } else if (t.optString("reason").orElse("").startsWith("exited")) {
          to(lastExited).onAsync(r);
        }
      }
      default -> {}
    }
  }

  private MiListener to(String group) {
    MiListener p = programs.get(group);
    return p != null ? p : NOBODY;
  }

  private static final MiListener NOBODY = new MiListener() {};
}

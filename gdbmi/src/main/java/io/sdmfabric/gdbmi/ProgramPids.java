package io.sdmfabric.gdbmi;

import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The process of each program a gdb runs, by its thread group ({@code i1}, {@code i2} ...), as gdb
 * announces them ({@code =thread-group-started} with its pid, {@code =thread-group-exited}): the
 * processes to kill when gdb ends, or to detach from. A listener of the {@link MiChannel}'s
 * records, on its reader thread; read from any thread.
 */
final class ProgramPids {
  private final Map<String, Long> programs = new ConcurrentHashMap<>();

  /** Notes a program's start or end. */
  void onRecord(MiRecord record) {
    if (!(record instanceof MiAsyncRecord a) || a.kind() != MiAsyncKind.NOTIFY) {
      return;
    }
    if (a.asyncClass().equals("thread-group-started")) {
      a.results()
          .optString("pid")
          .ifPresent(pid -> programs.put(a.results().string("id"), Long.parseLong(pid)));
    } else if (a.asyncClass().equals("thread-group-exited")) {
      a.results().optString("id").ifPresent(programs::remove);
    }
  }

  /** The process id of the program of thread group {@code group}, if it runs. */
  OptionalLong of(String group) {
    Long pid = programs.get(group);
    return pid == null ? OptionalLong.empty() : OptionalLong.of(pid);
  }

  /** The thread groups whose programs run. */
  Iterable<String> groups() {
    return programs.keySet();
  }

  /** The program of {@code group} has ended though gdb did not say so. */
  void ended(String group) {
    programs.remove(group);
  }

  /** Kills every program that runs. */
  void killAll() {
    for (long pid : programs.values()) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }
}

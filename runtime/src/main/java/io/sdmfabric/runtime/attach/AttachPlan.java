package io.sdmfabric.runtime.attach;

import io.sdmfabric.model.RankSet;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code sdm attach} attaches to: the job's size, the ranks it attaches to, and for each host
 * the pid of each of those ranks. Made from the processes found ({@link ProcessProbe}), which must
 * be ranks of one job, each rank once.
 *
 * @param size the number of ranks of the job
 * @param ranks the ranks attached to
 * @param hosts for each host (in order), its processes and their ranks
 */
public record AttachPlan(int size, RankSet ranks, Map<String, List<Rank>> hosts) {

  /** One process to attach to, and its rank. */
  public record Rank(long pid, int rank) {}

  public AttachPlan {
    Objects.requireNonNull(ranks, "ranks");
    Map<String, List<Rank>> copy = new LinkedHashMap<>();
    hosts.forEach((host, pids) -> copy.put(host, List.copyOf(pids)));
    hosts = java.util.Collections.unmodifiableMap(copy);
  }

  /**
   * The plan for the processes found.
   *
   * @throws IOException when they are not ranks of one job, each rank once
   */
  public static AttachPlan of(List<ProcessProbe.Found> found) throws IOException {
    if (found.isEmpty()) {
      throw new IOException("no processes to attach to");
    }
    Map<Integer, ProcessProbe.Found> byRank = new HashMap<>();
    Map<String, List<Rank>> hosts = new LinkedHashMap<>();
    ProcessProbe.Found sized = null;
    ProcessProbe.Found named = null;
    int highest = 0;
    for (ProcessProbe.Found f : found) {
      RankEnvironment env = f.env();
      ProcessProbe.Found same = byRank.putIfAbsent(env.rank(), f);
      if (same != null) {
        throw new IOException(
            "processes "
                + same.name()
                + " and "
                + f.name()
                + " both have rank "
                + env.rank()
                + ": give processes of one job");
      }
      if (!env.job().isEmpty()) {
        if (named != null && !named.env().job().equals(env.job())) {
          throw new IOException(
              "process "
                  + named.name()
                  + " belongs to job "
                  + named.env().job()
                  + " and process "
                  + f.name()
                  + " to job "
                  + env.job()
                  + ": give processes of one job");
        }
        named = f;
      }
      if (env.size() > 0) {
        if (sized != null && sized.env().size() != env.size()) {
          throw new IOException(
              "process "
                  + sized.name()
                  + " is in a job of "
                  + sized.env().size()
                  + " ranks and process "
                  + f.name()
                  + " in one of "
                  + env.size()
                  + ": give processes of one job");
        }
        sized = f;
      }
      highest = Math.max(highest, env.rank());
      hosts.computeIfAbsent(f.host(), h -> new ArrayList<>()).add(new Rank(f.pid(), env.rank()));
    }
    int size = sized != null ? sized.env().size() : highest + 1;
    if (highest >= size) {
      throw new IOException(
          "process "
              + byRank.get(highest).name()
              + " has rank "
              + highest
              + ", but process "
              + sized.name()
              + " is in a job of "
              + size
              + " ranks: give processes of one job");
    }
    RankSet.Builder ranks = RankSet.builder();
    byRank.keySet().forEach(ranks::add);
    return new AttachPlan(size, ranks.build(), hosts);
  }
}

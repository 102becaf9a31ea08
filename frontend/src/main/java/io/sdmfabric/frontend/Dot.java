package io.sdmfabric.frontend;

import io.sdmfabric.model.Frame;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.wire.StackTree;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A merged stack tree in Graphviz's DOT language: one box per frame, labeled with its ranks (and
 * threads, in a tree of every thread).
 */
public final class Dot {
  private Dot() {}

  public static String write(StackTree tree) {
    return write(tree, path -> "");
  }

  /** The tree, each leaf's label followed by {@code leafNote} of its path (outermost first). */
  public static String write(StackTree tree, Function<List<Frame>, String> leafNote) {
    StringBuilder b = new StringBuilder("digraph stacks {\n  node [shape=box];\n");
    int[] next = {0};
    for (StackTree.Node root : tree.roots()) {
      node(b, root, -1, next, tree.everyThread(), new ArrayList<>(), leafNote);
    }
    return b.append("}\n").toString();
  }

  /**
   * The MPI wait-for graph as a second digraph: a node per group of ranks with the same wait and
   * per group of ranks waited for outside MPI, an edge from each group to the groups with ranks it
   * waits for; the deadlocked in red.
   */
  public static String write(MpiWaitGraph graph) {
    StringBuilder b = new StringBuilder("digraph waits {\n  node [shape=box];\n");
    List<RankSet> nodes = new ArrayList<>();
    for (MpiWaitGraph.Group g : graph.groups()) {
      boolean deadlocked = graph.deadlocked().intersects(g.ranks());
      waitNode(b, nodes, g.ranks(), MpiWaitGraph.describe(g.mpiWait()), deadlocked);
    }
    for (MpiWaitGraph.Blocker k : graph.blockers()) {
      waitNode(b, nodes, k.ranks(), k.where(), false);
    }
    for (int i = 0; i < graph.groups().size(); i++) {
      RankSet waitsFor = graph.groups().get(i).waitsFor();
      for (int j = 0; j < nodes.size(); j++) {
        if (j != i && nodes.get(j).intersects(waitsFor)) {
          b.append("  w").append(i).append(" -> w").append(j).append(";\n");
        }
      }
    }
    return b.append("}\n").toString();
  }

  private static void waitNode(
      StringBuilder b, List<RankSet> nodes, RankSet ranks, String text, boolean deadlocked) {
    String label = TerminalText.escape(text).replace("\\", "\\\\").replace("\"", "\\\"");
    b.append("  w")
        .append(nodes.size())
        .append(" [label=\"[")
        .append(ranks)
        .append("] ")
        .append(label)
        .append('"')
        .append(deadlocked ? ", color=red" : "")
        .append("];\n");
    nodes.add(ranks);
  }

  private static void node(
      StringBuilder b,
      StackTree.Node n,
      int parent,
      int[] next,
      boolean threads,
      List<Frame> path,
      Function<List<Frame>, String> leafNote) {
    int id = next[0]++;
    path.add(n.frame());
    String note = n.isLeaf() ? leafNote.apply(List.copyOf(path)) : "";
    // The frame is the program's names: controls escaped, then quoted for DOT, where a backslash
    // starts an escape of its own.
    String frame =
        TerminalText.escape(n.frame().describe()).replace("\\", "\\\\").replace("\"", "\\\"");
    b.append("  n")
        .append(id)
        .append(" [label=\"")
        .append(frame)
        .append("\\n[")
        .append(n.ranks())
        .append("] (")
        .append(n.ranks().size())
        .append(threads ? ", " + StackTree.threadsText(n.threads()) : "")
        .append(")")
        .append(note.isEmpty() ? "" : "\\n" + note)
        .append("\"];\n");
    if (parent >= 0) {
      b.append("  n").append(parent).append(" -> n").append(id).append(";\n");
    }
    for (StackTree.Node child : n.children()) {
      node(b, child, id, next, threads, path, leafNote);
    }
    path.remove(path.size() - 1);
  }
}

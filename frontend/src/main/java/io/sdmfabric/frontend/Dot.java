package io.sdmfabric.frontend;

import io.sdmfabric.model.TerminalText;
import io.sdmfabric.wire.StackTree;

/**
 * A merged stack tree in Graphviz's DOT language: one box per frame, labeled with its ranks (and
 * threads, in a tree of every thread).
 */
public final class Dot {
  private Dot() {}

  public static String write(StackTree tree) {
    StringBuilder b = new StringBuilder("digraph stacks {\n  node [shape=box];\n");
    int[] next = {0};
    for (StackTree.Node root : tree.roots()) {
      node(b, root, -1, next, tree.everyThread());
    }
    return b.append("}\n").toString();
  }

  private static void node(
      StringBuilder b, StackTree.Node n, int parent, int[] next, boolean threads) {
    int id = next[0]++;
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
        .append(")\"];\n");
    if (parent >= 0) {
      b.append("  n").append(parent).append(" -> n").append(id).append(";\n");
    }
    for (StackTree.Node child : n.children()) {
      node(b, child, id, next, threads);
    }
  }
}

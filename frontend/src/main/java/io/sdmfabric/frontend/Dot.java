package io.sdmfabric.frontend;

import io.sdmfabric.wire.StackTree;

/** A merged stack tree in Graphviz's DOT language: one box per frame, labeled with its ranks. */
public final class Dot {
  private Dot() {}

  public static String write(StackTree tree) {
    StringBuilder b = new StringBuilder("digraph stacks {\n  node [shape=box];\n");
    int[] next = {0};
    for (StackTree.Node root : tree.roots()) {
      node(b, root, -1, next);
    }
    return b.append("}\n").toString();
  }

  private static void node(StringBuilder b, StackTree.Node n, int parent, int[] next) {
    int id = next[0]++;
    String label = n.frame().describe() + "\\n[" + n.ranks() + "] (" + n.ranks().size() + ")";
    b.append("  n")
        .append(id)
        .append(" [label=\"")
        .append(label.replace("\"", "\\\""))
        .append("\"];\n");
    if (parent >= 0) {
      b.append("  n").append(parent).append(" -> n").append(id).append(";\n");
    }
    for (StackTree.Node child : n.children()) {
      node(b, child, id, next);
    }
  }
}

package io.sdmfabric.master;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.BinomialTree;
import io.sdmfabric.server.ChildLink;
import io.sdmfabric.server.ServerNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * Which server node has which place in a tree wired across JVMs, and the ranks each serves: node 0
 * is the root under the master, and the others come in the order they are added ({@link
 * BinomialTree} gives each place its parent and children). It makes what each node is told of its
 * place: its routing slice at wire-up ({@link #attach}) and after a repair ({@link #rewire}).
 */
final class TreeLayout {

  private final ActorRef<ServerNode.Up> rootParent;
  private final List<ActorRef<ServerNode.Command>> nodes = new ArrayList<>();
  private final List<RankSet> ranks = new ArrayList<>();

  /** A layout of {@code root} alone, which serves no ranks and sends up to {@code rootParent}. */
  TreeLayout(ActorRef<ServerNode.Command> root, ActorRef<ServerNode.Up> rootParent) {
    this.rootParent = rootParent;
    add(root, RankSet.empty());
  }

  /** Puts {@code node}, serving {@code served}, in the next place. */
  void add(ActorRef<ServerNode.Command> node, RankSet served) {
    nodes.add(node);
    ranks.add(served);
  }

  /**
   * The agents' nodes in the next places, in the order of their first ranks; empty ones left out.
   */
  void addInOrderOfFirstRank(List<Map.Entry<ActorRef<ServerNode.Command>, RankSet>> served) {
    served.stream()
        .filter(a -> !a.getValue().isEmpty())
        .sorted(Comparator.comparingInt(a -> a.getValue().first()))
        .forEach(a -> add(a.getKey(), a.getValue()));
  }

  /** How many places the tree has. */
  int size() {
    return nodes.size();
  }

  /** The node in place {@code node}. */
  ActorRef<ServerNode.Command> node(int node) {
    return nodes.get(node);
  }

  /** The ranks place {@code node} serves. */
  RankSet ranks(int node) {
    return ranks.get(node);
  }

  /** Puts {@code standIn} in place {@code node}, serving the same ranks. */
  void replace(int node, ActorRef<ServerNode.Command> standIn) {
    nodes.set(node, standIn);
  }

  /** What wires the node in place {@code node}: its place, its ranks and its routing slice. */
  ServerNode.Attach attach(int node) {
    return new ServerNode.Attach(
        nodes.get(node), node, ranks.get(node), parent(node), children(node));
  }

  /** The new routing of the node in place {@code node}, with every rank {@code lost} so far. */
  ServerNode.Rewire rewire(int node, RankSet lost) {
    return new ServerNode.Rewire(nodes.get(node), parent(node), children(node), lost);
  }

  /** The places next to {@code places} (their parents and children), those places left out. */
  Set<Integer> neighbours(Collection<Integer> places) {
    Set<Integer> neighbours = new TreeSet<>();
    for (int node : places) {
      neighbours.add(BinomialTree.parent(node));
      neighbours.addAll(BinomialTree.children(node, nodes.size()));
    }
    neighbours.removeAll(places);
    return neighbours;
  }

  private ActorRef<ServerNode.Up> parent(int node) {
    return node == 0 ? rootParent : nodes.get(BinomialTree.parent(node)).narrow();
  }

  private List<ChildLink> children(int node) {
    List<ChildLink> children = new ArrayList<>();
    int size = nodes.size();
    for (int child : BinomialTree.children(node, size)) {
      int end = BinomialTree.subtreeEnd(child, size);
      RankSet.Builder served = RankSet.builder();
      for (int n = child; n < end; n++) {
        served.addAll(ranks.get(n));
      }
      children.add(new ChildLink(nodes.get(child), child, end, served.build()));
    }
    return children;
  }
}

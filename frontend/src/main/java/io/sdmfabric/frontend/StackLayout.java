package io.sdmfabric.frontend;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.elk.core.RecursiveGraphLayoutEngine;
import org.eclipse.elk.core.data.LayoutMetaDataService;
import org.eclipse.elk.core.data.LayoutOptionData;
import org.eclipse.elk.core.util.BasicProgressMonitor;
import org.eclipse.elk.graph.ElkBendPoint;
import org.eclipse.elk.graph.ElkEdge;
import org.eclipse.elk.graph.ElkEdgeSection;
import org.eclipse.elk.graph.ElkNode;
import org.eclipse.elk.graph.util.ElkGraphUtil;

/**
 * Where the boxes of a tree go, and the lines between them: Eclipse ELK's layered algorithm (the
 * Sugiyama method: layers, crossing minimisation, node placement, orthogonal edge routing). The
 * stack picture's page lays its tree out again after a collapse with elkjs, the same algorithm
 * compiled to JavaScript, given the same {@link #OPTIONS}, so that both drawings look alike.
 */
final class StackLayout {
  /**
   * ELK's options by id, as both ELK in Java and elkjs take them: callers to the right of their
   * caller, siblings in the tree's canonical order (smallest rank first), edges at right angles.
   */
  static final Map<String, String> OPTIONS =
      options(
          "elk.algorithm", "layered",
          "elk.direction", "RIGHT",
          "elk.edgeRouting", "ORTHOGONAL",
          "elk.spacing.nodeNode", "24",
          "elk.layered.spacing.nodeNodeBetweenLayers", "36",
          "elk.layered.spacing.edgeNodeBetweenLayers", "12",
          "elk.layered.considerModelOrder.strategy", "NODES_AND_EDGES",
          "elk.padding", "[top=12,left=12,bottom=12,right=12]");

  /** A box's place: its top left corner and its size. */
  record Place(double x, double y, double width, double height) {}

  /** The line into a box from its parent's, as points from the parent's side to the child's. */
  record Line(List<double[]> points) {
    Line {
      points = List.copyOf(points);
    }
  }

  /**
   * The layout of a tree.
   *
   * @param places each box's place, by index
   * @param lines the line into each box from its parent's, by index; empty for a root
   * @param width the drawing's width
   * @param height the drawing's height
   */
  record Result(List<Place> places, List<Line> lines, double width, double height) {}

  private StackLayout() {}

  private static Map<String, String> options(String... idsAndValues) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < idsAndValues.length; i += 2) {
      m.put(idsAndValues[i], idsAndValues[i + 1]);
    }
    return Collections.unmodifiableMap(m);
  }

  /**
   * Lays out boxes {@code 0..n-1} of the sizes given, box {@code i} under {@code parents[i]} (-1
   * for a root).
   */
  static Result layout(int[] parents, double[] widths, double[] heights) {
    return layout(parents, widths, heights, new boolean[parents.length]);
  }

  /**
   * Lays out the boxes not {@code hidden} (a hidden box's callees are hidden too); a hidden box's
   * place is at the origin, and the line into it empty.
   */
  static Result layout(int[] parents, double[] widths, double[] heights, boolean[] hidden) {
    ElkNode graph = ElkGraphUtil.createGraph();
    LayoutMetaDataService options = LayoutMetaDataService.getInstance();
    for (Map.Entry<String, String> o : OPTIONS.entrySet()) {
      LayoutOptionData data = options.getOptionDataBySuffix(o.getKey());
      if (data == null) {
        throw new IllegalStateException("ELK has no option " + o.getKey());
      }
      graph.setProperty(data, data.parseValue(o.getValue()));
    }
    List<ElkNode> nodes = new ArrayList<>(parents.length);
    List<ElkEdge> edges = new ArrayList<>(parents.length);
    for (int i = 0; i < parents.length; i++) {
      if (hidden[i]) {
        nodes.add(null);
        edges.add(null);
        continue;
      }
      ElkNode node = ElkGraphUtil.createNode(graph);
      node.setDimensions(widths[i], heights[i]);
      nodes.add(node);
      edges.add(parents[i] < 0 ? null : ElkGraphUtil.createSimpleEdge(nodes.get(parents[i]), node));
    }
    new RecursiveGraphLayoutEngine().layout(graph, new BasicProgressMonitor());
    List<Place> places = new ArrayList<>(nodes.size());
    List<Line> lines = new ArrayList<>(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      ElkNode n = nodes.get(i);
      places.add(
          n == null
              ? new Place(0, 0, widths[i], heights[i])
              : new Place(n.getX(), n.getY(), n.getWidth(), n.getHeight()));
      lines.add(line(edges.get(i)));
    }
    return new Result(places, lines, graph.getWidth(), graph.getHeight());
  }

  private static Line line(ElkEdge edge) {
    List<double[]> points = new ArrayList<>();
    if (edge != null && !edge.getSections().isEmpty()) {
      ElkEdgeSection s = edge.getSections().get(0);
      points.add(new double[] {s.getStartX(), s.getStartY()});
      for (ElkBendPoint b : s.getBendPoints()) {
        points.add(new double[] {b.getX(), b.getY()});
      }
      points.add(new double[] {s.getEndX(), s.getEndY()});
    }
    return new Line(points);
  }
}

package io.sdmfabric.frontend;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * Writes a {@link StackPicture} as SVG: the drawing alone ({@link #graph}, which the page embeds)
 * or a document with its legend ({@link #document}). Every text from the program goes through
 * {@link #escape}.
 */
final class StackPictureSvg {
  /** The style of boxes and lines, shared with the page. */
  static final String STYLE = resource("stack-picture.css");

  private static final double LEGEND_HEIGHT = 64;

  private StackPictureSvg() {}

  /** A standalone SVG document: the legend, then the picture under it. */
  static String document(StackPicture p) {
    StackLayout.Result l = p.layout();
    double width = Math.max(l.width(), legendWidth(p));
    double height = l.height() + LEGEND_HEIGHT;
    StringBuilder b = new StringBuilder();
    b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"sdm-stacks\" width=\"")
        .append(num(width))
        .append("\" height=\"")
        .append(num(height))
        .append("\" viewBox=\"0 0 ")
        .append(num(width))
        .append(' ')
        .append(num(height))
        .append("\">\n<style>\n")
        .append(STYLE)
        .append("</style>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    legend(b, p);
    b.append("<g transform=\"translate(0,").append(num(LEGEND_HEIGHT)).append(")\">\n");
    graph(b, p, false);
    return b.append("</g>\n</svg>\n").toString();
  }

  /**
   * The drawing: arrowheads, the lines from callers to callees, the boxes, the deadlock's arrows.
   * Each box is {@code <g class="node" id="nI">}, the line into it {@code <path id="eI">}. For the
   * {@code page}, the drawing is its first view: the boxes it first shows folded are {@code
   * collapsed}, those below them not displayed, and a box with callees has a {@code +N} shown when
   * it is collapsed.
   */
  static void graph(StringBuilder b, StackPicture p, boolean page) {
    StackLayout.Result l = page ? p.firstView() : p.layout();
    List<StackPicture.Box> boxes = p.boxes();
    int[] below = descendants(boxes);
    // The box each box is drawn as: itself, or the outermost folded box above it.
    int[] shownAs = new int[boxes.size()];
    for (int i = 0; i < boxes.size(); i++) {
      int parent = boxes.get(i).parent();
      shownAs[i] =
          parent >= 0 && page && (shownAs[parent] != parent || p.folded(parent))
              ? shownAs[parent]
              : i;
    }
    b.append("<defs><marker id=\"sdm-wait-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\"")
        .append(" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">")
        .append("<path class=\"waitarrow\" d=\"M0,0 L10,5 L0,10 z\"/></marker></defs>\n");
    b.append("<g class=\"edges\">\n");
    for (int i = 0; i < boxes.size(); i++) {
      List<double[]> points = l.lines().get(i).points();
      if (boxes.get(i).parent() < 0) {
        continue;
      }
      if (shownAs[i] != i) {
        b.append("<path class=\"edge\" id=\"e").append(i).append("\" style=\"display:none\"/>\n");
        continue;
      }
      b.append("<path class=\"edge\" id=\"e").append(i).append("\" d=\"");
      for (int k = 0; k < points.size(); k++) {
        b.append(k == 0 ? "M" : " L")
            .append(num(points.get(k)[0]))
            .append(',')
            .append(num(points.get(k)[1]));
      }
      b.append("\"/>\n");
    }
    b.append("</g>\n<g class=\"nodes\">\n");
    for (int i = 0; i < boxes.size(); i++) {
      node(
          b,
          i,
          boxes.get(i),
          l.places().get(i),
          page ? below[i] : 0,
          shownAs[i] != i,
          page && p.folded(i));
    }
    b.append("</g>\n<g class=\"waits\">\n");
    for (StackPicture.Wait w : p.waits()) {
      b.append("<path class=\"waitedge\" data-from=\"")
          .append(w.from())
          .append("\" data-to=\"")
          .append(w.to())
          .append("\" marker-end=\"url(#sdm-wait-arrow)\" d=\"")
          .append(waitPath(l.places().get(shownAs[w.from()]), l.places().get(shownAs[w.to()])))
          .append("\"><title>")
          .append(escape(w.title()))
          .append("</title></path>\n");
    }
    b.append("</g>\n");
  }

  private static void node(
      StringBuilder b,
      int i,
      StackPicture.Box box,
      StackLayout.Place at,
      int below,
      boolean hidden,
      boolean collapsed) {
    b.append("<g class=\"node");
    switch (box.motion()) {
      case STUCK -> b.append(" stuck");
      case PROGRESSING -> b.append(" progressing");
      case MIXED -> b.append(" mixed");
      case NONE -> {}
    }
    if (box.deadlocked()) {
      b.append(" deadlocked");
    }
    if (collapsed) {
      b.append(" collapsed");
    }
    b.append("\" id=\"n")
        .append(i)
        .append(hidden ? "\" style=\"display:none" : "")
        .append("\" transform=\"translate(")
        .append(num(at.x()))
        .append(',')
        .append(num(at.y()))
        .append(")\"><title>")
        .append(escape(box.title()))
        .append("</title><rect class=\"box\" rx=\"4\" width=\"")
        .append(num(at.width()))
        .append("\" height=\"")
        .append(num(at.height()))
        .append("\"/>");
    for (int k = 0; k < box.lines().size(); k++) {
      StackPicture.Line line = box.lines().get(k);
      b.append("<text class=\"")
          .append(line.part().name().toLowerCase(Locale.ROOT))
          .append("\" x=\"8\" y=\"")
          .append(num(16 * (k + 1)))
          .append("\">")
          .append(escape(line.text()))
          .append("</text>");
    }
    if (below > 0) {
      b.append("<text class=\"badge\" display=\"")
          .append(collapsed ? "inline" : "none")
          .append("\" x=\"")
          .append(num(at.width() + 5))
          .append("\" y=\"")
          .append(num(at.height() / 2 + 4))
          .append("\">+")
          .append(below)
          .append("</text>");
    }
    b.append("</g>\n");
  }

  /** How many boxes are below each box. */
  static int[] descendants(List<StackPicture.Box> boxes) {
    int[] count = new int[boxes.size()];
    for (int i = boxes.size() - 1; i >= 0; i--) {
      int parent = boxes.get(i).parent();
      if (parent >= 0) {
        count[parent] += count[i] + 1;
      }
    }
    return count;
  }

  /**
   * A red arrow from one box to another: from the bottom of the one to the top of the other below
   * it (or from the top to the bottom of one above it; the two ways apart, so that two boxes that
   * wait for each other get two arrows), bowed out to the right between boxes side by side, and a
   * loop over the top right corner when both are the same box. The page draws the same curves
   * (stack-picture.js, {@code waitPath}).
   */
  static String waitPath(StackLayout.Place a, StackLayout.Place b) {
    if (a.equals(b)) {
      double x0 = a.x() + a.width() * 0.8;
      double x1 = a.x() + a.width();
      double y1 = a.y() + a.height() * 0.35;
      return curve(x0, a.y(), x0, a.y() - 34, x1 + 30, y1, x1 + 2, y1);
    }
    if (b.y() >= a.y() + a.height()) {
      double x0 = a.x() + a.width() * 0.62;
      double x1 = b.x() + b.width() * 0.62;
      double bend = (b.y() - a.y() - a.height()) / 2;
      return curve(
          x0, a.y() + a.height(), x0, a.y() + a.height() + bend, x1, b.y() - bend, x1, b.y() - 2);
    }
    if (a.y() >= b.y() + b.height()) {
      double x0 = a.x() + a.width() * 0.38;
      double x1 = b.x() + b.width() * 0.38;
      double bend = (a.y() - b.y() - b.height()) / 2;
      return curve(
          x0, a.y(), x0, a.y() - bend, x1, b.y() + b.height() + bend, x1, b.y() + b.height() + 2);
    }
    double ax = a.x() + a.width();
    double bx = b.x() + b.width();
    double ay = a.y() + a.height() * 0.35;
    double by = b.y() + b.height() * 0.65;
    double bow = Math.max(ax, bx) + 40;
    return curve(ax, ay, bow, ay, bow, by, bx + 2, by);
  }

  private static String curve(double... xy) {
    return "M"
        + num(xy[0])
        + ","
        + num(xy[1])
        + " C"
        + num(xy[2])
        + ","
        + num(xy[3])
        + " "
        + num(xy[4])
        + ","
        + num(xy[5])
        + " "
        + num(xy[6])
        + ","
        + num(xy[7]);
  }

  private static void legend(StringBuilder b, StackPicture p) {
    b.append("<g class=\"legend\"><text class=\"summary\" x=\"12\" y=\"20\">")
        .append(escape(p.summary()))
        .append("</text>\n");
    double x = 12;
    for (LegendItem item : legendItems(p)) {
      b.append("<g class=\"node ")
          .append(item.boxClass())
          .append("\" transform=\"translate(")
          .append(num(x))
          .append(",32)\"><rect class=\"box\" rx=\"4\" width=\"22\" height=\"16\"/>")
          .append("<text x=\"30\" y=\"12\">")
          .append(escape(item.text()))
          .append("</text></g>\n");
      x += 30 + item.text().length() * 7.3 + 24;
    }
    b.append("</g>\n");
  }

  /** An entry of the legend: a box of this class means this. */
  record LegendItem(String boxClass, String text) {}

  /** The legend's entries: those for marks the picture has. */
  static List<LegendItem> legendItems(StackPicture p) {
    List<LegendItem> items = new java.util.ArrayList<>();
    items.add(new LegendItem("", "a frame: function, file:line, [ranks] count"));
    if (p.temporal()) {
      items.add(new LegendItem("stuck", "stuck in every sample"));
      items.add(new LegendItem("progressing", "progressing"));
      items.add(new LegendItem("mixed", "some stuck, some progressing"));
    }
    if (!p.waits().isEmpty() || p.boxes().stream().anyMatch(StackPicture.Box::deadlocked)) {
      items.add(new LegendItem("deadlocked", "deadlocked: where they wait; arrow: waits for"));
    }
    return items;
  }

  private static double legendWidth(StackPicture p) {
    double x = Math.max(24 + p.summary().length() * 7.3, 0);
    double items = 12;
    for (LegendItem item : legendItems(p)) {
      items += 30 + item.text().length() * 7.3 + 24;
    }
    return Math.max(x, items);
  }

  /**
   * {@code s} as XML character data or an attribute's value: markup characters escaped, and the
   * characters XML 1.0 cannot hold (controls, lone surrogates, U+FFFE, U+FFFF) replaced by U+FFFD.
   */
  static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        case '\n' -> b.append("&#10;");
        default -> {
          if (Character.isHighSurrogate(c)
              && i + 1 < s.length()
              && Character.isLowSurrogate(s.charAt(i + 1))) {
            b.append(c).append(s.charAt(++i));
          } else if ((c < 0x20 && c != '\t')
              || Character.isSurrogate(c)
              || c == 0xFFFE
              || c == 0xFFFF) {
            b.append('\uFFFD');
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.toString();
  }

  /** A coordinate with at most one decimal. */
  static String num(double v) {
    long tenths = Math.round(v * 10);
    return tenths % 10 == 0 ? Long.toString(tenths / 10) : Double.toString(tenths / 10.0);
  }

  static String resource(String name) {
    try (InputStream in = StackPictureSvg.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("sdm's jar lacks " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

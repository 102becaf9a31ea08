package io.sdmfabric.frontend;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Writes a {@link StackPicture} as a page that needs nothing else: the drawing as inline SVG (the
 * same as {@link StackPictureSvg}'s), a bar of buttons (zoom, fit, collapse libraries, expand all),
 * a legend, and one inline script: elkjs's bundle (from the npm package, built into sdm's jar) and
 * the page's own {@code stack-picture.js}, which zooms, pans, and lays the tree out again after a
 * collapse. The Content-Security-Policy allows inline style, {@code data:} images and the script
 * that carries the nonce, and nothing else: no load from anywhere, the network or the disk.
 *
 * <p>The same HTML serves as a VS Code webview's: a webview that sets its own policy replaces the
 * nonce in both places (or passes its own to {@link StackPicture#html}); its policy must allow
 * {@code style-src 'unsafe-inline'} too.
 */
final class StackPictureHtml {
  /** A nonce as CSP takes it: base64 or base64url characters. */
  private static final Pattern NONCE = Pattern.compile("[A-Za-z0-9+/_=-]{8,}");

  /** elkjs's bundle, which declares {@code ELK}. */
  private static final String ELK = StackPictureSvg.resource("elkjs/lib/elk.bundled.js");

  private static final String SCRIPT = StackPictureSvg.resource("stack-picture.js");

  private static final String PAGE_STYLE =
      """
      html, body { margin: 0; height: 100%; overflow: hidden; background: #ffffff; \
      font: 13px sans-serif; color: #111; }
      #bar { position: absolute; top: 0; left: 0; right: 0; height: 34px; display: flex; \
      gap: 6px; align-items: center; padding: 0 8px; background: #f3f5f8; \
      border-bottom: 1px solid #c9d0da; }
      #bar button { font: 13px sans-serif; padding: 3px 9px; border: 1px solid #9aa6b6; \
      border-radius: 3px; background: #ffffff; cursor: pointer; }
      #zoom { min-width: 44px; text-align: right; color: #445; }
      #summary { font-weight: bold; margin-left: 10px; white-space: nowrap; overflow: hidden; \
      text-overflow: ellipsis; }
      #legend { position: absolute; top: 35px; left: 0; right: 0; height: 26px; display: flex; \
      gap: 18px; align-items: center; padding: 0 10px; font-size: 12px; white-space: nowrap; \
      overflow: hidden; border-bottom: 1px solid #e1e5eb; background: #fbfcfd; }
      #legend svg { vertical-align: middle; margin-right: 5px; }
      #legend .help { color: #555; }
      #canvas { position: absolute; top: 62px; left: 0; right: 0; bottom: 0; }
      #picture { width: 100%; height: 100%; cursor: grab; display: block; }
      #picture .node { cursor: pointer; }
      """;

  private StackPictureHtml() {}

  static String page(StackPicture p, String nonce) {
    if (!NONCE.matcher(nonce).matches()) {
      throw new IllegalArgumentException("not a nonce (base64, 8 characters or more): " + nonce);
    }
    // A script ends at the first "</script" whatever its JavaScript means.
    if (ELK.toLowerCase(java.util.Locale.ROOT).contains("</script")) {
      throw new IllegalStateException("elkjs's bundle would end the page's script early");
    }
    StringBuilder b = new StringBuilder(ELK.length() + 64 * 1024);
    b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; ")
        .append("script-src 'nonce-")
        .append(nonce)
        .append("'; style-src 'unsafe-inline'; img-src data:\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>sdm stacks: ")
        .append(StackPictureSvg.escape(p.summary()))
        .append("</title>\n<style>\n")
        .append(PAGE_STYLE)
        .append(StackPictureSvg.STYLE)
        .append("</style>\n</head>\n<body>\n<div id=\"bar\">")
        .append(button("zoom-out", "\u2212", "zoom out (-)"))
        .append(button("zoom-in", "+", "zoom in (+)"))
        .append(button("fit", "fit", "fit to the window (f)"))
        .append(button("actual", "1:1", "actual size (0)"))
        .append(
            button(
                "libraries",
                "collapse libraries",
                "fold each path at its first frame" + " without a source line"))
        .append(button("expand", "expand all", "show every frame"))
        .append("<span id=\"zoom\">100%</span><span id=\"summary\">")
        .append(StackPictureSvg.escape(p.summary()))
        .append("</span></div>\n<div id=\"canvas\"><svg id=\"picture\" class=\"sdm-stacks\">")
        .append("<g id=\"view\">\n");
    StackPictureSvg.graph(b, p, true);
    b.append("</g></svg></div>\n<div id=\"legend\" class=\"sdm-stacks\">");
    for (StackPictureSvg.LegendItem item : StackPictureSvg.legendItems(p)) {
      b.append("<span><svg width=\"24\" height=\"16\"><g class=\"node ")
          .append(item.boxClass())
          .append("\"><rect class=\"box\" x=\"1\" y=\"1\" rx=\"3\" width=\"22\" height=\"14\"/>")
          .append("</g></svg>")
          .append(StackPictureSvg.escape(item.text()))
          .append("</span>");
    }
    b.append("<span><svg width=\"24\" height=\"16\"><g class=\"node collapsed\">")
        .append("<rect class=\"box\" x=\"1\" y=\"1\" rx=\"3\" width=\"22\" height=\"14\"/>")
        .append("</g></svg>folded (+N hidden)</span>");
    b.append("<span class=\"help\">click: fold; wheel: zoom; drag: move; hover: all ranks")
        .append("</span></div>\n<script nonce=\"")
        .append(nonce)
        .append("\">\n")
        .append(ELK)
        .append("\n;\nconst SDM_PICTURE = ")
        .append(model(p))
        .append(";\n")
        .append(SCRIPT)
        .append("</script>\n</body>\n</html>\n");
    return b.toString();
  }

  private static String button(String id, String text, String title) {
    return "<button id=\"" + id + "\" title=\"" + title + "\">" + text + "</button>";
  }

  /**
   * The tree's shape for the script, as JSON inside a script element: every {@code <} written as
   * {@code \u003c}, so that no text in it can end the script.
   */
  private static String model(StackPicture p) {
    StackLayout.Result l = p.firstView();
    List<Object> boxes = new ArrayList<>();
    for (int i = 0; i < p.boxes().size(); i++) {
      StackPicture.Box box = p.boxes().get(i);
      boxes.add(
          List.of(
              box.parent(),
              l.places().get(i).width(),
              l.places().get(i).height(),
              box.firstWithoutSource() ? 1 : 0,
              p.folded(i) ? 1 : 0));
    }
    String json =
        Json.write(
            Json.object(
                "options",
                new LinkedHashMap<>(StackLayout.OPTIONS),
                "boxes",
                boxes,
                "width",
                l.width(),
                "height",
                l.height()));
    return json.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026");
  }
}

// The stack picture's page (StackPicture.html): zoom, pan, fit, and collapse or expand a subtree,
// after which elkjs (embedded before this script, as ELK) lays the boxes still shown out again with
// the options that laid out the first drawing in Java. SDM_PICTURE is the tree's shape:
// boxes[i] = [parent, width, height, firstWithoutSource, folded at first], the ELK options, the
// first drawing's size.
(function () {
  'use strict';
  const model = SDM_PICTURE;
  const svg = document.getElementById('picture');
  const view = document.getElementById('view');
  const zoomText = document.getElementById('zoom');
  const n = model.boxes.length;
  const children = Array.from({ length: n }, () => []);
  model.boxes.forEach((b, i) => { if (b[0] >= 0) children[b[0]].push(i); });
  const nodes = Array.from({ length: n }, (_, i) => document.getElementById('n' + i));
  const edges = Array.from({ length: n }, (_, i) => document.getElementById('e' + i));
  const place = model.boxes.map(() => null);
  const collapsed = new Set(model.boxes.flatMap((b, i) => (b[4] ? [i] : [])));
  const elk = new ELK();
  let width = model.width;
  let height = model.height;
  let scale = 1;
  let tx = 0;
  let ty = 0;

  nodes.forEach((g, i) => {
    const t = /translate\(([-\d.]+),([-\d.]+)\)/.exec(g.getAttribute('transform'));
    place[i] = { x: +t[1], y: +t[2], w: model.boxes[i][1], h: model.boxes[i][2] };
  });

  function show() {
    view.setAttribute('transform', 'translate(' + tx + ',' + ty + ') scale(' + scale + ')');
    zoomText.textContent = Math.round(scale * 100) + '%';
  }

  function zoomAt(px, py, factor) {
    const s = Math.min(4, Math.max(0.05, scale * factor));
    tx = px - (px - tx) * (s / scale);
    ty = py - (py - ty) * (s / scale);
    scale = s;
    show();
  }

  function fit() {
    const r = svg.getBoundingClientRect();
    scale = Math.min(1.5, Math.max(0.05, Math.min(r.width / width, r.height / height)));
    tx = (r.width - width * scale) / 2;
    ty = (r.height - height * scale) / 2;
    show();
  }

  function centre() {
    const r = svg.getBoundingClientRect();
    return [r.width / 2, r.height / 2];
  }

  function visible(i) {
    for (let p = model.boxes[i][0]; p >= 0; p = model.boxes[p][0]) {
      if (collapsed.has(p)) return false;
    }
    return true;
  }

  function shownAncestor(i) {
    let shown = i;
    for (let p = model.boxes[i][0]; p >= 0; p = model.boxes[p][0]) {
      if (collapsed.has(p)) shown = p;
    }
    return shown;
  }

  // The same curves as StackPictureSvg.waitPath.
  function curve(xy) {
    const r = xy.map((v) => Math.round(v * 10) / 10);
    return 'M' + r[0] + ',' + r[1] + ' C' + r[2] + ',' + r[3] + ' ' + r[4] + ',' + r[5] + ' ' +
      r[6] + ',' + r[7];
  }

  function waitPath(a, b) {
    if (a === b) {
      const x0 = a.x + a.w * 0.8;
      const x1 = a.x + a.w;
      const y1 = a.y + a.h * 0.35;
      return curve([x0, a.y, x0, a.y - 34, x1 + 30, y1, x1 + 2, y1]);
    }
    if (b.y >= a.y + a.h) {
      const x0 = a.x + a.w * 0.62;
      const x1 = b.x + b.w * 0.62;
      const bend = (b.y - a.y - a.h) / 2;
      return curve([x0, a.y + a.h, x0, a.y + a.h + bend, x1, b.y - bend, x1, b.y - 2]);
    }
    if (a.y >= b.y + b.h) {
      const x0 = a.x + a.w * 0.38;
      const x1 = b.x + b.w * 0.38;
      const bend = (a.y - b.y - b.h) / 2;
      return curve([x0, a.y, x0, a.y - bend, x1, b.y + b.h + bend, x1, b.y + b.h + 2]);
    }
    const ax = a.x + a.w;
    const bx = b.x + b.w;
    const ay = a.y + a.h * 0.35;
    const by = b.y + b.h * 0.65;
    const bow = Math.max(ax, bx) + 40;
    return curve([ax, ay, bow, ay, bow, by, bx + 2, by]);
  }

  function relayout(anchor) {
    const shown = [];
    for (let i = 0; i < n; i++) if (visible(i)) shown.push(i);
    const graph = {
      id: 'root',
      layoutOptions: model.options,
      children: shown.map((i) => ({ id: 'n' + i, width: model.boxes[i][1], height: model.boxes[i][2] })),
      edges: shown.filter((i) => model.boxes[i][0] >= 0)
        .map((i) => ({ id: 'e' + i, sources: ['n' + model.boxes[i][0]], targets: ['n' + i] })),
    };
    const before = anchor >= 0 ? { x: place[anchor].x, y: place[anchor].y } : null;
    return elk.layout(graph).then((g) => {
      width = g.width;
      height = g.height;
      for (let i = 0; i < n; i++) {
        nodes[i].style.display = 'none';
        if (edges[i]) edges[i].style.display = 'none';
      }
      g.children.forEach((c) => {
        const i = +c.id.substring(1);
        place[i].x = c.x;
        place[i].y = c.y;
        nodes[i].style.display = '';
        nodes[i].setAttribute('transform', 'translate(' + c.x + ',' + c.y + ')');
        nodes[i].classList.toggle('collapsed', collapsed.has(i));
        const badge = nodes[i].querySelector('.badge');
        if (badge) badge.setAttribute('display', collapsed.has(i) ? 'inline' : 'none');
      });
      (g.edges || []).forEach((e) => {
        const i = +e.id.substring(1);
        const s = e.sections[0];
        const pts = [s.startPoint].concat(s.bendPoints || [], [s.endPoint]);
        edges[i].setAttribute('d', pts.map((p, k) => (k ? 'L' : 'M') + p.x + ',' + p.y).join(' '));
        edges[i].style.display = '';
      });
      document.querySelectorAll('.waitedge').forEach((w) => {
        const a = place[shownAncestor(+w.dataset.from)];
        const b = place[shownAncestor(+w.dataset.to)];
        w.setAttribute('d', waitPath(a, b));
      });
      if (before) {
        // The box clicked stays where it was on the screen.
        tx += (before.x - place[anchor].x) * scale;
        ty += (before.y - place[anchor].y) * scale;
        show();
      }
    });
  }

  nodes.forEach((g, i) => {
    if (children[i].length === 0) return;
    g.addEventListener('click', (e) => {
      if (moved) return;
      e.stopPropagation();
      if (collapsed.has(i)) collapsed.delete(i); else collapsed.add(i);
      relayout(i);
    });
  });

  let drag = null;
  let moved = false;
  svg.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, y: e.clientY, tx: tx, ty: ty };
    moved = false;
  });
  window.addEventListener('pointermove', (e) => {
    if (!drag) return;
    if (Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) > 3) moved = true;
    tx = drag.tx + e.clientX - drag.x;
    ty = drag.ty + e.clientY - drag.y;
    show();
  });
  window.addEventListener('pointerup', () => { drag = null; });
  svg.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = svg.getBoundingClientRect();
    zoomAt(e.clientX - r.left, e.clientY - r.top, Math.exp(-e.deltaY * 0.0015));
  }, { passive: false });

  const buttons = {
    'zoom-in': () => zoomAt(...centre(), 1.25),
    'zoom-out': () => zoomAt(...centre(), 0.8),
    'fit': fit,
    'actual': () => zoomAt(...centre(), 1 / scale),
    'libraries': () => {
      collapsed.clear();
      model.boxes.forEach((b, i) => { if (b[3] && children[i].length) collapsed.add(i); });
      relayout(-1).then(fit);
    },
    'expand': () => { collapsed.clear(); relayout(-1).then(fit); },
  };
  Object.keys(buttons).forEach((id) => document.getElementById(id).addEventListener('click', buttons[id]));
  window.addEventListener('keydown', (e) => {
    const key = { '+': 'zoom-in', '=': 'zoom-in', '-': 'zoom-out', 'f': 'fit', '0': 'actual' }[e.key];
    if (key) buttons[key]();
  });
  window.addEventListener('resize', fit);
  fit();
})();

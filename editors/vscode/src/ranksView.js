// The Ranks view (Eclipse PTP's parallel debug view): every rank of the active sdm debug session as
// a cell coloured by its state, grouped as the Call Stack groups them (the console's [SET]s). A
// click on a group, or on a cell, focuses that group in the Call Stack. It reads the adapter's
// sdmRanks request again whenever the adapter reports a stop, a run, a thread or an end.
const vscode = require('vscode');
const { randomBytes } = require('crypto');

const REFRESHING_EVENTS = new Set(['stopped', 'continued', 'thread', 'exited', 'terminated']);

class RanksView {
  constructor() {
    this.view = undefined;
    this.timer = undefined;
  }

  /** The debug adapter tracker of sdm sessions: a refresh after the events that change ranks. */
  tracker(session) {
    return {
      onDidSendMessage: (m) => {
        if (m.type === 'event' && REFRESHING_EVENTS.has(m.event) && session === vscode.debug.activeDebugSession) {
          this.refreshSoon();
        }
      },
    };
  }

  resolveWebviewView(view) {
    this.view = view;
    view.webview.options = { enableScripts: true };
    view.webview.html = page(view.webview);
    view.webview.onDidReceiveMessage(async (m) => {
      if (m.type !== 'focus') return;
      const session = vscode.debug.activeDebugSession;
      try {
        await session?.customRequest('sdmFocus', { threadId: m.threadId });
      } catch (e) {
        vscode.window.setStatusBarMessage(`sdm: ${e.message}`, 5000);
      }
    });
    view.onDidChangeVisibility(() => this.refreshSoon());
    this.refreshSoon();
  }

  /** Refreshes once the events of one burst have arrived. */
  refreshSoon() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), 150);
  }

  async refresh() {
    if (!this.view?.visible) return;
    const session = vscode.debug.activeDebugSession;
    if (!session || session.type !== 'sdm') {
      this.view.webview.postMessage({ type: 'none' });
      return;
    }
    try {
      const ranks = await session.customRequest('sdmRanks', {});
      this.view.webview.postMessage({ type: 'ranks', ranks });
    } catch (e) {
      this.view.webview.postMessage({ type: 'error', message: e.message });
    }
  }
}

/** The view's page: a script that draws what the extension posts, and posts back clicks. */
function page(webview) {
  const nonce = randomBytes(16).toString('base64');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource} 'unsafe-inline'; script-src 'nonce-${nonce}';">
<style>
  body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 4px 8px; }
  .legend { display: flex; flex-wrap: wrap; gap: 8px; margin-bottom: 6px; opacity: .85; }
  .legend span::before { content: ''; display: inline-block; width: 9px; height: 9px; margin-right: 3px; background: var(--c); border-radius: 2px; }
  .group { margin: 6px 0; padding: 3px 4px; border-left: 4px solid var(--c); cursor: pointer; border-radius: 2px; }
  .group:hover { background: var(--vscode-list-hoverBackground); }
  .head { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .head b { font-weight: 600; }
  .cells { display: flex; flex-wrap: wrap; gap: 1px; margin-top: 3px; }
  .cell { width: 9px; height: 9px; background: var(--c); border-radius: 1px; }
  .cells.small .cell { width: 5px; height: 5px; }
  .nodes { margin-top: 10px; opacity: .85; }
  .note { opacity: .8; font-style: italic; }
</style></head>
<body><div id="root" class="note">No sdm debug session.</div>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
const COLOURS = {
  running: '#3fb950', stopped: '#d29922', crashed: '#f85149', 'not-started': '#6e7681',
  exited: '#8b949e', detached: '#58a6ff', lost: '#a371f7', error: '#db61a2',
};
const LABELS = { running: 'running', stopped: 'stopped', crashed: 'stopped by a signal', exited: 'exited',
  error: 'error', lost: 'lost', detached: 'detached', 'not-started': 'not started' };
// A rank set as sdm writes it ("0-3,7") to its ranks.
function ranksOf(set) {
  const ranks = [];
  for (const part of set.split(',').filter(Boolean)) {
    const [a, b] = part.split('-').map(Number);
    for (let r = a; r <= (b ?? a); r++) ranks.push(r);
  }
  return ranks;
}
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function kind(group) { return group.signal ? 'crashed' : group.state; }
function draw(view) {
  const root = document.getElementById('root');
  root.className = '';
  root.replaceChildren();
  const legend = el('div', 'legend');
  const kinds = [...new Set(view.groups.map(kind))];
  for (const k of kinds) {
    const s = el('span', '', LABELS[k] || k);
    s.style.setProperty('--c', COLOURS[k] || '#888');
    legend.append(s);
  }
  root.append(legend);
  const small = view.size > 256;
  for (const g of view.groups) {
    const box = el('div', 'group');
    box.dataset.state = kind(g);
    box.dataset.ranks = g.ranks;
    box.style.setProperty('--c', COLOURS[kind(g)] || '#888');
    box.title = '[' + g.ranks + '] ' + g.what + (g.state === 'stopped' ? ' (click: show in the Call Stack)' : '');
    const head = el('div', 'head');
    head.append(el('b', '', '[' + g.ranks + '] '), document.createTextNode(g.what));
    const cells = el('div', small ? 'cells small' : 'cells');
    for (const r of ranksOf(g.ranks)) {
      const c = el('div', 'cell');
      c.title = 'rank ' + r;
      cells.append(c);
    }
    box.append(head, cells);
    box.addEventListener('click', () => vscode.postMessage({ type: 'focus', threadId: g.threadId }));
    root.append(box);
  }
  if (view.nodes.length > 0) {
    const nodes = el('div', 'nodes');
    for (const n of view.nodes) {
      nodes.append(el('div', '', n.host + ' (' + n.state + '): [' + n.ranks + ']'));
    }
    root.append(nodes);
  }
}
window.addEventListener('message', (e) => {
  const m = e.data;
  const root = document.getElementById('root');
  if (m.type === 'ranks') draw(m.ranks);
  else if (m.type === 'none') { root.className = 'note'; root.textContent = 'No sdm debug session.'; }
  else if (m.type === 'error') { root.className = 'note'; root.textContent = m.message; }
});
</script></body></html>`;
}

module.exports = { RanksView, page };

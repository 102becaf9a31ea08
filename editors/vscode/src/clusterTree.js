// The Cluster view (Eclipse PTP's machines view): Slurm's partitions as queues, and in each its
// nodes by state, as `sdm nodes --json --watch` reports them while the view is visible.
const vscode = require('vscode');
const sdm = require('./sdm');

const WATCH_SECONDS = 10;

const STATE_ICONS = {
  idle: new vscode.ThemeIcon('circle-outline', new vscode.ThemeColor('testing.iconPassed')),
  allocated: new vscode.ThemeIcon('circle-filled', new vscode.ThemeColor('charts.blue')),
  mixed: new vscode.ThemeIcon('circle-large-filled', new vscode.ThemeColor('charts.blue')),
  completing: new vscode.ThemeIcon('loading~spin'),
  drained: new vscode.ThemeIcon('debug-pause', new vscode.ThemeColor('charts.orange')),
  draining: new vscode.ThemeIcon('debug-pause', new vscode.ThemeColor('charts.orange')),
  down: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
};

function node(label, description, icon, children = []) {
  const item = new vscode.TreeItem(label,
    children.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
  item.description = description;
  item.iconPath = icon;
  item.tooltip = `${label}${description ? ` — ${description}` : ''}`;
  return { item, children };
}

class ClusterTree {
  constructor(context) {
    this.context = context;
    this.roots = [node('Reading the cluster...', '', undefined)];
    this.changed = new vscode.EventEmitter();
    this.onDidChangeTreeData = this.changed.event;
  }

  getTreeItem(element) {
    return element.item;
  }

  getChildren(element) {
    return element ? element.children : this.roots;
  }

  visible(shown) {
    this.watcher?.dispose();
    this.watcher = shown
      ? sdm.watch(this.context, ['nodes'], WATCH_SECONDS, (doc) => this.show(doc), (line) => this.failed(line))
      : undefined;
  }

  show(doc) {
    if (doc.error) {
      this.failed(doc.error);
      return;
    }
    const nodes = doc.nodes || [];
    this.roots = (doc.partitions || []).map((p) => {
      const states = Object.entries(p.byState || {}).map(([state, hosts]) => {
        const members = nodes.filter((n) => n.state === state && (n.partitions || []).includes(p.name));
        const children = members.map((n) => node(n.name,
          [n.slurmState.toLowerCase(), n.cpus ? `${n.allocatedCpus}/${n.cpus} CPUs` : '', n.reason].filter(Boolean).join(' · '),
          STATE_ICONS[state]));
        return node(`${state} ${hosts}`, `${members.length} node${members.length === 1 ? '' : 's'}`, STATE_ICONS[state], children);
      });
      return node(p.name + (p.default ? ' (default)' : ''), `${p.state.toLowerCase()} · ${p.nodes}`,
        new vscode.ThemeIcon('server-environment'), states);
    });
    if (this.roots.length === 0) this.roots = [node('No partitions', '', new vscode.ThemeIcon('info'))];
    this.changed.fire();
  }

  failed(line) {
    this.roots = [node(line, '', new vscode.ThemeIcon('error'))];
    this.changed.fire();
  }

  dispose() {
    this.watcher?.dispose();
  }
}

module.exports = { ClusterTree };

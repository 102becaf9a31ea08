// The Cluster view (Eclipse PTP's machines view): Slurm's partitions as queues, and in each its
// nodes by state, as `sdm nodes --json --watch` reports them while the view is visible.
const vscode = require('vscode');
const { WatchedTree, node } = require('./watchedTree');

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

/** The roots of a document of `sdm nodes --json`: each partition, its states, their nodes. */
function partitions(doc) {
  const nodes = doc.nodes || [];
  const roots = (doc.partitions || []).map((p) => {
    const states = Object.entries(p.byState || {}).map(([state, hosts]) => {
      const members = nodes.filter((n) => n.state === state && (n.partitions || []).includes(p.name));
      const children = members.map((n) => node(n.name,
        [n.slurmState.toLowerCase(), n.cpus ? `${n.allocatedCpus}/${n.cpus} CPUs` : '', n.reason].filter(Boolean).join(' · '),
        { icon: STATE_ICONS[state] }));
      return node(`${state} ${hosts}`, `${members.length} node${members.length === 1 ? '' : 's'}`,
        { icon: STATE_ICONS[state], children });
    });
    return node(p.name + (p.default ? ' (default)' : ''), `${p.state.toLowerCase()} · ${p.nodes}`,
      { icon: new vscode.ThemeIcon('server-environment'), children: states });
  });
  return roots.length > 0 ? roots : [node('No partitions', '', { icon: new vscode.ThemeIcon('info') })];
}

class ClusterTree extends WatchedTree {
  constructor(context) {
    super(context, ['nodes'], WATCH_SECONDS, 'Reading the cluster...', partitions);
  }
}

module.exports = { ClusterTree };

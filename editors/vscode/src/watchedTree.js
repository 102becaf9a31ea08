// A tree view fed by an sdm command that watches (`sdm jobs` or `sdm nodes` with --json --watch):
// one sdm JVM while the view is visible, none while it is not; each document the command prints
// becomes the tree's roots, and a failure one line at the root.
const vscode = require('vscode');
const sdm = require('./sdm');

/** An element of the tree: its item, its children and what the actions on it need. */
function node(label, description, { icon, context, tooltip, children = [], data } = {}) {
  const item = new vscode.TreeItem(label,
    children.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
  item.description = description;
  if (icon) item.iconPath = icon;
  if (context) item.contextValue = context;
  item.tooltip = tooltip || `${label}${description ? ` — ${description}` : ''}`;
  return { item, children, data };
}

class WatchedTree {
  /**
   * @param command the sdm subcommand and its arguments, e.g. ['jobs']
   * @param seconds between the command's looks
   * @param build the roots of a document the command printed
   */
  constructor(context, command, seconds, reading, build) {
    this.context = context;
    this.command = command;
    this.seconds = seconds;
    this.build = build;
    this.roots = [node(reading, '')];
    this.changed = new vscode.EventEmitter();
    this.onDidChangeTreeData = this.changed.event;
    this.watcher = undefined;
  }

  getTreeItem(element) {
    return element.item;
  }

  getChildren(element) {
    return element ? element.children : this.roots;
  }

  /** Watches while the view is visible, and again from the start when asked (Refresh). */
  visible(shown) {
    this.watcher?.dispose();
    this.watcher = shown
      ? sdm.watch(this.context, this.command, this.seconds, (doc) => this.show(doc), (line) => this.failed(line))
      : undefined;
  }

  show(doc) {
    if (doc.error) {
      this.failed(doc.error);
      return;
    }
    this.roots = this.build(doc);
    this.changed.fire();
  }

  failed(line) {
    this.roots = [node(line, '', { icon: new vscode.ThemeIcon('error') })];
    this.changed.fire();
  }

  dispose() {
    this.watcher?.dispose();
  }
}

module.exports = { WatchedTree, node };

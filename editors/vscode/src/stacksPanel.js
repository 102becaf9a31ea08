// Parallel Stacks: the page `sdm stacks --format html` writes (the merged stack tree drawn as a
// graph, self-contained: it loads nothing from the network), in an editor tab of its own.
const vscode = require('vscode');

function show(title, html) {
  const panel = vscode.window.createWebviewPanel('sdm.stacks', title, vscode.ViewColumn.Active,
    { enableScripts: true, retainContextWhenHidden: true });
  panel.webview.html = html;
  return panel;
}

module.exports = { show };

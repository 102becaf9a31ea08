// The sdm debug type: VS Code starts `sdm dap` (the adapter speaks DAP on standard input and
// output) from the command in the sdm.command setting, or else from the sdm.jar packed with this
// extension, with the java on the PATH. Always on standard input and output, as VS Code's own child:
// never `sdm dap --port`, whose clients must first send the token that sdm dap keeps in
// ~/.sdm/dap/PORT.token (docs/SECURITY.md).
//
// And the sdm view container: the Cluster (partitions and their nodes by state), your Jobs (attach,
// sample stacks, cancel) and the Ranks of the active session; Parallel Stacks as a picture.
const vscode = require('vscode');
const path = require('path');
const { execFile } = require('child_process');
const sdm = require('./src/sdm');
const { ClusterTree } = require('./src/clusterTree');
const { JobsTree, attachConfiguration, stacksArguments } = require('./src/jobsTree');
const { RanksView } = require('./src/ranksView');
const stacksPanel = require('./src/stacksPanel');

function activate(context) {
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory('sdm', {
      createDebugAdapterDescriptor() {
        const command = vscode.workspace.getConfiguration('sdm').get('command') || [];
        if (command.length > 0) {
          return new vscode.DebugAdapterExecutable(command[0], command.slice(1));
        }
        const jar = path.join(context.extensionPath, 'sdm.jar');
        return new vscode.DebugAdapterExecutable('java', [...sdm.JVM_OPTIONS, '-jar', jar, 'dap']);
      },
    }),
  );

  const cluster = new ClusterTree(context);
  const jobs = new JobsTree(context);
  const ranks = new RanksView();
  const clusterView = vscode.window.createTreeView('sdm.cluster', { treeDataProvider: cluster });
  const jobsView = vscode.window.createTreeView('sdm.jobs', { treeDataProvider: jobs });
  // Each watches while it is visible: one sdm JVM a view, none for a closed one.
  clusterView.onDidChangeVisibility((e) => cluster.visible(e.visible));
  jobsView.onDidChangeVisibility((e) => jobs.visible(e.visible));
  if (clusterView.visible) cluster.visible(true);
  if (jobsView.visible) jobs.visible(true);
  context.subscriptions.push(
    cluster, jobs, clusterView, jobsView,
    vscode.window.registerWebviewViewProvider('sdm.ranks', ranks),
    vscode.debug.registerDebugAdapterTrackerFactory('sdm', { createDebugAdapterTracker: (s) => ranks.tracker(s) }),
    vscode.debug.onDidChangeActiveDebugSession(() => ranks.refreshSoon()),
    vscode.commands.registerCommand('sdm.jobs.refresh', () => jobs.visible(true)),
    vscode.commands.registerCommand('sdm.cluster.refresh', () => cluster.visible(true)),
    vscode.commands.registerCommand('sdm.jobs.attach', (element) =>
      vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], attachConfiguration(element.data))),
    vscode.commands.registerCommand('sdm.jobs.stacks', (element) => sampleStacks(context, element.data)),
    vscode.commands.registerCommand('sdm.jobs.cancel', (element) => cancel(element.data)),
    vscode.commands.registerCommand('sdm.stacks.show', () => sessionStacks(context)),
  );
}

/** Samples the stacks of a running job, three times a second apart, and shows the picture. */
async function sampleStacks(context, data) {
  const title = `Parallel Stacks: ${data.id || data.pid}`;
  try {
    const html = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `sdm: sampling the stacks of ${data.id || data.pid}` },
      () => sdm.run(context, [...stacksArguments(data), '--samples', '3', '--format', 'html'], 300000));
    stacksPanel.show(title, html);
  } catch (e) {
    vscode.window.showErrorMessage(e.message);
  }
}

/** The Parallel Stacks of the active sdm debug session's stopped ranks. */
async function sessionStacks() {
  const session = vscode.debug.activeDebugSession;
  if (!session || session.type !== 'sdm') {
    vscode.window.showInformationMessage('sdm: no sdm debug session');
    return;
  }
  try {
    const { html } = await session.customRequest('sdmStacks', {});
    stacksPanel.show(`Parallel Stacks: ${session.name}`, html);
  } catch (e) {
    vscode.window.showErrorMessage(`sdm: ${e.message}`);
  }
}

/** Cancels a Slurm job (scancel) or ends a launcher job (SIGTERM to mpirun), once confirmed. */
async function cancel(data) {
  const what = data.kind === 'launcher' ? `the job of pid ${data.pid}` : `Slurm job ${data.id}`;
  const choice = await vscode.window.showWarningMessage(`Cancel ${what}?`, { modal: true }, 'Cancel the job');
  if (choice !== 'Cancel the job') return;
  try {
    if (data.kind === 'launcher') {
      process.kill(data.pid, 'SIGTERM');
    } else {
      await new Promise((resolve, reject) => execFile('scancel', [String(data.id)], { timeout: 30000 },
        (error, stdout, stderr) => (error ? reject(new Error(String(stderr).trim() || error.message)) : resolve())));
    }
  } catch (e) {
    vscode.window.showErrorMessage(`sdm: could not cancel ${what}: ${e.message}`);
  }
}

function deactivate() {}

module.exports = { activate, deactivate };

// The sdm debug type: VS Code starts `sdm dap` (the adapter speaks DAP on standard input and
// output) from the command in the sdm.command setting, or else from the sdm.jar packed with this
// extension, with the java on the PATH. Always on standard input and output, as VS Code's own child:
// never `sdm dap --port`, whose clients must first send the token that sdm dap keeps in
// ~/.sdm/dap/PORT.token (docs/SECURITY.md).
const vscode = require('vscode');
const path = require('path');

function activate(context) {
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory('sdm', {
      createDebugAdapterDescriptor() {
        const command = vscode.workspace.getConfiguration('sdm').get('command') || [];
        if (command.length > 0) {
          return new vscode.DebugAdapterExecutable(command[0], command.slice(1));
        }
        const jar = path.join(context.extensionPath, 'sdm.jar');
        return new vscode.DebugAdapterExecutable('java', ['-jar', jar, 'dap']);
      },
    }),
  );
}

function deactivate() {}

module.exports = { activate, deactivate };

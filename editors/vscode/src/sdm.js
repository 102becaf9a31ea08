// How the extension runs sdm's own commands (sdm jobs, sdm nodes, sdm stacks): the command of the
// sdm.command setting without its last word when that is "dap", or else java -jar with the sdm.jar
// packed with this extension. Never through a shell: every argument is passed as it is.
const vscode = require('vscode');
const path = require('path');
const { execFile, spawn } = require('child_process');

/** The master's JVM options, as ./sdm gives them (runtime's JvmOptions.MASTER says why). */
const JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:CICompilerCount=1', '-XX:+UseParallelGC'];

/** The program and arguments that run `sdm ARGS...`. */
function command(context, args) {
  const configured = vscode.workspace.getConfiguration('sdm').get('command') || [];
  if (configured.length > 0) {
    const base = configured.at(-1) === 'dap' ? configured.slice(0, -1) : configured;
    return { file: base[0], args: [...base.slice(1), ...args] };
  }
  return { file: 'java', args: [...JVM_OPTIONS, '-jar', path.join(context.extensionPath, 'sdm.jar'), ...args] };
}

/**
 * Runs `sdm ARGS...` to its end, within timeoutMs: resolves with its standard output, rejects
 * with an Error whose message is the first line sdm wrote to its standard error (or how it ended).
 */
function run(context, args, timeoutMs) {
  const { file, args: all } = command(context, args);
  return new Promise((resolve, reject) => {
    execFile(file, all, { timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (!error) {
          resolve(stdout);
          return;
        }
        const said = String(stderr).trim().split('\n').filter(Boolean).at(-1);
        const how = error.killed ? `no answer within ${timeoutMs / 1000} s` : said || error.message;
        reject(new Error(`sdm ${args[0]}: ${how}`));
      });
  });
}

/**
 * Runs `sdm ARGS... --json --watch SECONDS` and calls onDocument with each JSON document it prints
 * (one a line, one each time something changed), onError with a line when it ends or writes what
 * is not JSON. Returns a disposable that ends it.
 */
function watch(context, args, seconds, onDocument, onError) {
  const { file, args: all } = command(context, [...args, '--json', '--watch', String(seconds)]);
  const child = spawn(file, all, { stdio: ['ignore', 'pipe', 'pipe'] });
  let pending = '';
  let stderr = '';
  let disposed = false;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    pending += chunk;
    let newline;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      if (!line) continue;
      try {
        onDocument(JSON.parse(line));
      } catch (e) {
        onError(`sdm ${args[0]}: not JSON: ${line.slice(0, 200)}`);
      }
    }
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => { stderr = (stderr + chunk).slice(-4000); });
  child.on('error', (e) => onError(`sdm ${args[0]}: ${e.message}`));
  child.on('exit', (code, signal) => {
    if (disposed) return;
    const said = stderr.trim().split('\n').filter(Boolean).at(-1);
    onError(`sdm ${args[0]} ended (${signal || `status ${code}`})${said ? `: ${said}` : ''}`);
  });
  return new vscode.Disposable(() => {
    disposed = true;
    child.kill('SIGTERM');
  });
}

module.exports = { JVM_OPTIONS, command, run, watch };

// The sdm extension in real VS Code: code-server with the built .vsix installed, driven by Debian's
// chromium through playwright-core (both installed by install-code-server.sh into
// $SDM_CODE_SERVER_HOME). It opens a folder with examples/ranks.c built in it and a launch
// configuration of 4 ranks, sets a breakpoint at line 7 on the condition `rank == 2` and one at
// line 16, and starts debugging: rank 2 stops in compute, ranks 0, 1 and 3 in main, so that the
// Call Stack view shows two rank groups ("[2] compute at examples/ranks.c:7", "[0,1,3] main at
// examples/ranks.c:16"), and the Variables view shows main's `rank` per rank on [0,1,3]. Then it
// continues until every rank has exited and the session ends.
//
// Then an MPI job, in the same window: examples/mpi_reduce.c built with mpicc in the workspace, a
// second launch configuration of 4 ranks under mpirun, a breakpoint at line 10 (the MPI_Allreduce in
// combine) and Select and Start Debugging on that configuration: every rank stops there, one group,
// "[0-3] combine at examples/mpi_reduce.c:10" (VS Code shows no row for a session's only thread: the
// Call Stack view lists its merged stack, combine and main, and the Debug Console names the group in
// its line for the stop), and the Variables view shows `mine` per rank ("1 on [0], 2 on [1], -3 on
// [2], 4 on [3]"); it continues, the job ends, and with it the adapter, both mpiruns, the agent, gdb
// and the ranks (each carries this run's mark). Those checks are skipped, with the reason, when mpicc
// or `mpirun -n 1 true` does not work here (as root, mpirun needs OMPI_ALLOW_RUN_AS_ROOT=1 and
// OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 in this process's environment, which code-server, the adapter and
// mpirun inherit; dev/test exports them).
//
// Then the sdm view container. The Ranks view: examples/segv.c on 4 ranks, rank 1 stopped by
// SIGSEGV shows as a red group [1], the exited ranks grey; a click on the group focuses its frame
// in the Call Stack. Parallel Stacks: examples/mpi_deadlock.c launched under mpirun, paused once
// every rank has started; sdm: Show Parallel Stacks draws its deadlock ([0,1] and [2,3] outlined,
// red arrows, the cycle 0 -> 1 -> 0 named). And, when the test bed's nodes are up
// (SDM_NODES_SLURM_CONF, dev/test starts them): mpi_deadlock under srun on two of the nodes; the
// Jobs view lists the job and its step; Attach on the step starts a session whose four ranks the
// Ranks view shows stopped, and Parallel Stacks draws the two groups (exchange [0,1],
// wait_for_all [2,3]); after Disconnect, Sample Stacks on the step draws the job's stacks marked
// stuck, and Cancel Job ends it (squeue no longer lists it). The job is cancelled by its name
// whatever happens.
//
//   node browser.mjs [--out DIR] [--junit FILE] [--vsix FILE]
//
// DIR (default editors/vscode/target/browser-test) gets the workspace, code-server's data, its log
// and the screenshots: call-stack.png (the Call Stack view with the groups), session.png (the whole
// window), variables.png, mpi-session.png (the whole window paused in the MPI job), ranks.png (the
// sdm side bar with the crashed rank), jobs.png (the side bar with the Slurm job),
// parallel-stacks.png (the whole window with the picture of the deadlock), attached-stacks.png (the
// whole window with the attached Slurm job's picture and the sdm views), and
// failure-<check>.png when a check fails. FILE gets a JUnit report, one test case per check. Exit
// status 0 when every check passed or was skipped, 1 otherwise. Every wait is bounded, and the
// whole run is too (SDM_BROWSER_TEST_LIMIT_S, default 480 s). Whatever happens, chromium,
// code-server's process group and every process that carries this run's mark in its environment
// (code-server's descendants: the adapter, gdb, the ranks) are ended; one of the session's that
// outlives it is reported as a failure.
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync,
  openSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '..', '..', '..');
const opts = {
  out: join(repo, 'editors/vscode/target/browser-test'),
  junit: '',
  vsix: join(repo, 'editors/vscode/sdm-fabric.vsix'),
};
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, '');
  if (!(key in opts) || process.argv[i + 1] === undefined) {
    console.error(`usage: node browser.mjs [--out DIR] [--junit FILE] [--vsix FILE] (not ${process.argv[i]})`);
    process.exit(2);
  }
  opts[key] = resolve(process.argv[i + 1]);
}
const home = process.env.SDM_CODE_SERVER_HOME || '/var/tmp/sdm-code-server';
const codeServer = join(home, 'node_modules/.bin/code-server');
const chromiumPath = process.env.SDM_CHROMIUM || '/usr/bin/chromium';
const limitS = Number(process.env.SDM_BROWSER_TEST_LIMIT_S || 480);
const out = opts.out;
const ws = join(out, 'ws');

// The checks, in order; a check that fails stops the run, and the ones after it are not run.
const checks = [];
const mpiConfiguration = 'sdm: mpirun 4 ranks';
const crashConfiguration = 'sdm: segv 4 ranks';
const deadlockConfiguration = 'sdm: mpirun deadlock';
let server; // code-server, leader of its own process group
let browser;
let page;
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
const log = (text) => console.log(`[browser ${elapsed()}] ${text}`);

// Whatever happens, nothing of this run stays: code-server's process group, then every process that
// carries this run's mark in its environment: code-server's descendants (the extension host, the
// adapter's java, gdb, the ranks), even those that left the group. Only those: a process is ours by
// the mark, never by its name, directory or command line. Synchronous, so that it also runs on
// process exit.
const markValue = `${process.pid}-${randomBytes(8).toString('hex')}`;
const mark = `SDM_BROWSER_TEST_RUN=${markValue}`;
function leftovers() {
  const found = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    if (Number(pid) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(mark)) {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
        found.push({ pid: Number(pid), cmd: cmd.slice(0, 160) });
      }
    } catch { /* ended meanwhile, or not ours to read */ }
  }
  return found;
}
// The processes of the debug session: what this run started less code-server's and chromium's own.
const sessionProcesses = () => leftovers().filter((p) => !p.cmd.includes(home) && !p.cmd.includes('chromium'));
function killEverything() {
  if (server?.pid) {
    try { process.kill(-server.pid, 'SIGKILL'); } catch { /* already gone */ }
  }
  for (const p of leftovers()) {
    try { process.kill(p.pid, 'SIGKILL'); } catch { /* already gone */ }
  }
}
process.on('exit', killEverything);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    log(`FAILED: stopped by ${signal}`);
    process.exit(1);
  });
}
const deadline = setTimeout(() => {
  log(`FAILED: the run took more than ${limitS} s (SDM_BROWSER_TEST_LIMIT_S)`);
  writeJunit(`the run took more than ${limitS} s`);
  process.exit(1);
}, limitS * 1000);

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
async function waitFor(what, ms, test) {
  const t0 = Date.now();
  for (;;) {
    const v = await test();
    if (v) return v;
    if (Date.now() - t0 > ms) throw new Error(`${what}: not within ${ms / 1000} s`);
    await sleep(250);
  }
}

// A check is skipped, with the reason, when skip names one (what it needs is missing here).
async function check(name, body, skip) {
  const c = { name, t0: Date.now() };
  checks.push(c);
  if (checks.some((x) => x.failure)) {
    c.skipped = 'not run: an earlier check failed';
    return;
  }
  if (skip) {
    c.skipped = skip;
    log(`skip ${name}: ${skip}`);
    return;
  }
  try {
    await body();
    c.time = (Date.now() - c.t0) / 1000;
    log(`ok   ${name} (${c.time.toFixed(1)} s)`);
  } catch (e) {
    c.time = (Date.now() - c.t0) / 1000;
    c.failure = e.message.split('\n')[0];
    c.detail = e.stack || String(e);
    log(`FAIL ${name}: ${e.message}`);
    if (page) {
      await page.screenshot({ path: join(out, `failure-${name}.png`), timeout: 10000 }).catch(() => {});
      const repl = await page.locator('.repl').first().innerText({ timeout: 2000 }).catch(() => '');
      if (repl) log(`the Debug Console:\n${repl}`);
      const stack = await page.locator('.debug-call-stack').first().innerText({ timeout: 2000 }).catch(() => '');
      if (stack) log(`the Call Stack view:\n${stack}`);
    }
    const serverLog = join(out, 'code-server.log');
    if (existsSync(serverLog)) {
      log(`the end of ${serverLog}:\n${readFileSync(serverLog, 'utf8').split('\n').slice(-15).join('\n')}`);
    }
  }
}

const xml = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
function writeJunit(abort) {
  if (!opts.junit) return;
  for (const c of checks) if (!c.failure && !c.skipped && c.time === undefined) c.failure = abort;
  const cases = checks.map((c) => {
    const head = `  <testcase classname="vscode.BrowserTest" name="${xml(c.name)}" time="${(c.time ?? 0).toFixed(3)}"`;
    if (c.failure) {
      return `${head}>\n    <failure message="${xml(c.failure)}">${xml(c.detail || c.failure)}</failure>\n  </testcase>`;
    }
    if (c.skipped) return `${head}>\n    <skipped message="${xml(c.skipped)}"/>\n  </testcase>`;
    return `${head}/>`;
  });
  const failures = checks.filter((c) => c.failure).length;
  const skipped = checks.filter((c) => c.skipped).length;
  mkdirSync(dirname(opts.junit), { recursive: true });
  const time = ((Date.now() - started) / 1000).toFixed(3);
  writeFileSync(opts.junit, '<?xml version="1.0" encoding="UTF-8"?>\n'
    + `<testsuite name="vscode.BrowserTest" tests="${checks.length}" failures="${failures}" errors="0"`
    + ` skipped="${skipped}" time="${time}">\n${cases.join('\n')}\n</testsuite>\n`);
}

// --- the run ----------------------------------------------------------------------------------

if (repo.startsWith(out) || out.split('/').filter(Boolean).length < 2) {
  console.error(`browser.mjs: --out ${out} would be emptied: name a directory of its own`);
  process.exit(2);
}
rmSync(out, { recursive: true, force: true });
mkdirSync(join(ws, 'examples'), { recursive: true });
mkdirSync(join(ws, '.vscode'));
mkdirSync(join(out, 'data/User'), { recursive: true });
const csConfig = join(out, 'code-server.yaml'); // so that code-server writes no ~/.config of its own
writeFileSync(csConfig, 'auth: none\n');
const csArgs = ['--config', csConfig, '--extensions-dir', join(out, 'ext'), '--user-data-dir', join(out, 'data')];
// The environment of what this run starts. Slurm is the test bed's nodes' when they are up: the Jobs
// view lists a job that runs there.
const nodesSlurm = process.env.SDM_NODES_SLURM_CONF || '';
const marked = {
  ...process.env,
  SDM_BROWSER_TEST_RUN: markValue,
  ...(nodesSlurm ? { SLURM_CONF: nodesSlurm } : {}),
};

// Why an MPI job cannot run here, or '' when it can: mpicc and `mpirun -n 1 true` work (in this
// process's environment, the one the adapter gets through code-server). Anything the tries leave
// running carries the mark, and is ended before code-server starts.
function noMpi() {
  for (const [command, args] of [['mpicc', ['--version']], ['mpirun', ['-n', '1', 'true']]]) {
    const r = spawnSync(command, args, { env: marked, timeout: 60000, killSignal: 'SIGKILL', stdio: 'ignore' });
    if (r.status !== 0) {
      killEverything();
      const how = r.error ? r.error.code || r.error.message : r.signal ? `killed by ${r.signal}` : `status ${r.status}`;
      return `the MPI job is not tried: ${command} ${args.join(' ')} fails (${how}; as root mpirun needs`
        + ' OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; dev/test exports them)';
    }
  }
  return '';
}
let mpiSkip = '';

await check('buildsTheWorkspace', async () => {
  if (!existsSync(codeServer)) {
    throw new Error(`no code-server at ${codeServer}: run editors/vscode/test/install-code-server.sh`);
  }
  if (!existsSync(chromiumPath)) throw new Error(`no chromium at ${chromiumPath}`);
  for (const name of ['ranks', 'segv']) {
    cpSync(join(repo, `examples/${name}.c`), join(ws, `examples/${name}.c`));
    const cc = spawnSync('gcc', ['-g', '-O0', '-o', name, `examples/${name}.c`],
      { cwd: ws, encoding: 'utf8', timeout: 60000 });
    if (cc.status !== 0) throw new Error(`gcc failed: ${cc.error?.message || cc.stderr}`);
  }
  // The MPI job's source (built by buildsTheMpiJob), and whether it can run here: tried before
  // code-server starts, so that what the tries leave is theirs alone.
  cpSync(join(repo, 'examples/mpi_reduce.c'), join(ws, 'examples/mpi_reduce.c'));
  cpSync(join(repo, 'examples/mpi_deadlock.c'), join(ws, 'examples/mpi_deadlock.c'));
  mpiSkip = noMpi();
  if (mpiSkip) log(mpiSkip);
  // The first configuration is the one Start Debugging takes; the MPI job's is chosen by name.
  writeFileSync(join(ws, '.vscode/launch.json'), JSON.stringify({
    version: '0.2.0',
    configurations: [{
      type: 'sdm', request: 'launch', name: 'sdm: 4 ranks',
      program: '${workspaceFolder}/ranks', ranks: 4, cwd: '${workspaceFolder}',
    }, {
      type: 'sdm', request: 'launch', name: crashConfiguration,
      program: '${workspaceFolder}/segv', ranks: 4, cwd: '${workspaceFolder}',
    }, {
      type: 'sdm', request: 'launch', name: mpiConfiguration,
      program: '${workspaceFolder}/mpi_reduce', ranks: 4, launcher: 'mpirun', launcherArgs: ['--oversubscribe'],
      cwd: '${workspaceFolder}',
    }, {
      type: 'sdm', request: 'launch', name: deadlockConfiguration,
      program: '${workspaceFolder}/mpi_deadlock', ranks: 4, launcher: 'mpirun', launcherArgs: ['--oversubscribe'],
      cwd: '${workspaceFolder}',
    }],
  }, null, 2));
  // A quiet window: no welcome page or walkthrough over the editor, the debug toolbar in the view.
  writeFileSync(join(out, 'data/User/settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none',
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'extensions.ignoreRecommendations': true,
    'security.workspace.trust.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'chat.commandCenter.enabled': false,
    'debug.toolBarLocation': 'docked',
    'git.enabled': false, // the checkout around DIR is not the workspace's repository
    'git.openRepositoryInParentFolders': 'never',
    'debug.console.closeOnEnd': false,
    'remote.autoForwardPorts': false, // no notification of the ports mpirun listens on
  }, null, 2));
});

await check('installsTheVsix', async () => {
  if (!existsSync(opts.vsix)) throw new Error(`no ${opts.vsix}: build it (cd editors/vscode && npm ci && npm run package)`);
  const r = spawnSync(codeServer, [...csArgs, '--install-extension', opts.vsix], { encoding: 'utf8', timeout: 120000 });
  const said = `${r.stdout}${r.stderr}`.trim();
  if (r.status !== 0 || !/successfully installed/.test(said)) {
    const status = `status ${r.status}${r.error ? ', ' + r.error.message : ''}`;
    throw new Error(`code-server --install-extension ${opts.vsix} failed (${status}): ${said}`);
  }
});

await check('opensTheWorkspace', async () => {
  const logFd = openSync(join(out, 'code-server.log'), 'a');
  server = spawn(codeServer, [
    ...csArgs, '--auth', 'none', '--bind-addr', '127.0.0.1:0', '--disable-telemetry',
    '--disable-update-check', '--disable-workspace-trust', '--ignore-last-opened', ws,
  ], { detached: true, stdio: ['ignore', 'pipe', logFd], env: marked });
  let said = '';
  server.stdout.on('data', (d) => { said += d; writeFileSync(join(out, 'code-server.log'), d, { flag: 'a' }); });
  let ended = '';
  server.on('exit', (code, signal) => { ended = `code-server ended (${signal || code})`; });
  const port = await waitFor('code-server listening on a port', 120000, () => {
    if (ended) throw new Error(ended);
    return said.match(/HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/)?.[1];
  });
  const { chromium } = createRequire(join(home, 'package.json'))('playwright-core');
  browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox'], timeout: 60000 });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(30000);
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`, { timeout: 60000 });
  await page.locator('.monaco-workbench').waitFor({ timeout: 120000 });
  // The explorer lists the folder once the workbench has connected to the server.
  await page.locator('.explorer-folders-view').getByText('examples').first().waitFor({ timeout: 120000 });
  // A side bar wide enough for the groups' names and the values per rank: its sash dragged right.
  const bar = await page.locator('.part.sidebar').boundingBox();
  await page.mouse.move(bar.x + bar.width + 1, bar.y + bar.height / 2);
  await page.mouse.down();
  await page.mouse.move(620, bar.y + bar.height / 2, { steps: 10 });
  await page.mouse.up();
});

// A command of the palette, by its label exactly ("Debug: Start Debugging" and not "Debug: Select and
// Start Debugging", which fuzzy matching may put first).
const quote = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const exactly = (text) => new RegExp(`^${quote(text)}$`);
// Opens the quick input with keys (once more if the first press found the keyboard elsewhere, e.g.
// in a widget that was closing).
async function quickInput(keys) {
  const input = page.locator('.quick-input-widget');
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press(keys);
    try {
      await input.waitFor({ state: 'visible', timeout: 5000 });
      return input;
    } catch (e) {
      if (attempt === 3) throw new Error(`${keys} opened no quick input, 3 times`);
      await page.locator('.monaco-editor .view-lines').first().click();
    }
  }
}
// With reopens, the command opens a quick input of its own, and that is left to the caller.
// The row is clicked, or chosen with Enter when it is the focused one: a quick input that opens
// while another closes can show its list a moment late, with the row there but not yet visible.
async function palette(label, { reopens = false } = {}) {
  const input = await quickInput('Control+Shift+P');
  await page.keyboard.type(label);
  const row = input.locator('.monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exactly(label) }) });
  await row.first().waitFor({ state: 'attached', timeout: 15000 });
  try {
    await row.first().click({ timeout: 5000 });
  } catch (e) {
    if (!/\bfocused\b/.test((await row.first().getAttribute('class')) || '')) throw e;
    await page.keyboard.press('Enter');
  }
  if (!reopens) await input.waitFor({ state: 'hidden', timeout: 10000 });
}
async function goToLine(line) {
  await quickInput('Control+G');
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
  await page.locator('.statusbar-item', { hasText: `Ln ${line},` }).first().waitFor({ timeout: 10000 });
}

await check('setsAConditionalBreakpointAndAPlainOne', async () => {
  await quickInput('Control+P');
  await page.keyboard.type('examples/ranks.c');
  await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: 'ranks.c' }).waitFor({ timeout: 20000 });
  await page.keyboard.press('Enter');
  await page.locator('.monaco-editor .view-lines', { hasText: 'rank 2 gets it wrong' }).waitFor();
  await page.locator('.monaco-editor .view-lines').first().click(); // the editor has the keyboard
  // Line 7 (`return value;` in compute) on rank 2 only: `rank` is compute's parameter there.
  await goToLine(7);
  await palette('Debug: Add Conditional Breakpoint...');
  const widget = page.locator('.breakpoint-widget');
  await widget.locator('.monaco-editor.focused').waitFor(); // its input has the keyboard
  await page.keyboard.type('rank == 2');
  await page.keyboard.press('Enter');
  await widget.waitFor({ state: 'hidden' });
  // Line 16 (main's first printf) on every rank: 0, 1 and 3 reach it.
  await goToLine(16);
  await palette('Debug: Toggle Breakpoint');
  const margin = page.locator('.monaco-editor .glyph-margin-widgets');
  await margin.locator('.codicon-debug-breakpoint-conditional').first().waitFor({ timeout: 10000 });
  await margin.locator('.codicon-debug-breakpoint').first().waitFor({ timeout: 10000 });
  if ((await page.locator('.tab.dirty').count()) > 0) {
    const text = await page.locator('.monaco-editor .view-lines').first().innerText();
    throw new Error(`the keys meant for the breakpoints changed the file:\n${text}`);
  }
});

const callStack = () => page.locator('.debug-call-stack').first();
const threadRow = (name) =>
  callStack().locator('.monaco-list-row', { has: page.locator('.thread') }).filter({ hasText: name });
// A variable's row: its name shows as "name =".
const variable = (name) => page.locator('.debug-variables .monaco-list-row')
  .filter({ has: page.locator('.name', { hasText: new RegExp(`^${quote(name)}( =)?$`) }) });

// The first frame under a thread's row: the next row of the list.
async function clickTopFrame(name) {
  const row = threadRow(name).first();
  const expanded = async () => (await row.getAttribute('aria-expanded')) === 'true';
  if (!(await expanded())) await row.click();
  if (!(await waitFor('expanded', 2000, expanded).catch(() => false))) await row.locator('.monaco-tl-twistie').click();
  await waitFor(`the thread "${name}" expanded`, 10000, expanded);
  const index = Number(await row.getAttribute('data-index'));
  const frame = callStack().locator(`.monaco-list-row[data-index="${index + 1}"]`);
  await frame.locator('.stack-frame').waitFor();
  await frame.click();
}
// Waits until the Variables view shows `name = expected`, opening any scope it shows closed (VS Code
// opens only the first: Arguments, then Locals).
async function valueOf(name, expected) {
  const found = variable(name).locator('.value', { hasText: exactly(expected) });
  const closed = page.locator('.debug-variables .monaco-list-row[aria-level="1"][aria-expanded="false"]');
  try {
    await waitFor(`${name} = ${expected}`, 30000, async () => {
      if ((await found.count()) > 0) return true;
      if ((await closed.count()) > 0) await closed.first().click({ timeout: 5000 }).catch(() => {});
      return false;
    });
  } catch {
    const seen = await page.locator('.debug-variables').first().innerText({ timeout: 2000 })
      .catch(() => '(no Variables view)');
    throw new Error(`the Variables view does not show ${name} = ${expected} within 30 s; it shows:\n${seen}`);
  }
}

let debugged = []; // the session's processes while it is paused
const group2 = '[2] compute at examples/ranks.c:7';
const group013 = '[0,1,3] main at examples/ranks.c:16';
await check('showsTwoRankGroupsInTheCallStack', async () => {
  await palette('Debug: Start Debugging');
  try {
    for (const name of [group2, group013]) await threadRow(name).first().waitFor({ timeout: 120000 });
  } catch {
    const seen = await callStack().innerText({ timeout: 2000 }).catch(() => '(no Call Stack view)');
    throw new Error(`the Call Stack view does not show the groups "${group2}" and "${group013}"`
      + ` within 120 s; it shows:\n${seen}`);
  }
  debugged = sessionProcesses();
  log(`the session's processes: ${debugged.map((p) => `${p.pid} ${p.cmd.split(' ')[0].split('/').pop()}`).join(', ')}`);
  // Both groups expanded, each with its stack: compute and main for [2], main for [0,1,3].
  await clickTopFrame(group2);
  await page.locator('.monaco-editor .debug-top-stack-frame-line').first().waitFor();
  await clickTopFrame(group013);
  await callStack().locator('.stack-frame', { hasText: 'compute' }).first().waitFor();
  if ((await callStack().locator('.stack-frame').count()) < 3) {
    throw new Error(`fewer than 3 frames under the two groups:\n${await callStack().innerText()}`);
  }
});

await check('showsValuesPerRankInTheVariablesView', async () => {
  await clickTopFrame(group2);
  await valueOf('value', '-1');
  const watch = page.locator('.pane-header[aria-expanded="true"]', { hasText: /^watch$/i });
  if ((await watch.count()) > 0) await watch.first().click(); // room for the Call Stack view
  await clickTopFrame(group013);
  await valueOf('rank', '0 on [0], 1 on [1], 3 on [3]');
  await valueOf('x', '42');
  await page.mouse.move(0, 0); // no hover in the pictures
  await page.waitForTimeout(500); // the views settle (scrollbars fade) before the pictures
  const callStackPane = page.locator('.pane', { has: page.locator('.debug-call-stack') }).first();
  await callStackPane.screenshot({ path: join(out, 'call-stack.png') });
  const variablesPane = page.locator('.pane', { has: page.locator('.debug-variables') }).first();
  await variablesPane.screenshot({ path: join(out, 'variables.png') });
  await page.screenshot({ path: join(out, 'session.png') });
});

await check('runsEveryRankToItsEnd', async () => {
  // Continue: rank 2 goes on to line 16, ranks 0, 1 and 3 to their end; then again, rank 2 too.
  await palette('Debug: Continue');
  await threadRow('[0,1,3] exited, exit code 0').first().waitFor({ timeout: 60000 });
  await threadRow('[2] main at examples/ranks.c:16').first().waitFor({ timeout: 60000 });
  await palette('Debug: Continue');
  // The session has ended: the Call Stack view is empty.
  await waitFor('the session ending (an empty Call Stack view)', 60000,
    async () => (await callStack().locator('.monaco-list-row').count()) === 0);
  // Its processes (the adapter, sdm's agent, gdb, the ranks) end with it.
  const running = () => sessionProcesses().filter((p) => debugged.some((d) => d.pid === p.pid));
  await waitFor('the session\'s processes ending with it', 30000, () => running().length === 0).catch(() => {
    throw new Error(`processes of the session still running 30 s after it ended: ${JSON.stringify(running())}`);
  });
});

// --- an MPI job under mpirun, in the same window --------------------------------------------

// Every rank stops at the breakpoint: one group, [0-3]. VS Code shows no row for the only thread of
// the only session (its Call Stack view lists that thread's frames directly, under "Paused on
// breakpoint"), so the group's name shows in the Debug Console's line for the stop.
const mpiGroup = '[0-3] combine at examples/mpi_reduce.c:10';
const mpiStop = /\[0-3\] stopped: breakpoint \d+ in combine at examples\/mpi_reduce\.c:10/;
const editorLines = () => page.locator('.part.editor .monaco-editor .view-lines');
const repl = () => page.locator('.repl').first().innerText({ timeout: 2000 }).catch(() => '');
const frameRow = (name) => callStack().locator('.monaco-list-row')
  .filter({ has: page.locator('.stack-frame > .label', { hasText: exactly(name) }) });
// The name of a process's program, from its command line.
const programOf = (p) => p.cmd.split(' ')[0].split('/').pop();

await check('buildsTheMpiJob', async () => {
  // Built like ranks: its frames name examples/mpi_reduce.c, in the workspace.
  for (const name of ['mpi_reduce', 'mpi_deadlock']) {
    const mpicc = spawnSync('mpicc', ['-g', '-O0', '-o', name, `examples/${name}.c`],
      { cwd: ws, env: marked, encoding: 'utf8', timeout: 60000 });
    if (mpicc.status !== 0) throw new Error(`mpicc failed: ${mpicc.error?.message || mpicc.stderr}`);
  }
}, mpiSkip);

await check('setsABreakpointAtTheMpiAllreduce', async () => {
  // Only this one: the breakpoints in ranks.c are not the MPI job's.
  await palette('Remove All Breakpoints');
  await quickInput('Control+P');
  await page.keyboard.type('examples/mpi_reduce.c');
  await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: 'mpi_reduce.c' }).waitFor({ timeout: 20000 });
  await page.keyboard.press('Enter');
  await editorLines().filter({ hasText: 'MPI_Allreduce(&mine' }).waitFor();
  await editorLines().first().click(); // the editor has the keyboard
  await goToLine(10);
  await palette('Debug: Toggle Breakpoint');
  const margin = page.locator('.part.editor .monaco-editor .glyph-margin-widgets');
  await margin.locator('.codicon-debug-breakpoint').first().waitFor({ timeout: 10000 });
  if ((await page.locator('.tab.dirty').count()) > 0) {
    throw new Error(`the keys meant for the breakpoint changed the file:\n${await editorLines().first().innerText()}`);
  }
  if ((await page.locator('.debug-breakpoints .monaco-list-row', { hasText: 'ranks.c' }).count()) > 0) {
    throw new Error(`the breakpoints in ranks.c are still there:\n${await page.locator('.debug-breakpoints').first().innerText()}`);
  }
}, mpiSkip);

await check('showsTheMpiJobAsOneRankGroup', async () => {
  // Select and Start Debugging, then the MPI job's configuration by its name.
  await palette('Debug: Select and Start Debugging', { reopens: true });
  const input = page.locator('.quick-input-widget');
  const row = input.locator('.monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: exactly(mpiConfiguration) }) });
  await row.first().click({ timeout: 15000 });
  await input.waitFor({ state: 'hidden', timeout: 10000 });
  try {
    await waitFor('the stop', 180000, async () => mpiStop.test(await repl())
      && (await frameRow('combine').count()) > 0 && (await frameRow('main').count()) > 0);
  } catch {
    const seen = await callStack().innerText({ timeout: 2000 }).catch(() => '(no Call Stack view)');
    throw new Error(`no stop of [0-3] in combine at examples/mpi_reduce.c:10 with the frames combine and main`
      + ` within 180 s; the Call Stack view shows:\n${seen}\nthe Debug Console:\n${await repl()}`);
  }
  debugged = sessionProcesses();
  log(`the MPI session's processes: ${debugged.map((p) => `${p.pid} ${programOf(p)}`).join(', ')}`);
  // mpirun and the ranks carry the mark: what outlives the session is seen (and ended).
  const ranks = debugged.filter((p) => programOf(p) === 'mpi_reduce').length;
  if (!debugged.some((p) => programOf(p) === 'mpirun') || ranks !== 4) {
    throw new Error(`mpirun and 4 ranks do not carry this run's mark: ${JSON.stringify(debugged)}`);
  }
  // One group: no row of its own.
  if ((await callStack().locator('.monaco-list-row .thread').count()) > 0) {
    throw new Error(`not the one group "${mpiGroup}":\n${await callStack().innerText()}`);
  }
  // The group's merged stack: combine at line 10, then main at line 19 (the call of combine).
  const frames = (await callStack().locator('.stack-frame').allInnerTexts()).map((f) => f.replace(/\s+/g, ' ').trim());
  const combine = frames.findIndex((f) => f === 'combine mpi_reduce.c 10');
  if (combine < 0 || frames[combine + 1] !== 'main mpi_reduce.c 19') {
    throw new Error(`the stack is not combine at mpi_reduce.c:10, then main at mpi_reduce.c:19: ${JSON.stringify(frames)}`);
  }
  await frameRow('combine').first().click();
  await page.locator('.part.editor .monaco-editor .debug-top-stack-frame-line').first().waitFor();
}, mpiSkip);

await check('showsMineOnEveryRankInTheVariablesView', async () => {
  await frameRow('combine').first().click();
  await valueOf('mine', '1 on [0], 2 on [1], -3 on [2], 4 on [3]'); // Arguments, the first scope
  await valueOf('total', '0'); // Locals, opened
  // The keyboard in the editor, on the line of the stop: no focused row in the picture.
  await editorLines().locator('.view-line', { hasText: 'MPI_Allreduce(&mine' }).click({ position: { x: 1, y: 5 } });
  await page.mouse.move(0, 0); // no hover in the picture
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(out, 'mpi-session.png') });
}, mpiSkip);

await check('runsTheMpiJobToItsEnd', async () => {
  // Every rank exits: the session ends. (The Call Stack view is empty as soon as the only thread
  // runs; the Run and Debug view's start button, in the place of the debug toolbar, says it ended.)
  const start = page.locator('.part.sidebar .start-debug-action-item');
  if (await start.isVisible()) throw new Error('the start button shows while the MPI job is paused');
  await palette('Debug: Continue');
  const t0 = Date.now();
  await waitFor('the MPI session ending (the start button back, an empty Call Stack view)', 120000,
    async () => (await start.isVisible()) && (await callStack().locator('.monaco-list-row').count()) === 0);
  log(`the MPI session ended ${((Date.now() - t0) / 1000).toFixed(1)} s after Continue`);
  // Rank 0 printed the (wrong) total.
  await waitFor('"[0] total = 4, expected 10" in the Debug Console', 10000,
    async () => /\[0\] total = 4, expected 10/.test(await repl()))
    .catch(async (e) => { throw new Error(`${e.message}; it shows:\n${await repl()}`); });
  // mpirun, the agent, gdb, the ranks and the adapter end with it: none of this run's processes is
  // left but code-server's and chromium's.
  const running = sessionProcesses;
  await waitFor('the MPI session\'s processes ending with it', 30000, () => running().length === 0).catch(() => {
    throw new Error(`processes of the MPI session still running 30 s after it ended: ${JSON.stringify(running())}`);
  });
  log(`its processes ended ${((Date.now() - t0) / 1000).toFixed(1)} s after Continue`);
}, mpiSkip);

// --- the sdm views: a crashed rank in the Ranks view ------------------------------------------

// Starts a configuration of launch.json by its name.
async function startConfiguration(name) {
  await focusWorkbench();
  await palette('Debug: Select and Start Debugging', { reopens: true });
  const input = page.locator('.quick-input-widget');
  const row = input.locator('.monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: exactly(name) }) });
  await row.first().click({ timeout: 15000 });
  await input.waitFor({ state: 'hidden', timeout: 10000 });
}
// The frame of a webview (VS Code nests each in two iframes) whose page has `selector`.
async function webviewWith(selector, what, ms = 60000) {
  return waitFor(what, ms, async () => {
    for (const frame of page.frames()) {
      if ((await frame.locator(selector).count().catch(() => 0)) > 0) return frame;
    }
    return undefined;
  });
}
const crashedGroup = '[1] SIGSEGV in load at examples/segv.c:5';
// The keyboard back from a webview (whose page has it after a click), for the palette: the Debug
// Console's input (an editor's text may be under a widget, such as an exception's, that takes it).
async function focusWorkbench() {
  const input = page.locator('.repl-input-wrapper:visible');
  if ((await input.count()) > 0) await input.first().click();
  else await page.locator('.part.editor .monaco-editor .view-lines:visible').first().click();
}
// The frame of an editor's webview panel whose page has `selector`.
const panelWith = (selector, what) => webviewWith(selector, what, 120000);
// sdm: Show Parallel Stacks, from the Ranks view's title bar.
async function showParallelStacks() {
  await showContainer('SDM Fabric');
  const ranksPane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: /^ranks/i }) }).first();
  await ranksPane.locator('.pane-header').hover();
  await ranksPane.locator('.action-label[aria-label="Show Parallel Stacks"]').click({ timeout: 10000 });
}
// A view container, by its icon in the activity bar (whose badge, when it has one, takes the click).
// A click on the container that shows already would hide the side bar: that one is left as it is.
async function showContainer(label) {
  const title = page.locator('.part.sidebar .title-label', { hasText: new RegExp(`^${quote(label)}$`, 'i') }).first();
  if (await title.isVisible()) return;
  await page.locator('.activitybar .action-item', { has: page.locator(`a[aria-label^="${label}"]`) }).first().click();
  await title.waitFor({ timeout: 10000 });
}

await check('showsACrashedRankInTheRanksView', async () => {
  await startConfiguration(crashConfiguration);
  await threadRow(crashedGroup).first().waitFor({ timeout: 120000 });
  await showContainer('SDM Fabric');
  const ranks = await webviewWith('.group[data-state="crashed"]', 'the Ranks view showing a crashed group');
  const crashed = ranks.locator('.group[data-state="crashed"]');
  const exited = ranks.locator('.group[data-state="exited"]');
  // The others exit; gdb 13 sometimes misses how one of its programs ended, and that rank is then a
  // group of its own ("exited, exit status unknown").
  const exitedRanks = async () => (await exited.evaluateAll((groups) => groups.map((g) => g.dataset.ranks)))
    .flatMap((set) => set.split(',')).sort().join(',');
  await waitFor('ranks 0, 2 and 3 exited in the Ranks view', 60000, async () => (await exitedRanks()) === '0,2,3')
    .catch(async (e) => { throw new Error(`${e.message}; it shows:\n${await ranks.locator('#root').innerText()}`); });
  if ((await crashed.getAttribute('data-ranks')) !== '1') {
    throw new Error(`the crashed group is not [1]: ${await ranks.locator('#root').innerText()}`);
  }
  // Red, and the exited ranks grey: each group in its state's colour.
  const colour = (group) => group.evaluate((e) => getComputedStyle(e.querySelector('.cell')).backgroundColor);
  if ((await colour(crashed)) !== 'rgb(248, 81, 73)') throw new Error(`the crashed rank is ${await colour(crashed)}, not red`);
  for (const c of await exited.evaluateAll((groups) => groups.map((g) => getComputedStyle(g.querySelector('.cell')).backgroundColor))) {
    if (c !== 'rgb(139, 148, 158)') throw new Error(`an exited group is ${c}, not grey`);
  }
  await page.mouse.move(0, 0);
  await page.waitForTimeout(500);
  await page.locator('.part.sidebar').screenshot({ path: join(out, 'ranks.png') });
  // A click on the group focuses it in the Call Stack: its stack, load then main, is shown.
  await crashed.click();
  // The keyboard is in the webview now: the activity bar, not the palette, opens Run and Debug.
  await showContainer('Run and Debug');
  const focused = callStack().locator('.monaco-list-row.selected, .monaco-list-row.focused');
  await waitFor('the crashed group\'s frame focused in the Call Stack', 30000, async () =>
    /load/.test(await focused.first().innerText({ timeout: 1000 }).catch(() => '')))
    .catch(async (e) => { throw new Error(`${e.message}; the Call Stack view shows:\n${await callStack().innerText()}`); });
  await focusWorkbench();
  await page.keyboard.press('Shift+F5'); // Debug: Stop
  await waitFor('the crash session ending', 60000,
    async () => (await callStack().locator('.monaco-list-row').count()) === 0);
});

// --- Parallel Stacks of a deadlock sdm launched: the cycle ------------------------------------

await check('drawsTheDeadlockOfALaunchedJobWithItsCycle', async () => {
  await startConfiguration(deadlockConfiguration);
  // Past MPI_Init on every rank, then a moment for 0 and 1 to block: pause them all.
  await waitFor('every rank started', 180000, async () => (await repl().then((t) => t.match(/rank \d of 4 started/g) || [])).length >= 4)
    .catch(async (e) => { throw new Error(`${e.message}; the Debug Console:\n${await repl()}`); });
  await page.waitForTimeout(2000);
  await focusWorkbench();
  await page.keyboard.press('F6'); // Debug: Pause
  await showContainer('SDM Fabric');
  const ranks = await webviewWith('.group[data-state="stopped"]', 'the paused ranks in the Ranks view', 60000);
  await waitFor('ranks 0-3 stopped', 60000, async () => (await ranks.locator('.group[data-state="running"]').count()) === 0);
  await showParallelStacks();
  const picture = await panelWith('svg.sdm-stacks g.node.deadlocked', 'the Parallel Stacks picture with the deadlock');
  const summary = await picture.locator('#summary').textContent();
  if (!/deadlock: 0 -> 1 -> 0/.test(summary)) throw new Error(`the picture does not name the cycle: ${summary}`);
  // The two groups outlined: [0,1] waiting for each other, [2,3] in the barrier; red arrows.
  const boxes = await picture.locator('svg.sdm-stacks g.node.deadlocked').allTextContents();
  if (!boxes.some((b) => b.includes('[0,1]')) || !boxes.some((b) => b.includes('[2,3]'))) {
    throw new Error(`the deadlocked boxes are not [0,1] and [2,3]: ${JSON.stringify(boxes)}`);
  }
  if ((await picture.locator('svg.sdm-stacks path.waitedge').count()) < 1) throw new Error('no wait arrow');
  await page.mouse.move(0, 0);
  await page.waitForTimeout(1000);
  await page.screenshot({ path: join(out, 'parallel-stacks.png') });
  await focusWorkbench();
  await page.keyboard.press('Shift+F5'); // Debug: Stop
  await waitFor('the deadlock session ending', 60000,
    async () => (await callStack().locator('.monaco-list-row').count()) === 0);
}, mpiSkip);

// --- the sdm views: a Slurm job on the test bed's nodes, attached from the Jobs view -----------

// What the checks of a job under srun need, or why they are skipped.
function noSrunJob() {
  if (!nodesSlurm) return 'no Slurm job is tried: the test bed\'s nodes are not up (SDM_NODES_SLURM_CONF; dev/test starts them)';
  if (mpiSkip) return mpiSkip;
  const r = spawnSync('sinfo', ['-h'], { env: marked, timeout: 30000, encoding: 'utf8' });
  return r.status === 0 ? '' : `no Slurm job is tried: sinfo fails (${r.error?.message || r.stderr})`;
}
let srunSkip = '';
const jobName = `sdm-browser-${markValue.slice(-8)}`;
let jobId = '';
let srunJob;
// Ends the job whatever happens: scancel by its name (its ranks run under the nodes' slurmd).
function cancelJob() {
  spawnSync('scancel', ['--name', jobName], { env: marked, timeout: 30000 });
  try { srunJob?.kill('SIGKILL'); } catch { /* already gone */ }
}
process.on('exit', cancelJob);
const jobsView = () => page.locator('.pane', { has: page.locator('.pane-header', { hasText: /^jobs/i }) }).first();
const jobRow = (text) => jobsView().locator('.monaco-list-row', { hasText: text });

srunSkip = noSrunJob();
if (srunSkip) log(srunSkip);
await check('listsARunningSrunJobInTheJobsView', async () => {
  // mpi_deadlock, built with the MPI job (buildsTheMpiJob). Two ranks on each of two nodes: 0 and 1 wait for each other, 2 and 3 in a barrier for them.
  srunJob = spawn('srun', ['-N', '2', '--ntasks-per-node=2', `--job-name=${jobName}`, join(ws, 'mpi_deadlock')],
    { env: marked, stdio: 'ignore', detached: true });
  jobId = await waitFor('the srun job running', 60000, () => {
    const q = spawnSync('squeue', ['-h', '-n', jobName, '-t', 'RUNNING', '-o', '%i'], { env: marked, encoding: 'utf8', timeout: 30000 });
    return q.stdout?.trim();
  });
  await showContainer('SDM Fabric');
  await jobRow(`step ${jobId}.0`).first().waitFor({ timeout: 60000 }).catch(async (e) => {
    throw new Error(`the Jobs view does not show step ${jobId}.0: ${e.message.split('\n')[0]}; it shows:\n${await jobsView().innerText()}`);
  });
  await jobRow(`${jobId} ${jobName}`).first().waitFor({ timeout: 10000 });
  await page.mouse.move(0, 0);
  await page.waitForTimeout(500);
  await page.locator('.part.sidebar').screenshot({ path: join(out, 'jobs.png') });
}, srunSkip);

// An inline action of a row of the Jobs view, by its label.
async function jobAction(text, label) {
  const row = jobRow(text).first();
  await row.click();
  await row.hover();
  await row.locator(`.action-label[aria-label="${label}"]`).click({ timeout: 10000 });
}

await check('attachesFromTheJobsViewAndShowsItsStacksAsAPicture', async () => {
  await jobAction(`step ${jobId}.0`, 'Attach');
  // Every rank stopped where it waited: the Ranks view has all four stopped.
  const ranks = await webviewWith('.group[data-state="stopped"]', 'the attached ranks in the Ranks view', 180000);
  await waitFor('ranks 0-3 stopped in the Ranks view', 60000, async () =>
    (await ranks.locator('.group[data-state="stopped"]').evaluateAll((gs) => gs.map((g) => g.dataset.ranks)))
      .flatMap((set) => set.split(',')).flatMap((r) => (r.includes('-') ? [0, 1, 2, 3].map(String) : [r])).sort().join(',') === '0,1,2,3');
  // Its stacks as a picture: the two groups, [0,1] in exchange and [2,3] in wait_for_all. (No
  // deadlock is named: a job sdm did not launch keeps no records of its MPI waits.) The editors
  // are closed first, the deadlock's picture with them, so that the page found is this one's.
  await focusWorkbench();
  await page.keyboard.press('Control+K');
  await page.keyboard.press('W'); // View: Close All Editors
  await page.locator('.tab', { hasText: 'Parallel Stacks' }).first().waitFor({ state: 'detached', timeout: 10000 });
  await showParallelStacks();
  await page.locator('.tab', { hasText: `Parallel Stacks: sdm: Slurm ${jobId}` }).first().waitFor({ timeout: 120000 });
  const picture = await panelWith('svg.sdm-stacks g.node', 'the Parallel Stacks picture of the attached job');
  const boxes = await picture.locator('svg.sdm-stacks g.node').allTextContents();
  for (const [fn, ranks] of [['exchange', '[0,1]'], ['wait_for_all', '[2,3]']]) {
    if (!boxes.some((b) => b.includes(fn) && b.includes(ranks))) {
      throw new Error(`no box ${fn} ${ranks} in the picture: ${JSON.stringify(boxes)}`);
    }
  }
  await page.mouse.move(0, 0);
  await page.waitForTimeout(1000);
  await page.screenshot({ path: join(out, 'attached-stacks.png') });
  // Detach: the job runs on.
  await focusWorkbench();
  await page.keyboard.press('Shift+F5'); // Debug: Disconnect, for an attached session
  await waitFor('the attached session ending', 60000,
    async () => (await callStack().locator('.monaco-list-row').count()) === 0);
}, srunSkip);

await check('samplesAndCancelsTheJobFromTheJobsView', async () => {
  await showContainer('SDM Fabric');
  await jobAction(`step ${jobId}.0`, 'Sample Stacks');
  const picture = await panelWith('svg.sdm-stacks g.node.stuck', 'the sampled picture, its boxes marked stuck');
  if ((await picture.locator('svg.sdm-stacks g.node.progressing').count()) > 0) {
    throw new Error('a box of the deadlocked job is marked progressing');
  }
  await showContainer('SDM Fabric');
  await jobAction(`${jobId} ${jobName}`, 'Cancel Job');
  await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Cancel the job' }).click({ timeout: 10000 });
  await waitFor('the job gone from squeue', 60000, () => {
    const q = spawnSync('squeue', ['-h', '-n', jobName, '-t', 'PENDING,RUNNING', '-o', '%i'], { env: marked, encoding: 'utf8', timeout: 30000 });
    return q.status === 0 && q.stdout.trim() === '';
  });
}, srunSkip);

// --- the end: every process of this run ended, the report written ----------------------------
clearTimeout(deadline);
await browser?.close().catch(() => {});
if (server?.pid) {
  try { process.kill(-server.pid, 'SIGTERM'); } catch { /* already gone */ }
}
// What code-server's group leaves once it has ended: the adapter, gdb and the ranks should end with
// it (the adapter ends its session when its client goes).
const left = await waitFor('every process of the run ending', 15000, () => leftovers().length === 0)
  .then(() => []).catch(() => leftovers());
killEverything();
if (left.length > 0 && !checks.some((c) => c.failure)) {
  const failure = `killed what this run left running: ${JSON.stringify(left)}`;
  checks.push({ name: 'leavesNoProcessBehind', time: 0, failure });
  log(`FAIL leavesNoProcessBehind: ${checks.at(-1).failure}`);
}
writeJunit('not finished');
const failed = checks.filter((c) => c.failure).length;
if (failed > 0) {
  log(`FAILED: ${failed} of ${checks.length} checks (${out} has the screenshots and code-server.log)`);
  process.exitCode = 1;
} else {
  const skipped = checks.filter((c) => c.skipped).length;
  const passed = skipped ? `${checks.length - skipped} of ${checks.length} checks, ${skipped} skipped` : `all ${checks.length} checks`;
  log(`OK: ${passed} (screenshots in ${out})`);
}

// The Jobs view: your Slurm jobs with their steps, and your mpirun, mpiexec and prterun jobs on this
// host, as `sdm jobs --json --watch` reports them while the view is visible. A step or a launcher
// job that can be attached to carries the actions attach, sample stacks and cancel.
const vscode = require('vscode');
const { WatchedTree, node } = require('./watchedTree');

const WATCH_SECONDS = 5;

const PHASE_ICONS = {
  pending: new vscode.ThemeIcon('watch'),
  running: new vscode.ThemeIcon('play-circle', new vscode.ThemeColor('testing.iconPassed')),
  suspended: new vscode.ThemeIcon('debug-pause'),
  completing: new vscode.ThemeIcon('loading~spin'),
  ended: new vscode.ThemeIcon('pass'),
};

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

function slurmJob(job) {
  const steps = (job.steps || []).map((s) => node(`step ${s.id}`, [s.name, s.state.toLowerCase(),
    s.nodes, plural(s.tasks, 'task')].filter(Boolean).join(' · '), {
    icon: new vscode.ThemeIcon('symbol-event'),
    context: s.attach ? 'sdmAttachable' : 'sdmStep',
    tooltip: s.attach ? `${s.attach}\n${s.stacks}` : undefined,
    data: { kind: 'step', id: s.id, attach: s.attach, stacks: s.stacks },
  }));
  const state = job.state.toLowerCase() + (job.reason && job.reason !== 'None' ? ` (${job.reason})` : '');
  return node(`${job.id} ${job.name}`, [state, job.partition, job.nodes || plural(job.nodeCount, 'node'),
    plural(job.tasks, 'task')].filter(Boolean).join(' · '), {
    icon: PHASE_ICONS[job.phase] || new vscode.ThemeIcon('circle-outline'),
    context: job.phase === 'ended' ? 'sdmSlurmJobEnded' : 'sdmSlurmJob',
    children: steps,
    data: { kind: 'slurm', id: job.id },
  });
}

function launcherJob(job) {
  // sdm's own launcher (of a session's ranks or agents) is the session's: listed, without actions.
  if (job.startedBySdm) {
    return node(`${job.launcher} ${job.pid}`, 'started by sdm, for a session of its own', {
      icon: new vscode.ThemeIcon('debug'), tooltip: job.command, context: 'sdmOwnLauncher',
    });
  }
  const ranks = (job.ranks || []).map((r) => node(`rank ${r.rank}`, `pid ${r.pid}`
    + (r.tracerPid ? `, being debugged by pid ${r.tracerPid}` : ''), { icon: new vscode.ThemeIcon('symbol-variable') }));
  return node(`${job.launcher} ${job.pid}`, plural((job.ranks || []).length, 'rank') + ' here', {
    icon: new vscode.ThemeIcon('run-all'),
    context: job.attach ? 'sdmAttachableLauncher' : 'sdmLauncher',
    tooltip: job.command,
    children: ranks,
    data: { kind: 'launcher', pid: job.pid, attach: job.attach, stacks: job.stacks,
      pids: (job.ranks || []).map((r) => r.pid) },
  });
}

/** The roots of a document of `sdm jobs --json`. */
function jobs(doc) {
  const roots = [];
  if (doc.slurm?.error) {
    roots.push(node('Slurm', doc.slurm.error, { icon: new vscode.ThemeIcon('warning') }));
  } else {
    roots.push(...(doc.slurm?.jobs || []).map(slurmJob));
  }
  roots.push(...(doc.local || []).map(launcherJob));
  return roots.length > 0 ? roots
    : [node(`No jobs of ${doc.user}`, 'on Slurm or under mpirun here', { icon: new vscode.ThemeIcon('info') })];
}

class JobsTree extends WatchedTree {
  constructor(context) {
    super(context, ['jobs'], WATCH_SECONDS, 'Reading your jobs...', jobs);
  }
}

/** An attach configuration for a step or a launcher job of the view. */
function attachConfiguration(data) {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const base = { type: 'sdm', request: 'attach', ...(folder ? { cwd: folder } : {}) };
  if (data.kind === 'step') return { ...base, name: `sdm: Slurm ${data.id}`, slurm: data.id };
  return { ...base, name: `sdm: ${data.pid}`, targets: [data.pids.join(',')] };
}

/** The arguments of `sdm stacks` for a step or a launcher job, from the line sdm jobs gave. */
function stacksArguments(data) {
  const words = (data.stacks || '').split(/\s+/).filter(Boolean);
  if (words[0] !== 'sdm' || words[1] !== 'stacks') throw new Error(`no stacks line for ${data.id || data.pid}`);
  return words.slice(1);
}

module.exports = { JobsTree, attachConfiguration, stacksArguments };

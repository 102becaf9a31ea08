// sdm dap driven by a real DAP client, @vscode/debugadapter-testsupport's DebugClient, as VS Code
// would drive it: the adapter is `./sdm dap` of this checkout, its sessions run real gdb.
// Run by `npm test` here (dev/test runs it); needs gdb, gcc and a built cli/target/sdm.jar.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DebugClient } from '@vscode/debugadapter-testsupport';

const top = resolve(import.meta.dirname, '..', '..');
const examples = join(top, 'examples');
let built;
const program = (name) => join(built, name);

before(() => {
  built = mkdtempSync(join(tmpdir(), 'sdm-dap-test-'));
  // Compiled from the checkout's top, as the other tests do: frames name examples/NAME.c.
  for (const name of ['ranks', 'segv']) {
    execFileSync('gcc', ['-g', '-O0', '-o', program(name), `examples/${name}.c`], { cwd: top });
  }
});

after(() => rmSync(built, { recursive: true, force: true }));

/** A client of a fresh `sdm dap`, whose requests may wait as long as gdb does. */
async function adapter(t) {
  const dc = new DebugClient(join(top, 'sdm'), 'dap', 'sdm', { cwd: top }, true);
  dc.defaultTimeout = 60_000;
  await dc.start();
  t.after(() => dc.stop());
  return dc;
}

test('a breakpoint hit by all four ranks is one thread, whose stack is theirs', async (t) => {
  const dc = await adapter(t);
  const source = join(examples, 'ranks.c');
  await dc.hitBreakpoint(
    { program: program('ranks'), ranks: 4, cwd: top },
    { path: source, line: 6 },
  );
  const threads = (await dc.threadsRequest()).body.threads;
  assert.equal(threads.length, 1, JSON.stringify(threads));
  assert.match(threads[0].name, /^\[0-3\] compute at examples\/ranks\.c:6$/);
  const frames = (await dc.stackTraceRequest({ threadId: threads[0].id })).body.stackFrames;
  assert.deepEqual(
    frames.map((f) => `${f.name}:${f.line}`),
    ['compute:6', 'main:15'],
  );
  assert.equal(frames[0].source.path, source);
});

test('a value that differs on one rank shows per class of ranks', async (t) => {
  const dc = await adapter(t);
  const source = join(examples, 'ranks.c');
  await dc.hitBreakpoint(
    { program: program('ranks'), ranks: 4, cwd: top },
    { path: source, line: 7 },
  );
  const [thread] = (await dc.threadsRequest()).body.threads;
  const [frame] = (await dc.stackTraceRequest({ threadId: thread.id })).body.stackFrames;
  const hover = await dc.evaluateRequest({ expression: 'value', frameId: frame.id, context: 'hover' });
  assert.equal(hover.body.result, '42 on [0,1,3], -1 on [2]');
  const [scope] = (await dc.scopesRequest({ frameId: frame.id })).body.scopes;
  const locals = (await dc.variablesRequest({ variablesReference: scope.variablesReference })).body
    .variables;
  assert.deepEqual(
    locals.map((v) => `${v.name} = ${v.value}`),
    ['value = 42 on [0,1,3], -1 on [2]'],
  );
});

/** The threads once {@code ok} holds of their names, asking again for up to 30 s. */
async function threadsOnce(dc, ok) {
  let names = [];
  for (let i = 0; i < 300; i++) {
    const threads = (await dc.threadsRequest()).body.threads;
    names = threads.map((t) => t.name);
    if (ok(names)) {
      return threads;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`the threads never were as expected: ${JSON.stringify(names)}`);
}

test('one group steps while the other stays where it stopped', async (t) => {
  const dc = await adapter(t);
  const source = join(examples, 'ranks.c');
  const stops = [];
  dc.on('stopped', (e) => stops.push(e.body));
  await Promise.all([
    dc.waitForEvent('initialized').then(async () => {
      await dc.setBreakpointsRequest({
        source: { path: source },
        breakpoints: [{ line: 6, condition: 'rank == 2' }, { line: 16 }],
      });
      return dc.configurationDoneRequest();
    }),
    dc.launch({ program: program('ranks'), ranks: 4, cwd: top }),
  ]);
  let threads = await threadsOnce(
    dc,
    (n) => n.includes('[2] compute at examples/ranks.c:6') && n.includes('[0,1,3] main at examples/ranks.c:16'),
  );
  const two = threads.find((t) => t.name.startsWith('[2]'));
  const before = stops.length;
  await dc.nextRequest({ threadId: two.id, singleThread: true });
  threads = await threadsOnce(
    dc,
    (n) => n.includes('[2] compute at examples/ranks.c:7') && n.includes('[0,1,3] main at examples/ranks.c:16'),
  );
  assert.ok(stops.slice(before).some((s) => s.reason === 'step'), JSON.stringify(stops));
});

test('a crash on one rank stops it, and the others ending does not end the session', async (t) => {
  const dc = await adapter(t);
  let terminated = false;
  dc.on('terminated', () => (terminated = true));
  const crashed = dc.waitForEvent('stopped');
  await Promise.all([
    dc.configurationSequence(),
    dc.launch({ program: program('segv'), ranks: 4, cwd: top }),
  ]);
  const stop = (await crashed).body;
  assert.equal(stop.reason, 'exception');
  assert.equal(stop.description, 'SIGSEGV on [1]');
  const threads = await threadsOnce(
    dc,
    (n) => n.includes('[0,2,3] exited, exit code 0') && n.includes('[1] load at examples/segv.c:5'),
  );
  const one = threads.find((th) => th.name.startsWith('[1]'));
  const frames = (await dc.stackTraceRequest({ threadId: one.id })).body.stackFrames;
  assert.deepEqual(frames.map((f) => `${f.name}:${f.line}`), ['load:5', 'main:12']);
  assert.equal(terminated, false, 'three ranks ended, one lives: the session goes on');
  // Let the crashed rank go: it dies of its signal, and with the last rank the session ends.
  const end = dc.waitForEvent('terminated');
  await dc.continueRequest({ threadId: one.id, singleThread: true });
  await end;
});

test('the Debug Console takes the console language and shows its merged replies', async (t) => {
  const dc = await adapter(t);
  let output = '';
  dc.on('output', (e) => (output += e.body.output));
  await dc.hitBreakpoint(
    { program: program('ranks'), ranks: 4, cwd: top },
    { path: join(examples, 'ranks.c'), line: 7 },
  );
  await dc.evaluateRequest({ expression: '[2] print value', context: 'repl' });
  await dc.evaluateRequest({ expression: 'procs', context: 'repl' });
  assert.match(output, /^\[2\] value = -1$/m);
  assert.match(output, /^stopped\s+compute at examples\/ranks\.c:7\s+\[0-3\]$/m);
});

test('a launch that cannot start says why, and a wrong attribute says which', async (t) => {
  const dc = await adapter(t);
  await assert.rejects(
    dc.launch({ program: join(built, 'no-such-program'), ranks: 2 }),
    /sdm could not start the session: .*no-such-program/,
  );
  const again = await adapter(t);
  await assert.rejects(
    again.launch({ program: program('ranks'), launcher: 'qsub' }),
    /"launcher" is qsub: use one of none, mpirun, srun/,
  );
});

// A stuck end-to-end test fails the run instead of hanging it: ava run on a fixture whose test waits
// for ever on a page (Chromium launched, a server listening) reports the timeout, exits non-zero
// within a bound, and leaves no process behind (neither the test process nor Chromium).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';

const root = fileURLToPath(new URL('../../', import.meta.url));
const avaCli = join(root, 'node_modules/ava/entrypoints/cli.mjs');
const fixture = 'test/e2e/stuck/stuck.fixture.ts';
/** The run's own timeout is 10 s of no progress; it ends well within this, or is killed. */
const boundMs = 60_000;

/** Processes whose environment holds `mark`: whatever the run started (the test process, Chromium's). */
async function marked(mark: string): Promise<number[]> {
  const found: number[] = [];
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const environ = await readFile(`/proc/${pid}/environ`, 'latin1').catch(() => '');
    if (environ.split('\0').includes(`STUCK_MARK=${mark}`)) found.push(Number(pid));
  }
  return found;
}

test('a stuck end-to-end test times out, fails the run, and leaves no process behind', async (t) => {
  // Longer than the run may take (it is killed after boundMs), so a run that hangs fails here and
  // the teardown still ends what it left.
  t.timeout(boundMs + 30_000);
  const dir = await mkdtemp(join(tmpdir(), 'stuck-e2e-'));
  const ready = join(dir, 'ready');
  const mark = randomUUID();
  t.teardown(async () => {
    // A run that did hang must not outlive the test either.
    for (const pid of await marked(mark)) process.kill(pid, 'SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });
  const started = Date.now();
  const run = await new Promise<{ code: number | string | null | undefined; output: string }>((resolve) => {
    execFile(
      process.execPath,
      [avaCli, '--timeout=10s', fixture],
      { cwd: root, env: { ...process.env, STUCK_READY_FILE: ready, STUCK_MARK: mark }, timeout: boundMs, killSignal: 'SIGKILL' },
      (err, stdout, stderr) => resolve({ code: err ? (err.killed ? null : err.code) : 0, output: `${stdout}${stderr}` }),
    );
  });
  const seconds = (Date.now() - started) / 1000;
  t.true(existsSync(ready), `the stuck test was running, Chromium launched, when the timeout came:\n${run.output}`);
  t.regex(run.output, /Timed out while running tests/);
  t.not(run.code, null, `ava ended by itself, not killed after ${boundMs / 1000} s:\n${run.output}`);
  t.not(run.code, 0, 'the run failed');
  t.true(seconds < boundMs / 1000, `the run ended ${seconds.toFixed(1)} s after it started`);
  // Chromium notices its pipe closed and exits; give it a moment.
  let left = await marked(mark);
  for (let waited = 0; left.length > 0 && waited < 10_000; waited += 200) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    left = await marked(mark);
  }
  t.deepEqual(left, [], 'no process of the run is left');
});

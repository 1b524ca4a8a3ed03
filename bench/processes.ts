// Child processes of the bench (the service, the bare Koa baseline): started with their own
// event loop, awaited until they answer HTTP, and always stopped — also when the bench fails
// or is interrupted.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { serviceNodeFlags } from './v8-flags.ts';

export interface Child {
  name: string;
  port: number;
  url: string;
  process: ChildProcess;
  exited: Promise<number | null>;
}

const running = new Set<Child>();

/** A port that was free a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts `node [...nodeFlags] --import tsx <script> ...args` from the repository root with extra environment. */
export async function startChild(
  name: string,
  script: string,
  args: string[],
  env: Record<string, string>,
  readyPath: string,
  nodeFlags: string[] = [],
): Promise<Child> {
  const port = await freePort();
  // BENCH_CPU_PROF=<folder>: each child writes a V8 CPU profile there when it exits (open it in
  // Chrome DevTools or speedscope), for the before/after profiles of a hot path.
  // One folder per child: the loader thread of tsx writes a profile of its own beside the main one.
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}/${name.replace(/\W+/g, '-')}`]
    : [];
  // BENCH_NODE_FLAGS="--trace-gc ...": Node and V8 flags for every child (NODE_OPTIONS refuses
  // some, --trace-gc); they come after the child's own, so they win (--max-semi-space-size=16).
  const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...profile, ...nodeFlags, ...flags, '--import', 'tsx', script, ...args], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const entry: Child = { name, port, url: `http://127.0.0.1:${port}`, process: child, exited };
  running.add(entry);
  void exited.then(() => running.delete(entry));
  await waitUntilAnswering(entry, readyPath);
  return entry;
}

/**
 * The service (`src/main.ts --role web`) with the V8 flags bin/service gives it (from source, here):
 * measured without them it is not the service users run.
 */
export const startService = (name: string, env: Record<string, string>): Promise<Child> =>
  startChild(name, 'src/main.ts', ['--role', 'web'], env, '/api/health', serviceNodeFlags());

async function waitUntilAnswering(child: Child, path: string, timeoutMs = 60_000): Promise<void> {
  let gone = false;
  void child.exited.then(() => (gone = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gone) throw new Error(`${child.name} exited with code ${child.process.exitCode} before it answered`);
    try {
      const res = await fetch(`${child.url}${path}`);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${child.name} did not answer ${path} within ${timeoutMs / 1000} s`);
}

/** SIGTERM to every child still running, SIGKILL to those that have not exited after a grace period. */
export async function stopChildren(graceMs = 5000): Promise<void> {
  const children = [...running];
  for (const child of children) child.process.kill('SIGTERM');
  await Promise.all(
    children.map(async (child) => {
      const timer = sleep(graceMs, 'timeout' as const, { ref: false });
      if ((await Promise.race([child.exited, timer])) === 'timeout') child.process.kill('SIGKILL');
      await child.exited;
    }),
  );
}

/** Last resort when the bench process itself exits: nothing is left running behind it. */
export function killChildrenNow(): void {
  for (const child of running) child.process.kill('SIGKILL');
}

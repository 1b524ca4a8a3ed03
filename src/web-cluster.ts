// WEB_CONCURRENCY > 1: the starting process becomes the primary of node:cluster. It forks the web
// processes (they share the port: the primary accepts and hands connections round), forks a new
// one when one dies (waiting longer after each death in quick succession), replaces them one by
// one on SIGHUP (a rolling restart: a new one listens before an old one drains) and, on SIGTERM,
// lets each drain and waits for them all.
import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import type { Log } from './log.ts';

/** A web process that lived this long before dying starts the backoff again from its shortest wait. */
const healthyAfterMs = 30_000;
const firstBackoffMs = 250;
const maxBackoffMs = 15_000;
/** A web process that has not exited this long after its SIGTERM is killed. */
const exitGraceMs = 12_000;

/** Whether node:cluster can fork here (Node, and Deno 2 from its 2.x releases that implement it). */
export function clusterAvailable(): boolean {
  return typeof cluster.fork === 'function';
}

export interface WebCluster {
  /** Replaces every web process, one at a time. */
  roll: () => Promise<void>;
  /** SIGTERM to every web process; resolves once all have exited. */
  stop: () => Promise<void>;
}

const listening = (worker: Worker) =>
  new Promise<boolean>((resolve) => {
    worker.once('listening', () => resolve(true));
    worker.once('exit', () => resolve(false));
  });

const exited = (worker: Worker) =>
  new Promise<void>((resolve) => {
    if (worker.isDead()) return resolve();
    const killer = setTimeout(() => worker.process.kill('SIGKILL'), exitGraceMs);
    worker.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
  });

/** Forks `count` web processes (running this same entry point) and keeps that many alive. */
export async function startWebCluster(count: number, log: Log): Promise<WebCluster> {
  let stopping = false;
  let quickDeaths = 0;
  const startedAt = new Map<Worker, number>();
  // Web processes being replaced on purpose (a roll): their exit forks nothing.
  const retiring = new Set<Worker>();

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker, Date.now());
    worker.once('exit', (code, signal) => {
      const lived = Date.now() - (startedAt.get(worker) ?? 0);
      startedAt.delete(worker);
      if (stopping || retiring.delete(worker)) return;
      quickDeaths = lived >= healthyAfterMs ? 0 : quickDeaths + 1;
      const waitMs = Math.min(firstBackoffMs * 2 ** Math.max(0, quickDeaths - 1), maxBackoffMs);
      log.error({ pid: worker.process.pid, code, signal, restartInMs: waitMs }, 'web process died; starting another');
      setTimeout(() => {
        if (!stopping) fork();
      }, waitMs).unref();
    });
    return worker;
  };

  const first = Array.from({ length: count }, fork);
  const started = await Promise.all(first.map(listening));
  if (!started.every(Boolean)) throw new Error('a web process exited before it listened: see its log lines above');
  log.info({ processes: count }, 'web processes listening');

  const roll = async () => {
    for (const old of [...startedAt.keys()]) {
      if (stopping) return;
      const replacement = fork();
      if (!(await listening(replacement))) {
        log.error('a new web process exited before it listened: the rolling restart stops, the old ones keep serving');
        return;
      }
      retiring.add(old);
      old.process.kill('SIGTERM');
      await exited(old);
    }
    log.info({ processes: startedAt.size }, 'rolling restart done');
  };

  const stop = async () => {
    stopping = true;
    const all = [...startedAt.keys()];
    for (const worker of all) worker.process.kill('SIGTERM');
    await Promise.all(all.map(exited));
  };
  return { roll, stop };
}

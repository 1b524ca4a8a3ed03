// A worker run as a process of its own (--role worker) serves no HTTP: it leaves its figures (its
// jobs, its webhook deliveries, its stores' clients) in Redis every 10 s, one field per worker
// process, and GET /metrics adds those still fresh to the web processes' own. A worker that
// stopped removes its field; one that died is dropped once its figures are 30 s old.
import { hostname } from 'node:os';
import process from 'node:process';
import type { Core } from '../core.ts';
import { registry } from '../meters.ts';
import type { Figures } from './cluster.ts';

const key = 'metrics:workers';
export const publishEveryMs = 10_000;
const freshForMs = 30_000;
const field = `${hostname()}:${process.pid}`;

/** Leaves this process's figures in Redis now and every 10 s; returns what stops it (and removes them). */
export function publishWorkerFigures(deps: Pick<Core, 'redis' | 'log' | 'clock'>): () => Promise<void> {
  const publish = async () => {
    const figures = (await registry.getMetricsAsJSON()) as Figures;
    await deps.redis.hset(key, field, JSON.stringify({ at: deps.clock.now(), figures }));
    await deps.redis.pexpire(key, freshForMs * 2);
  };
  const failed = (err: unknown) =>
    deps.log.warn({ err }, "worker figures not left in Redis: /metrics misses this worker's until the next try");
  void publish().catch(failed);
  const timer = setInterval(() => void publish().catch(failed), publishEveryMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await deps.redis.hdel(key, field).catch(failed);
  };
}

/** The figures of the worker processes that left them in the last 30 s; older ones are removed. */
export async function workerFigures(deps: Pick<Core, 'redis' | 'clock'>): Promise<Figures[]> {
  const entries = await deps.redis.hgetall(key);
  const fresh: Figures[] = [];
  const stale: string[] = [];
  for (const [name, text] of Object.entries(entries)) {
    const left = JSON.parse(text) as { at: number; figures: Figures };
    if (deps.clock.now() - left.at <= freshForMs) fresh.push(left.figures);
    else stale.push(name);
  }
  if (stale.length > 0) await deps.redis.hdel(key, ...stale);
  return fresh;
}

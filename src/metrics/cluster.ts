// The web processes' figures combined under node:cluster: the web process that is scraped asks
// the primary, the primary asks every web process for its figures (prom-client's JSON form) and
// answers with them all, its own included (it runs the jobs when the roles share a process).
// A web process that does not answer in time is left out of that scrape, never holds it.
import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import { registry } from '../meters.ts';

export type Figures = MetricObjectWithValues<MetricValue<string>>[];

const answerWithinMs = 2000;

type Message =
  | { type: 'metrics:gather'; id: number }
  | { type: 'metrics:gathered'; id: number; figures: Figures[] }
  | { type: 'metrics:report'; id: number }
  | { type: 'metrics:reported'; id: number; figures: Figures };

const isMessage = (m: unknown): m is Message =>
  typeof m === 'object' &&
  m !== null &&
  typeof (m as { type?: unknown }).type === 'string' &&
  (m as { type: string }).type.startsWith('metrics:');

let nextId = 0;
const waiting = new Map<number, (figures: Figures[]) => void>();

/** In a web process: every process's figures, through the primary (only this one's if it does not answer in time). */
export async function clusterFigures(): Promise<Figures[]> {
  const own = (await registry.getMetricsAsJSON()) as Figures;
  const id = nextId++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      resolve([own]);
    }, answerWithinMs + 500);
    waiting.set(id, (figures) => {
      clearTimeout(timer);
      resolve(figures);
    });
    process.send?.({ type: 'metrics:gather', id } satisfies Message);
  });
}

/** In a web process the primary forked: answers the primary's requests for this process's figures. */
export function answerPrimary(): void {
  process.on('message', (message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === 'metrics:gathered') waiting.get(message.id)?.(message.figures);
    if (message.type === 'metrics:report')
      void registry
        .getMetricsAsJSON()
        .then((figures) => process.send?.({ type: 'metrics:reported', id: message.id, figures } satisfies Message));
  });
}

/** In the primary: gathers every web process's figures for the one that asks. */
export function gatherForWebProcesses(): void {
  const reports = new Map<number, (figures: Figures) => void>();
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === 'metrics:reported') reports.get(message.id)?.(message.figures);
    if (message.type === 'metrics:gather')
      void gatherAll(reports).then((figures) => {
        if (worker.isConnected()) worker.send({ type: 'metrics:gathered', id: message.id, figures } satisfies Message);
      });
  });
}

async function gatherAll(reports: Map<number, (figures: Figures) => void>): Promise<Figures[]> {
  const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w.isConnected());
  const asked = workers.map(
    (worker) =>
      new Promise<Figures | undefined>((resolve) => {
        const id = nextId++;
        const timer = setTimeout(() => {
          reports.delete(id);
          resolve(undefined);
        }, answerWithinMs);
        reports.set(id, (figures) => {
          clearTimeout(timer);
          reports.delete(id);
          resolve(figures);
        });
        worker.send({ type: 'metrics:report', id } satisfies Message);
      }),
  );
  const own = (await registry.getMetricsAsJSON()) as Figures;
  return [own, ...(await Promise.all(asked)).filter((f): f is Figures => f !== undefined)];
}

// The worker: schedules the background jobs (node-schedule). Job bodies live in src/ and are
// plain, idempotent functions; each run takes a Redis lock so replicas never run one twice.
import schedule from 'node-schedule';
import type { Deps } from '../src/deps.ts';
import { withJobLock } from '../src/store/job-lock.ts';
import { derivedStateMissing, rebuildDerivedState } from '../src/derived/rebuild.ts';
import { pruneIngestEventIds } from '../src/derived/prune.ts';

interface Job {
  name: string;
  rule: string;
  lockMs: number;
  run: (deps: Deps) => Promise<unknown>;
}

export const jobs: Job[] = [
  {
    // Redis came back empty (restart, flush): rebuild what is derived from PostgreSQL.
    name: 'rebuild-derived-state',
    rule: '*/10 * * * * *',
    lockMs: 10 * 60_000,
    run: async (deps) => ((await derivedStateMissing(deps)) ? rebuildDerivedState(deps) : undefined),
  },
  { name: 'prune-ingest-event-ids', rule: '17 * * * *', lockMs: 10 * 60_000, run: pruneIngestEventIds },
];

export async function runJob(deps: Deps, job: Job): Promise<void> {
  try {
    const result = await withJobLock(deps.redis, job.name, job.lockMs, () => job.run(deps));
    if (result !== undefined) deps.log.info({ job: job.name, result }, 'job done');
  } catch (err) {
    deps.log.error({ job: job.name, err }, 'job failed; it runs again at its next time');
  }
}

/** Starts every job (and runs each once now); returns a function that stops them. */
export function startWorker(deps: Deps): () => Promise<void> {
  const scheduled = jobs.map((job) => schedule.scheduleJob(job.name, job.rule, () => void runJob(deps, job)));
  for (const job of jobs) void runJob(deps, job);
  return async () => {
    for (const s of scheduled) s.cancel();
    await schedule.gracefulShutdown();
  };
}

// The worker: schedules the background jobs (node-schedule). Job bodies live in their
// capabilities' folders and are plain, idempotent functions; each run takes a Redis lock so
// replicas never run one twice.
import { setTimeout as delay } from 'node:timers/promises';
import schedule from 'node-schedule';
import type { Deps } from '../src/deps.ts';
import { withJobLock } from '../src/store/job-lock.ts';
import { reconcileDerivedState } from '../src/derived/reconcile.ts';
import { keepEventClaims } from '../src/ingest/event-claims.ts';
import { expireFileEntries, syncRequestedFiles } from '../src/game-files/file-jobs.ts';
import { expireTrustEntries } from '../src/trust/expiry.ts';
import { pruneMetricsSamples } from '../src/servers/metrics.ts';
import { expireServerCommands } from '../src/commands/commands.ts';
import { queueScheduledRestarts } from '../src/commands/restart-schedules.ts';
import { deliverWebhooks } from '../src/webhooks/delivery.ts';

interface Job {
  name: string;
  rule: string;
  lockMs: number;
  /** false: no job-wide lock (the job locks finer itself, as the file syncs lock each server). */
  lock?: boolean;
  run: (deps: Deps) => Promise<unknown>;
  /** Retries within the same run after a failure (default 0), waiting retryMs between tries. */
  retries?: number;
  retryMs?: number;
}

export const jobs: Job[] = [
  {
    // Redis state lost or lagging behind PostgreSQL (a restart, a flush, a write that failed
    // after commit): rebuild those servers. Logged only when it rebuilt something.
    name: 'reconcile-derived-state',
    rule: '*/5 * * * * *',
    lockMs: 10 * 60_000,
    run: async (deps) => {
      const result = await reconcileDerivedState(deps);
      return result.rebuilt.length > 0 ? result : undefined;
    },
  },
  // Event claims (src/ingest/event-claims.ts): the coming days' partitions added, the expired dropped.
  { name: 'keep-event-claims', rule: '17 * * * *', lockMs: 10 * 60_000, run: keepEventClaims },
  // Status samples of the dashboard's chart, past their 30 days.
  { name: 'prune-metrics-samples', rule: '23 * * * *', lockMs: 10 * 60_000, run: pruneMetricsSamples },
  // Game files (src/game-files/file-jobs.ts): requested syncs, each server under its own lock (so
  // runs overlap, and one server's slow file delays no other); every minute the expiry of bans and
  // queue entries, whose lock frees the job soon after a worker dies holding it.
  { name: 'game-files', rule: '* * * * * *', lockMs: 0, lock: false, retries: 2, retryMs: 500, run: syncRequestedFiles },
  { name: 'game-files-expiry', rule: '0 * * * * *', lockMs: 3 * 60_000, retries: 2, retryMs: 1000, run: expireFileEntries },
  // Agent commands (src/commands/): untaken or unanswered ones expired, scheduled restarts queued
  // from their warning time on.
  { name: 'expire-server-commands', rule: '*/5 * * * * *', lockMs: 60_000, run: expireServerCommands },
  { name: 'queue-scheduled-restarts', rule: '*/5 * * * * *', lockMs: 60_000, run: queueScheduledRestarts },
  { name: 'expire-trust-entries', rule: '*/30 * * * * *', lockMs: 5 * 60_000, run: expireTrustEntries },
  // Webhooks (src/webhooks/delivery.ts): every second, the endpoints with an event due, each under a
  // lock of its own (so runs overlap, and a slow endpoint delays no other).
  { name: 'deliver-webhooks', rule: '* * * * * *', lockMs: 0, lock: false, run: deliverWebhooks },
];

export async function runJob(deps: Deps, job: Job): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const result = job.lock === false ? await job.run(deps) : await withJobLock(deps.redis, job.name, job.lockMs, () => job.run(deps));
      if (result !== undefined) deps.log.info({ job: job.name, result }, 'job done');
      return;
    } catch (err) {
      const retrying = attempt < (job.retries ?? 0);
      deps.log.error({ job: job.name, err, attempt }, retrying ? 'job failed; retrying' : 'job failed; it runs again at its next time');
      if (!retrying) return;
      await delay(job.retryMs ?? 1000);
    }
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

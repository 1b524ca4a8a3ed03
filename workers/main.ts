// The worker: schedules every capability's background jobs (node-schedule), declared in their
// descriptions (src/capabilities.ts). Each run takes a Redis lock so replicas never run one twice
// (src/job.ts). Stopping it ends the schedule and waits for the runs in progress.
import schedule from 'node-schedule';
import type { Deps } from '../src/deps.ts';
import { capabilities } from '../src/capabilities.ts';
import { runJob } from '../src/job.ts';
import type { Job } from '../src/job.ts';

export const jobs = capabilities.flatMap((c): Job<Deps>[] => c.jobs ?? []);

/** Job runs in progress in this process, so that a stop can wait for them. */
class Runs {
  private readonly running = new Set<Promise<void>>();

  start(deps: Deps, job: Job<Deps>): void {
    const run = runJob(deps, job).finally(() => this.running.delete(run));
    this.running.add(run);
  }

  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }
}

/**
 * Schedules the jobs, each under its name; returns a function that stops scheduling them and
 * resolves once the runs in progress have finished (a run is never cut short: each is idempotent,
 * but one finished is one not repeated).
 */
export function scheduleJobs(deps: Deps, list: Job<Deps>[], runs = new Runs()): () => Promise<void> {
  const scheduled = list.map((job) => schedule.scheduleJob(job.name, job.rule, () => runs.start(deps, job)));
  return async () => {
    for (const s of scheduled) s.cancel();
    await runs.settled();
  };
}

/** Starts every job (and runs each once now); returns a function that stops them. */
export function startWorker(deps: Deps): () => Promise<void> {
  const runs = new Runs();
  const stop = scheduleJobs(deps, jobs, runs);
  for (const job of jobs) runs.start(deps, job);
  return stop;
}

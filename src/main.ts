// Starts the service: the web process, the worker, or both in one process (the default), and
// optionally loads the demo dataset, keeps its servers live while it runs, and prints how to try it.
// With WEB_CONCURRENCY > 1 the web role runs that many processes sharing the port (node:cluster):
// this process becomes their primary, and runs the worker's jobs itself when the roles are shared.
// SIGTERM or SIGINT stops gracefully: web processes drain, the worker finishes its running jobs.
import cluster from 'node:cluster';
import process from 'node:process';
import { Command, Option } from 'commander';
import { boot, configOrExit, prepareDatabase } from './boot.ts';
import { closeDeps } from './deps.ts';
import type { Deps } from './deps.ts';
import { demoFixture, loadDemo } from './demo/load-demo.ts';
import { demoInstructions } from './demo/instructions.ts';
import { startDemoLive } from './demo/live.ts';
import { demoSettings } from './demo/settings.ts';
import { createLog } from './log.ts';
import { meterLongPolls } from './meters.ts';
import { answerPrimary, gatherForWebProcesses } from './metrics/cluster.ts';
import { publishWorkerFigures } from './metrics/worker-figures.ts';
import { projectPath } from './project-root.ts';
import { clusterAvailable, startWebCluster } from './web-cluster.ts';
import { startWeb } from './web.ts';
import { startWorker } from '../workers/main.ts';

const options = new Command()
  .name('main')
  .addOption(new Option('--role <role>', 'which process to run').choices(['all', 'web', 'worker']).default('all'))
  .option('--demo', 'load the demo dataset and print an API key and curl lines')
  .parse()
  .opts<{ role: 'all' | 'web' | 'worker'; demo?: boolean }>();

// The demo fills what the operator left unset (a signing key, the store's secret and product, JWT_SECRET).
const settings = options.demo ? demoSettings(process.env, demoFixture.account.id) : undefined;
const config = configOrExit(settings ? { ...process.env, ...settings.env } : process.env);
const log = createLog(config.logLevel);
const severalWeb = options.role !== 'worker' && config.webConcurrency > 1;
if (severalWeb && cluster.isPrimary) {
  const refusal = settings
    ? '--demo runs one web process: unset WEB_CONCURRENCY'
    : !clusterAvailable()
      ? 'this runtime has no node:cluster to fork web processes with: unset WEB_CONCURRENCY (or set it to 1), or run under Node'
      : undefined;
  if (refusal) {
    process.stderr.write(`WEB_CONCURRENCY=${config.webConcurrency}: ${refusal}\n`);
    process.exit(2);
  }
}
const primary = severalWeb && cluster.isPrimary;
const servesWeb = options.role !== 'worker' && !primary;
const runsJobs = options.role !== 'web' && !cluster.isWorker;

const stops: (() => Promise<void>)[] = [];
let deps: Deps | undefined;
if (primary) {
  // Migrated once here, before the web processes start (they connect without migrating).
  await prepareDatabase(config);
  gatherForWebProcesses();
  const web = await startWebCluster(config.webConcurrency, log);
  stops.push(web.stop);
  process.on('SIGHUP', () => {
    log.info('SIGHUP: replacing the web processes one by one');
    void web.roll();
  });
  log.info({ port: config.port, host: config.host, processes: config.webConcurrency }, 'web listening');
}
if (servesWeb || runsJobs) {
  deps = await boot(config, { migrated: cluster.isWorker });
  meterLongPolls(() => deps!.agentWaits.count());
}
if (servesWeb && deps) {
  if (cluster.isWorker) answerPrimary();
  const web = await startWeb(deps);
  stops.push(web.stop);
  if (!cluster.isWorker) log.info({ port: config.port, host: config.host }, 'web listening');
}
if (runsJobs && deps) stops.push(startWorker(deps));
// A worker of its own serves no /metrics: its figures reach the web processes' through Redis.
if (runsJobs && !servesWeb && !primary && deps) stops.push(publishWorkerFigures(deps));
if (settings && deps) {
  const demo = await loadDemo(deps);
  // Live until the process stops: the servers' agent and heartbeats (src/demo/live.ts).
  const live = await startDemoLive(deps, demo, { dir: projectPath('data', 'demo', String(config.port)) });
  stops.push(live.stop);
  process.stdout.write(demoInstructions(demo, live, config.port, settings));
}

// A web process exits within 10 s of its signal whatever happens; one that runs jobs lets them finish.
const hardLimitMs = runsJobs ? 120_000 : 10_000;
let stopping = false;
const shutDown = (reason: string) => {
  if (stopping) return;
  stopping = true;
  log.info({ reason }, 'shutting down');
  setTimeout(() => {
    log.error({ reason, afterMs: hardLimitMs }, 'shutdown took too long: exiting');
    process.exit(1);
  }, hardLimitMs).unref();
  void Promise.all(stops.map((stop) => stop()))
    .then(() => (deps ? closeDeps(deps) : undefined))
    .then(() => process.exit(0));
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => shutDown(signal));
// A web process whose primary is gone has no one to restart or stop it: it drains and exits.
if (cluster.isWorker) process.on('disconnect', () => shutDown('primary gone'));

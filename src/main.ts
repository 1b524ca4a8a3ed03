// Starts the service: the web process, the worker, or both in one process (the default), and
// optionally loads the demo dataset, keeps its servers live while it runs, and prints how to try it.
import type { ServerResponse } from 'node:http';
import process from 'node:process';
import { setTimeout as delay } from 'node:timers/promises';
import { Command, Option } from 'commander';
import { createApp } from './app.ts';
import { boot, configOrExit } from './boot.ts';
import { closeDeps } from './deps.ts';
import { demoFixture, loadDemo } from './demo/load-demo.ts';
import { demoInstructions } from './demo/instructions.ts';
import { startDemoLive } from './demo/live.ts';
import { demoSettings } from './demo/settings.ts';
import { projectPath } from './project-root.ts';
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
const deps = await boot(config);
const stops: (() => Promise<void>)[] = [];

if (options.role !== 'worker') {
  const server = createApp(deps).listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  // Requests still being handled keep the stores open until they finish (at most 10 s).
  let inFlight = 0;
  server.on('request', (_req, res: ServerResponse) => {
    inFlight += 1;
    res.once('close', () => (inFlight -= 1));
  });
  stops.push(async () => {
    server.close();
    for (let waited = 0; inFlight > 0 && waited < 10_000; waited += 50) await delay(50);
  });
  deps.log.info({ port: config.port, host: config.host }, 'web listening');
}
if (options.role !== 'web') stops.push(startWorker(deps));
if (settings) {
  const demo = await loadDemo(deps);
  // Live until the process stops: the servers' agent and heartbeats (src/demo/live.ts).
  const live = await startDemoLive(deps, demo, { dir: projectPath('data', 'demo', String(config.port)) });
  stops.push(live.stop);
  process.stdout.write(demoInstructions(demo, live, config.port, settings));
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    deps.log.info({ signal }, 'shutting down');
    void Promise.all(stops.map((stop) => stop()))
      .then(() => closeDeps(deps))
      .then(() => process.exit(0));
  });
}

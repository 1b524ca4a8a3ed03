// Entry point of the game-server agent: `npm run agent -- --url ... --server ... --token ...
// --logs ...`, or on a game host its bundle, `node agent.mjs ...` (npm run build:agent). Exits 0
// when --once has every line acknowledged or SIGTERM/SIGINT stopped it; 1 with the reason when
// the service refused a batch; 2 for bad options.
import process from 'node:process';
import { CommanderError } from 'commander';
import { createLog } from '../log.ts';
import { Agent } from './agent.ts';
import { AgentOptionsError, parseAgentOptions } from './options.ts';
import { AgentRefused } from './sender.ts';

const log = createLog('info');

let options;
try {
  options = parseAgentOptions(process.argv.slice(2), process.env, log);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  if (!(err instanceof AgentOptionsError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(2);
}

const stop = new AbortController();
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    log.info({ signal }, 'stopping: sending what was read');
    stop.abort();
  });
}

const agent = new Agent(options);
log.info({ url: options.url, server: options.serverId, logs: options.logs, once: options.once }, 'agent started: reading the admin logs');
try {
  const report = await agent.run(stop.signal);
  log.info(report, options.once ? 'every line read is acknowledged' : 'stopped');
  process.exit(0);
} catch (err) {
  // Refused by the service, or the logs folder unreadable: one line saying why, exit 1.
  const message = err instanceof AgentRefused ? err.message : `the agent stopped: ${(err as Error).message}`;
  log.error({ ...agent.report(), ...(err instanceof AgentRefused ? {} : { err }) }, message);
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

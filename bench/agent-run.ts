// `npm run bench:agent`: the agent scenario alone (bench/agent.ts), against a service child of its
// own on the schema "bench_agent" of the bench database. BENCH_AGENT_LINES sets the log's size.
import { randomBytes } from 'node:crypto';
import process from 'node:process';
import { loadConfig } from '../src/config.ts';
import { closeDeps, connectDeps, createDeps } from '../src/deps.ts';
import { insertAccount } from '../src/accounts/account.repo.ts';
import { registerServer } from '../src/servers/server.ts';
import { ensureDatabase, migrate } from '../src/store/migrate.ts';
import { agentBenchLines, describeAgent, measureAgent } from './agent.ts';
import { killChildrenNow, startService, stopChildren } from './processes.ts';

const say = (line: string) => process.stdout.write(`${line}\n`);
const unlimited = '1000000000';
const env: Record<string, string> = {
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/gameservice_bench',
  DATABASE_SCHEMA: 'bench_agent',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  REDIS_PREFIX: 'bench_agent:',
  RATE_INGEST: unlimited,
  RATE_CONTROLLER: unlimited,
  JWT_SECRET: randomBytes(32).toString('base64url'),
};

process.once('exit', killChildrenNow);
const deps = createDeps(loadConfig(env));
try {
  await ensureDatabase(env.DATABASE_URL!);
  await migrate(env.DATABASE_URL!, env.DATABASE_SCHEMA!, deps.log);
  await connectDeps(deps);
  const account = await insertAccount(deps.db, 'agent bench');
  const { server, ingestToken } = await registerServer(deps, account.id, { name: 'agent bench' });
  const service = await startService('service', env);
  const outcome = await measureAgent({ url: service.url, serverId: server.id, token: ingestToken, lines: agentBenchLines(), say });
  for (const line of describeAgent(outcome)) say(line);
} finally {
  await stopChildren();
  await closeDeps(deps);
}

// The agent as one file (dist/agent.mjs, npm run build:agent) is all a game host needs: copied
// alone into an empty folder, far from node_modules, it runs with plain Node and the agent's V8
// flags, prints its usage, and reads an admin log into the real service with --once.
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import process from 'node:process';
import { promisify } from 'node:util';
import test from 'ava';
import { createApp } from '../../src/app.ts';
import { dayzIdOf } from '../../src/identities/id-forms.ts';
import { agent, agentBundle } from '../../scripts/build-agent.ts';
import { agentNodeFlags } from '../../bench/v8-flags.ts';
import { defaultStateFile } from '../../src/agent/options.ts';
import { testEnv, t0 } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { dataGet, tenant } from '../helpers/seed.ts';
import { sharedTempDir } from '../helpers/temp-dir.ts';

const run = promisify(execFile);
let env: TestEnv;
let server: Server;
let hostDir: string;
let removeHostDir: (() => Promise<void>) | undefined;

test.before(async () => {
  // Built by npm ci and npm run build:agent; built here when a source is newer (an edit under test).
  if (agent.state() !== 'fresh') await agent.build();
  ({ dir: hostDir, remove: removeHostDir } = await sharedTempDir('agent-bundle-'));
  await copyFile(agentBundle, join(hostDir, 'agent.mjs'));
  env = await testEnv();
  server = createServer(createApp(env.deps).callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
test.after.always(async () => {
  server?.close();
  await env?.close();
  await removeHostDir?.();
});

/** `node <the agent's flags> agent.mjs ...` in the game host's folder, with PATH and the user's state folder alone in its environment. */
const agentRun = (args: string[]) =>
  run(process.execPath, [...agentNodeFlags(), 'agent.mjs', ...args], {
    cwd: hostDir,
    env: { PATH: process.env.PATH, XDG_STATE_HOME: join(hostDir, 'state') },
  });

test('node agent.mjs --help prints the usage, alone in an empty folder', async (t) => {
  const { stdout } = await agentRun(['--help']);
  t.regex(stdout, /^Usage: agent \[options\]/);
  t.regex(stdout, /--logs <dir>/);
});

test('node agent.mjs --once reads an admin log into the service and exits 0', async (t) => {
  const a = await tenant(env.deps);
  const logs = join(hostDir, 'profile');
  await mkdir(logs);
  const dz = (n: number) => dayzIdOf(String(76561198300000000n + BigInt(n)));
  const day = new Date(t0).toISOString().slice(0, 10);
  const kill = (time: string) =>
    `${time} | Player "Mira" (DEAD) (id=${dz(2)} pos=<100, 200, 3>) killed by Player "Rexx" (id=${dz(1)} pos=<110, 200, 3>) with M4-A1 from 10.5 meters \n`;
  await writeFile(
    join(logs, 'DayZServer_x64.ADM'),
    `\n\n******************************************************************************\nAdminLog started on ${day} at 08:00:00\n${kill('08:00:05')}${kill('08:01:05')}`,
  );
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await agentRun(['--once', '--url', url, '--server', a.serverId, '--token', a.token, '--logs', logs, '--utc-offset', '+00:00']);
  // Its state is in the user's state folder; the logs folder holds only the log.
  t.deepEqual(await readdir(logs), ['DayZServer_x64.ADM']);
  const state = defaultStateFile({ XDG_STATE_HOME: join(hostDir, 'state') }, a.serverId, logs, 'linux');
  t.deepEqual(await readdir(dirname(state)), [basename(state)]);
  const board = await dataGet(env, a, `/servers/${a.serverId}/leaderboard?limit=10`);
  t.like(
    board.body.players.find((p: { platformId: string }) => p.platformId === dz(1)),
    { kills: 2 },
  );
});

// The operator CLI, run as an operator runs it (a child process), against a test's own schema.
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createApp } from '../../src/app.ts';
import { registerServer } from '../../src/servers/server.ts';
import { insertBot } from '../../src/chat/bots.repo.ts';
import { botSecret } from '../../src/chat/bot-secrets.ts';
import { insertAccount } from '../../src/accounts/account.repo.ts';
import { closeDeps, connectDeps, createDeps } from '../../src/deps.ts';
import { testEnv, testDatabaseUrl } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { ingest, tenant } from '../helpers/seed.ts';
import { dayzIdOf } from '../../src/identities/id-forms.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

const cli = async (...args: string[]) =>
  (
    await run('node', ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: testDatabaseUrl,
        DATABASE_SCHEMA: env.deps.config.databaseSchema,
        REDIS_PREFIX: env.deps.config.redisPrefix,
        LOG_LEVEL: 'silent',
      },
    })
  ).stdout;

test('account list and server list show what account create and server add made, so no id is ever lost', async (t) => {
  const created = /^account ([0-9a-f-]{36})$/m.exec(await cli('account', 'create', 'Listed Community'))![1]!;
  const added = await cli('server', 'add', created, 'Listed Server');
  const serverId = /^server ([0-9a-f-]{36})$/m.exec(added)![1]!;
  const accounts = await cli('account', 'list');
  t.regex(accounts, new RegExp(`^${created}\\s+1 servers\\s+Listed Community$`, 'm'));
  const servers = await cli('server', 'list', created);
  t.regex(servers, new RegExp(`^${serverId}\\s+offline\\s+never seen\\s+Listed Server$`, 'm'));
});

test('player link merges a DayZ-ID player into its Steam64; a DayZ ID of another Steam64 is refused (exit 1)', async (t) => {
  const a = await tenant(env.deps);
  const steam64 = '76561198123450001';
  const res = await ingest(env, a, [
    { id: randomUUID(), type: 'player.connect', ts: env.clock.now(), platformId: dayzIdOf(steam64), name: 'Linked' },
  ]);
  t.is(res.body.accepted, 1);
  t.regex(await cli('player', 'link', dayzIdOf(steam64), steam64), /^merged .* into 76561198123450001 on 1 server\(s\)$/m);
  t.regex(await cli('player', 'link', dayzIdOf(steam64), steam64), /nothing to merge/);
  const refused = await cli('player', 'link', dayzIdOf('76561198123450002'), steam64).then(
    () => undefined,
    (err: { code: number; stdout: string }) => err,
  );
  t.is(refused?.code, 1);
  t.regex(refused?.stdout ?? '', /error: .* is neither the DayZ ID/);
  const { rows } = await env.deps.db.query('SELECT platform_id AS "platformId" FROM server_players WHERE server_id = $1', [a.serverId]);
  t.deepEqual(rows, [{ platformId: steam64 }]);
});

test("the chat command signs a call as the community's bot does and prints its text", async (t) => {
  const deps = createDeps({ ...env.deps.config, chat: { ...env.deps.config.chat, requireSignature: true } }, { log: env.deps.log });
  t.teardown(() => closeDeps(deps));
  await connectDeps(deps);
  const server = createApp(deps).listen(0, '127.0.0.1');
  t.teardown(() => void server.close());
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const account = await insertAccount(deps.db, 'Chat CLI');
  const { server: s } = await registerServer(deps, account.id, { name: 'Bot Target' });
  const bot = await insertBot(deps.db, account.id, 'Discord', new Date().toISOString());
  const out = await run(
    'node',
    [
      '--import',
      'tsx',
      'src/cli/main.ts',
      'chat',
      'server.status',
      '--user',
      '175928847299117063',
      '--server',
      s.id,
      '--url',
      url,
      '--bot',
      bot.id,
    ],
    {
      cwd: root,
      env: { ...process.env, CHAT_BOT_SECRET: botSecret(deps.config.chat.botKey, bot.id, bot.generation) },
    },
  );
  t.is(out.stdout.trim(), 'Bot Target: offline');
  // Without the secret the call goes unsigned, which this service refuses.
  const refused = await run(
    'node',
    ['--import', 'tsx', 'src/cli/main.ts', 'chat', 'server.status', '--user', '175928847299117063', '--server', s.id, '--url', url],
    {
      cwd: root,
      env: { ...process.env, CHAT_BOT_SECRET: '' },
    },
  ).catch((err: { code: number; stdout: string }) => err);
  t.is((refused as { code: number }).code, 1);
  t.regex((refused as { stdout: string }).stdout, /error 403: chat call refused: this service accepts signed chat calls only/);
});

test("chat params stay text unless the action's schema makes them numbers: a Steam64 keeps every digit, a reason of digits stays a reason", async (t) => {
  const rolesDir = await tempDir(t, 'cli-chat-roles-');
  const deps = createDeps({ ...env.deps.config, chat: { ...env.deps.config.chat, rolesDir } }, { log: env.deps.log });
  await connectDeps(deps);
  const server = createApp(deps).listen(0, '127.0.0.1');
  t.teardown(async () => {
    server.close();
    await closeDeps(deps);
  });
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const account = await insertAccount(deps.db, 'Chat CLI params');
  await registerServer(deps, account.id, { name: 'Params Target' });
  const bot = await insertBot(deps.db, account.id, 'Discord', new Date().toISOString());
  const moderator = '175928847299117065';
  await writeFile(join(rolesDir, `${account.id}.json`), JSON.stringify({ [moderator]: 'moderator' }));
  const steam64 = '76561198000000042';
  const args = ['chat', 'ban.create', '--url', url, '--bot', bot.id, '--user', moderator];
  const out = await run(
    'node',
    [
      '--import',
      'tsx',
      'src/cli/main.ts',
      ...args,
      '--param',
      `platformId=${steam64}`,
      '--param',
      'reason=123',
      '--param',
      'durationMinutes=60',
    ],
    { cwd: root, env: { ...process.env, CHAT_BOT_SECRET: botSecret(deps.config.chat.botKey, bot.id, bot.generation) } },
  );
  t.regex(out.stdout, new RegExp(`^banned ${steam64} on every server until `));
  const { rows } = await deps.db.query<{ platformId: string; reason: string; minutes: number }>(
    `SELECT platform_id AS "platformId", reason, round(extract(epoch FROM expires_at - banned_at) / 60)::int AS minutes
     FROM bans WHERE account_id = $1`,
    [account.id],
  );
  t.deepEqual(rows, [{ platformId: steam64, reason: '123', minutes: 60 }]);
});

test('a CLI command whose service is not running says so in one line and exits 1: chat and trust mirror', async (t) => {
  const closed = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => closed.once('listening', resolve));
  const url = `http://127.0.0.1:${(closed.address() as { port: number }).port}`;
  await new Promise((resolve) => closed.close(resolve));
  const out = join(await tempDir(t, 'cli-mirror-'), 'mirror.json');
  for (const args of [
    ['chat', 'server.status', '--url', url, '--user', '175928847299117063'],
    ['trust', 'mirror', '--url', url, '--key', 'svcp_none', '--out', out],
  ]) {
    const failed = await run('node', ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: root }).then(
      () => undefined,
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    t.is(failed?.code, 1, args[0]);
    t.is(failed?.stdout, `error: cannot reach the service at ${url}: connection refused\n`, args[0]);
    t.notRegex(failed?.stderr ?? '', /TypeError|fetch failed|\n\s+at /, `${args[0]}: no stack`);
  }
});

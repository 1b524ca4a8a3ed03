// POST /api/servers/:id/start|restart (servers.control): the files are synced before the restart
// command runs; its exit code and output tail reach the command record and the audit log; a command
// that runs over its timeout is killed; roles and tenancy. Also: a changed file path asks for a sync.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { createBan } from '../../src/bans/bans.ts';
import { fileJobs } from '../../src/game-files/file-jobs.ts';
import { dayzIdOf } from '../../src/identities/id-forms.ts';
import { call } from '../helpers/controller-http.ts';
import { userWithRole } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertError } from '../helpers/data-api.ts';
import { assertSchema, tenant } from '../helpers/seed.ts';

let env: TestEnv;
let worker: Promise<void>;
let stopped = false;
test.before(async () => {
  env = await testEnv({ RATE_AUTH: '100000', RATE_CONTROLLER: '100000', RESTART_TIMEOUT_MS: '400', RESTART_WAIT_MS: '5000' });
  // The worker, as `npm start` runs it beside the web process.
  const run = fileJobs();
  worker = (async () => {
    while (!stopped) {
      await run(env.deps).catch(() => undefined);
      await delay(20);
    }
  })();
});
test.after.always(async () => {
  stopped = true;
  await worker;
  await env?.close();
});

let n = 0;
const steam = () => String(76561198700000000n + BigInt(++n));

async function serverWith(t: ExecutionContext, restartCommand: string | null): Promise<{ owner: Session; serverId: string; accountId: string; dir: string }> {
  const a = await tenant(env.deps);
  const owner = await userWithRole(env, 'owner', a.accountId);
  const dir = await mkdtemp(join(tmpdir(), 'restart-'));
  const res = await call(env, owner, 'patch', `/api/servers/${a.serverId}`, { banFilePath: join(dir, 'ban.txt'), priorityFilePath: join(dir, 'priority.txt'), restartCommand });
  t.is(res.status, 200);
  return { owner, serverId: a.serverId, accountId: a.accountId, dir };
}

test.serial('restart: files written first, then the command; exit code and output tail in the answer and the audit log', async (t) => {
  const s = await serverWith(t, null);
  await call(env, s.owner, 'patch', `/api/servers/${s.serverId}`, { restartCommand: `cat ${join(s.dir, 'ban.txt')}; echo restarted` });
  const p = steam();
  await createBan(env.deps, s.accountId, { platformId: p }, { type: 'user', id: null, name: 'test' });
  const res = await call(env, s.owner, 'post', `/api/servers/${s.serverId}/restart`);
  t.is(res.status, 200, JSON.stringify(res.body));
  assertSchema(t, 'server-command.json', res.body);
  t.like(res.body, { action: 'restart', status: 'done', exitCode: 0, error: null });
  t.is(res.body.outputTail, `${p}\r\n${dayzIdOf(p)}\r\nrestarted\n`, 'the command saw the synced ban file');
  const audit = await env.deps.db.query("SELECT actor_name, details FROM audit_log WHERE account_id = $1 AND action = 'server.restart'", [s.accountId]);
  t.is(audit.rows.length, 1);
  t.like(audit.rows[0].details, { exitCode: 0, ran: true, timedOut: false, outputTail: res.body.outputTail, commandId: res.body.id });
  t.is(audit.rows[0].actor_name, s.owner.username);
  const read = await call(env, s.owner, 'get', `/api/servers/${s.serverId}/commands/${res.body.id}`);
  t.deepEqual(read.body, res.body);
  t.is(await readFile(join(s.dir, 'priority.txt'), 'utf8'), '');
});

test.serial('a failing command is reported failed with its exit code; one that runs over the timeout is killed', async (t) => {
  const s = await serverWith(t, 'echo boom >&2; exit 3');
  let res = await call(env, s.owner, 'post', `/api/servers/${s.serverId}/start`);
  t.like(res.body, { action: 'start', status: 'failed', exitCode: 3, outputTail: 'boom\n', error: 'exit code 3' });
  await call(env, s.owner, 'patch', `/api/servers/${s.serverId}`, { restartCommand: 'echo started; sleep 5' });
  const began = Date.now();
  res = await call(env, s.owner, 'post', `/api/servers/${s.serverId}/restart`);
  t.like(res.body, { status: 'failed', exitCode: null, outputTail: 'started\n', error: 'timed out after 400 ms' });
  t.true(Date.now() - began < 3000, 'killed, not waited for');
});

test.serial('without a restart command the files are synced and the command is done', async (t) => {
  const s = await serverWith(t, null);
  const res = await call(env, s.owner, 'post', `/api/servers/${s.serverId}/start`);
  t.like(res.body, { status: 'done', exitCode: null, outputTail: null });
  t.is(await readFile(join(s.dir, 'ban.txt'), 'utf8'), '');
});

test.serial('servers.control only; another account\'s server is a 404', async (t) => {
  const s = await serverWith(t, null);
  for (const role of ['moderator', 'viewer'] as const) {
    const user = await userWithRole(env, role, s.accountId);
    assertError(t, await call(env, user, 'post', `/api/servers/${s.serverId}/restart`), 403, 'FORBIDDEN', role);
  }
  const stranger = await userWithRole(env, 'owner');
  assertError(t, await call(env, stranger, 'post', `/api/servers/${s.serverId}/restart`), 404, 'NOT_FOUND');
  assertError(t, await call(env, stranger, 'post', '/api/servers/not-a-uuid/start'), 404, 'NOT_FOUND');
  assertError(t, await call(env, undefined, 'post', `/api/servers/${s.serverId}/start`), 401, 'UNAUTHORIZED');
  const mine = await call(env, s.owner, 'post', `/api/servers/${s.serverId}/start`);
  assertError(t, await call(env, stranger, 'get', `/api/servers/${s.serverId}/commands/${mine.body.id}`), 404, 'NOT_FOUND');
});

test.serial('a new file path or a new server asks for a sync of its files', async (t) => {
  stopped = true;
  await worker;
  const a = await tenant(env.deps);
  const owner = await userWithRole(env, 'owner', a.accountId);
  await env.deps.db.query('DELETE FROM file_sync_requests');
  const kinds = async (serverId: string) => (await env.deps.db.query('SELECT kind FROM file_sync_requests WHERE server_id = $1 ORDER BY kind', [serverId])).rows.map((r) => r.kind);
  await call(env, owner, 'patch', `/api/servers/${a.serverId}`, { name: 'renamed' });
  t.deepEqual(await kinds(a.serverId), []);
  await call(env, owner, 'patch', `/api/servers/${a.serverId}`, { priorityFilePath: '/tmp/x/priority.txt' });
  t.deepEqual(await kinds(a.serverId), ['priority']);
  const created = await call(env, owner, 'post', '/api/servers', { name: 'new' });
  t.deepEqual(await kinds(created.body.server.id), ['bans', 'priority']);
});

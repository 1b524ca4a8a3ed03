// Agent commands as admins give them and as the agent takes and answers them: the records and
// their audit entries, bad bodies, roles and tenancy, the long poll (handed once, woken at once,
// re-handed after 60 s), results, and the life cycle's edges by the service clock.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { createApp } from '../../src/app.ts';
import { expireServerCommands } from '../../src/commands/commands.ts';
import { revokeServer } from '../../src/servers/server.ts';
import { api, controllerEnv } from '../helpers/controller-http.ts';
import { userWithRole } from '../helpers/controller.ts';
import { assertError } from '../helpers/data-api.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema } from '../helpers/seed.ts';
import { answer, community, poll, secondServer } from './helpers.ts';

let env: TestEnv;
test.before(async () => {
  env = await controllerEnv();
});
test.after.always(async () => {
  await env?.close();
});

const steam = '76561198000000042';

test('restart, message and kick answer 202 with the pending command, audited; GET reads it and the history newest first', async (t) => {
  const c = await community(env);
  const restart = await api(t, env, c.owner, 'post', `/api/servers/${c.serverId}/restart`, {});
  t.is(restart.status, 202);
  t.like(restart.body, {
    serverId: c.serverId,
    kind: 'restart',
    params: { delaySeconds: 300, message: null },
    status: 'pending',
    requestedBy: { type: 'user', id: c.owner.userId, name: c.owner.username },
    sentAt: null,
    dueAt: null,
    dueInSeconds: null,
    finishedAt: null,
    detail: null,
  });
  t.is(Date.parse(restart.body.expiresAt) - Date.parse(restart.body.createdAt), 10 * 60_000);
  const message = await api(t, env, c.owner, 'post', `/api/servers/${c.serverId}/messages`, { text: 'Привет, выживший 👋' });
  t.like(message.body, { kind: 'message', params: { text: 'Привет, выживший 👋' }, status: 'pending' });
  const kick = await api(t, env, c.owner, 'post', `/api/servers/${c.serverId}/kick`, { platformId: steam, reason: 'AFK' });
  t.like(kick.body, { kind: 'kick', params: { platformId: steam, reason: 'AFK' } });
  const later = await api(t, env, c.owner, 'post', `/api/servers/${c.serverId}/restart`, { delaySeconds: 0, message: 'now' });
  t.like(later.body.params, { delaySeconds: 0, message: 'now' });

  t.deepEqual((await api(t, env, c.owner, 'get', `/api/servers/${c.serverId}/commands/${kick.body.id}`)).body, kick.body);
  const list = await api(t, env, c.owner, 'get', `/api/servers/${c.serverId}/commands?limit=3`);
  t.deepEqual(
    list.body.commands.map((x: { id: string }) => x.id),
    [later.body.id, kick.body.id, message.body.id],
  );
  const rest = await api(
    t,
    env,
    c.owner,
    'get',
    `/api/servers/${c.serverId}/commands?limit=3&before=${encodeURIComponent(list.body.nextCursor)}`,
  );
  t.deepEqual(
    rest.body.commands.map((x: { id: string }) => x.id),
    [restart.body.id],
  );
  t.is(rest.body.nextCursor, null);

  const { rows } = await env.deps.db.query<{ action: string; details: { commandId: string } }>(
    "SELECT action, details FROM audit_log WHERE account_id = $1 AND action LIKE 'server.%' ORDER BY id",
    [c.accountId],
  );
  t.deepEqual(
    rows.map((r) => [r.action, r.details.commandId]),
    [
      ['server.restart', restart.body.id],
      ['server.message', message.body.id],
      ['server.kick', kick.body.id],
      ['server.restart', later.body.id],
    ],
  );
});

test('a kick names the player as stored: a DayZ ID of a known Steam64 is kicked as the Steam64', async (t) => {
  const c = await community(env);
  await env.request
    .post(`/api/servers/${c.serverId}/events`)
    .set('Authorization', `Bearer ${c.token}`)
    .send({ events: [{ id: crypto.randomUUID(), type: 'player.connect', ts: env.clock.now(), platformId: steam, name: 'Known' }] });
  const { dayzIdOf } = await import('../../src/identities/id-forms.ts');
  const kick = await api(t, env, c.owner, 'post', `/api/servers/${c.serverId}/kick`, { platformId: dayzIdOf(steam) });
  t.like(kick.body.params, { platformId: steam, reason: null });
});

test('bad bodies are 400s with the Error body: ranges, lengths, control characters that could smuggle a second RCon command', async (t) => {
  const c = await community(env);
  const bad: [string, unknown][] = [
    ['restart', { delaySeconds: 3601 }],
    ['restart', { delaySeconds: -1 }],
    ['restart', { delaySeconds: 1.5 }],
    ['restart', { delaySeconds: '60' }],
    ['restart', { message: 'x'.repeat(201) }],
    ['restart', { message: 'restart\n#shutdown' }],
    ['restart', { message: '' }],
    ['restart', { restartCommand: 'x' }],
    ['messages', {}],
    ['messages', { text: '' }],
    ['messages', { text: '   ' }],
    ['messages', { text: 'hi\r\nkick 1' }],
    ['messages', { text: 'x'.repeat(201) }],
    ['messages', { text: 'hi', extra: 1 }],
    ['kick', {}],
    ['kick', { platformId: 'nobody' }],
    ['kick', { platformId: steam, reason: 'x'.repeat(65) }],
    ['kick', { platformId: steam, reason: 'a\u0000b' }],
    ['kick', { platformId: Number(steam) }],
  ];
  for (const [path, body] of bad)
    assertError(
      t,
      await api(t, env, c.owner, 'post', `/api/servers/${c.serverId}/${path}`, body),
      400,
      'BAD_REQUEST',
      `${path} ${JSON.stringify(body)}`,
    );
  assertError(
    t,
    await env.request.post(`/api/servers/${c.serverId}/messages`).set('Authorization', `Bearer ${c.owner.token}`).type('text').send('hi'),
    415,
    'UNSUPPORTED_MEDIA_TYPE',
  );
  assertError(t, await api(t, env, c.owner, 'get', `/api/servers/${c.serverId}/commands?before=2026-01-01`), 400, 'BAD_REQUEST');
  t.is((await api(t, env, c.owner, 'get', `/api/servers/${c.serverId}/commands`)).body.commands.length, 0, 'nothing was recorded');
});

test("servers.control gives commands, servers.read reads them; another account, a revoked or unknown server, another server's command: 404", async (t) => {
  const c = await community(env);
  const other = await community(env);
  for (const role of ['viewer', 'moderator'] as const) {
    const user = await userWithRole(env, role, c.accountId);
    assertError(t, await api(t, env, user, 'post', `/api/servers/${c.serverId}/restart`, {}), 403, 'FORBIDDEN', role);
    t.is((await api(t, env, user, 'get', `/api/servers/${c.serverId}/commands`)).status, 200, role);
  }
  const admin = await userWithRole(env, 'admin', c.accountId);
  const mine = await api(t, env, admin, 'post', `/api/servers/${c.serverId}/messages`, { text: 'hello' });
  t.is(mine.status, 202);
  for (const [path, body] of [
    ['restart', {}],
    ['messages', { text: 'x' }],
    ['kick', { platformId: steam }],
  ] as const) {
    assertError(t, await api(t, env, other.owner, 'post', `/api/servers/${c.serverId}/${path}`, body), 404, 'NOT_FOUND', path);
  }
  assertError(t, await api(t, env, other.owner, 'get', `/api/servers/${c.serverId}/commands`), 404, 'NOT_FOUND');
  assertError(t, await api(t, env, other.owner, 'get', `/api/servers/${c.serverId}/commands/${mine.body.id}`), 404, 'NOT_FOUND');
  assertError(
    t,
    await api(t, env, other.owner, 'get', `/api/servers/${other.serverId}/commands/${mine.body.id}`),
    404,
    'NOT_FOUND',
    'the id of a command of another server',
  );
  assertError(t, await api(t, env, c.owner, 'get', `/api/servers/${c.serverId}/commands/not-a-uuid`), 404, 'NOT_FOUND');
  assertError(t, await api(t, env, c.owner, 'post', `/api/servers/${crypto.randomUUID()}/restart`, {}), 404, 'NOT_FOUND');
  assertError(t, await api(t, env, undefined, 'post', `/api/servers/${c.serverId}/restart`, {}), 401, 'UNAUTHORIZED');
  await revokeServer(env.deps, c.accountId, c.serverId);
  assertError(t, await api(t, env, c.owner, 'post', `/api/servers/${c.serverId}/restart`, {}), 404, 'NOT_FOUND', 'revoked');
});

test("the agent's calls need the server's own ingest token: a session, another server's token or none is 401", async (t) => {
  const c = await community(env);
  const other = await community(env);
  const command = await api(t, env, c.owner, 'post', `/api/servers/${c.serverId}/messages`, { text: 'hello' });
  for (const token of [other.token, c.owner.token, '', `${c.token}x`]) {
    assertError(t, await poll(env, { serverId: c.serverId, token }), 401, 'UNAUTHORIZED');
    assertError(t, await answer(env, { serverId: c.serverId, token }, command.body.id, { status: 'done' }), 401, 'UNAUTHORIZED');
  }
  t.is((await api(t, env, c.owner, 'get', `/api/servers/${c.serverId}/commands/${command.body.id}`)).body.status, 'pending');
  assertError(t, await poll(env, c, 31), 400, 'BAD_REQUEST', 'wait is at most 30 s');
  assertError(t, await poll(env, c, -1), 400, 'BAD_REQUEST');
});

test('the long poll hands each waiting command once, oldest first, then 204; the answer is recorded, audited, and repeated as it was', async (t) => {
  const c = await community(env);
  assertEmpty(t, await poll(env, c));
  const first = await api(t, env, c.owner, 'post', `/api/servers/${c.serverId}/messages`, { text: 'one' });
  const second = await api(t, env, c.owner, 'post', `/api/servers/${c.serverId}/restart`, { delaySeconds: 120 });
  const handed = await poll(env, c);
  t.is(handed.status, 200);
  assertSchema(t, 'agent-commands.json', handed.body);
  t.deepEqual(
    handed.body.commands.map((x: { id: string }) => x.id),
    [first.body.id, second.body.id],
  );
  const now = new Date(env.clock.now()).toISOString();
  t.like(handed.body.commands[1], {
    status: 'sent',
    sentAt: now,
    dueAt: new Date(env.clock.now() + 120_000).toISOString(),
    dueInSeconds: 120,
  });
  assertEmpty(t, await poll(env, c));

  const done = await answer(env, c, first.body.id, { status: 'done', detail: 'said to 7 players' });
  t.is(done.status, 200);
  assertSchema(t, 'server-command.json', done.body);
  t.like(done.body, { status: 'done', detail: 'said to 7 players', finishedAt: now });
  t.is((await answer(env, c, first.body.id, { status: 'done', detail: 'said to 7 players' })).status, 200, 'a retried answer');
  assertError(t, await answer(env, c, first.body.id, { status: 'failed', detail: 'other' }), 409, 'CONFLICT');
  assertError(t, await answer(env, c, crypto.randomUUID(), { status: 'done' }), 404, 'NOT_FOUND');
  assertError(t, await answer(env, c, 'next', { status: 'done' }), 404, 'NOT_FOUND');
  for (const body of [{ status: 'running' }, { status: 'done', detail: 'x'.repeat(501) }, {}, { status: 'done', extra: 1 }]) {
    assertError(t, await answer(env, c, second.body.id, body), 400, 'BAD_REQUEST', JSON.stringify(body));
  }
  const pending = await api(t, env, c.owner, 'post', `/api/servers/${c.serverId}/kick`, { platformId: steam });
  assertError(t, await answer(env, c, pending.body.id, { status: 'done' }), 409, 'CONFLICT', 'not handed yet');
  const { rows } = await env.deps.db.query<{ action: string; actor_name: string; details: { detail: string } }>(
    "SELECT action, actor_name, details FROM audit_log WHERE account_id = $1 AND action = 'server.message.done'",
    [c.accountId],
  );
  t.deepEqual(
    rows.map((r) => [r.actor_name, r.details.detail]),
    [['agent', 'said to 7 players']],
  );
});

test('polls at the same moment: each command goes to one of them', async (t) => {
  const c = await community(env);
  const ids = [];
  for (let i = 0; i < 5; i++)
    ids.push((await api(t, env, c.owner, 'post', `/api/servers/${c.serverId}/messages`, { text: `m${i}` })).body.id);
  const polls = await Promise.all(Array.from({ length: 12 }, () => poll(env, c)));
  const got = polls.flatMap((p) => (p.status === 200 ? p.body.commands.map((x: { id: string }) => x.id) : []));
  t.deepEqual([...got].sort(), [...ids].sort());
});

test('a waiting poll is answered as soon as a command is made, in this process or another', async (t) => {
  const c = await community(env);
  // Timed from the command's making, not from the setup of a second process (slow on a loaded machine).
  const waiting = poll(env, c, 10).then((res) => ({ res, at: Date.now() }));
  await waitFor(() => env.deps.agentWaits.count(c.serverId) === 1);
  // Made by another web process: the wake-up crosses Redis.
  const { createDeps, connectDeps, closeDeps } = await import('../../src/deps.ts');
  const other = createDeps(env.deps.config, { clock: env.clock });
  t.teardown(() => closeDeps(other));
  await connectDeps(other);
  const session = await import('supertest');
  const app = session.default(createApp(other).callback());
  const making = Date.now();
  const made = await app.post(`/api/servers/${c.serverId}/messages`).set('Authorization', `Bearer ${c.owner.token}`).send({ text: 'now' });
  t.is(made.status, 202);
  const { res, at } = await waiting;
  t.is(res.status, 200);
  t.deepEqual(
    res.body.commands.map((x: { id: string }) => x.id),
    [made.body.id],
  );
  // The poll waits 10 s for nothing: answered within 3 s of the command, the wake-up answered it.
  t.true(at - making < 3000, `answered ${at - making} ms after the command was made`);
  t.is(env.deps.agentWaits.count(c.serverId), 0);
});

test('an agent that hangs up mid-wait is handed nothing: the command waits for the next poll', async (t) => {
  const c = await community(env);
  const server = http.createServer(createApp(env.deps).callback()).listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  const hangUp = new AbortController();
  const gone = fetch(`http://127.0.0.1:${port}/api/servers/${c.serverId}/commands/next?wait=20`, {
    headers: { authorization: `Bearer ${c.token}` },
    signal: hangUp.signal,
  }).catch(() => 'aborted');
  await waitFor(() => env.deps.agentWaits.count(c.serverId) === 1);
  hangUp.abort();
  t.is(await gone, 'aborted');
  await waitFor(() => env.deps.agentWaits.count(c.serverId) === 0);
  const made = await api(t, env, c.owner, 'post', `/api/servers/${c.serverId}/messages`, { text: 'later' });
  const next = await poll(env, c);
  t.deepEqual(
    next.body.commands.map((x: { id: string }) => x.id),
    [made.body.id],
  );
});

test.serial('re-handed 60 s after an unanswered hand (59 s: not yet), with the same sentAt; never after its deadline', async (t) => {
  const c = await community(env);
  const made = await api(t, env, c.owner, 'post', `/api/servers/${c.serverId}/kick`, { platformId: steam });
  const first = await poll(env, c);
  t.is(first.body.commands[0].id, made.body.id);
  env.clock.advance(59_000);
  assertEmpty(t, await poll(env, c), 'an agent may still be answering at 59 s');
  env.clock.advance(2000);
  const again = await poll(env, c);
  t.deepEqual(
    again.body.commands.map((x: { id: string; sentAt: string }) => [x.id, x.sentAt]),
    [[made.body.id, first.body.commands[0].sentAt]],
  );
  // A kick is handed until 10 minutes after it was made; then, unanswered, it expires.
  env.clock.advance(10 * 60_000 - 61_000 - 1000);
  await expireServerCommands(env.deps);
  t.is((await poll(env, c)).body.commands[0].id, made.body.id, '9:59 after it was made, 61 s after the last hand');
  env.clock.advance(61_000);
  await expireServerCommands(env.deps);
  assertEmpty(t, await poll(env, c));
  t.like((await api(t, env, c.owner, 'get', `/api/servers/${c.serverId}/commands/${made.body.id}`)).body, {
    status: 'expired',
    detail: 'the agent did not answer in time',
  });
  // The agent's late answer says what happened on the game host: it is taken.
  t.like((await answer(env, c, made.body.id, { status: 'done', detail: 'kicked' })).body, { status: 'done', detail: 'kicked' });
});

test.serial('a command no agent took within 10 minutes expires: handed at 9:59, expired at 10:01', async (t) => {
  const c = await community(env);
  const taken = await api(t, env, c.owner, 'post', `/api/servers/${c.serverId}/restart`, {});
  const d = await secondServer(env.deps, c.accountId);
  const untaken = await api(t, env, c.owner, 'post', `/api/servers/${d.serverId}/restart`, {});
  env.clock.advance(10 * 60_000 - 1000);
  await expireServerCommands(env.deps);
  t.is((await poll(env, c)).body.commands[0].id, taken.body.id);
  env.clock.advance(2000);
  t.deepEqual(await expireServerCommands(env.deps), { expired: 1 });
  assertEmpty(t, await poll(env, d));
  t.like((await api(t, env, c.owner, 'get', `/api/servers/${d.serverId}/commands/${untaken.body.id}`)).body, {
    status: 'expired',
    sentAt: null,
    detail: 'no agent took it within 10 minutes',
    finishedAt: new Date(env.clock.now()).toISOString(),
  });
  const { rows } = await env.deps.db.query("SELECT actor_name FROM audit_log WHERE account_id = $1 AND action = 'server.restart.expired'", [
    c.accountId,
  ]);
  t.deepEqual(rows, [{ actor_name: 'service' }]);
});

test.serial(
  'a restart taken and then lost with its agent is resumed where its countdown is, and never handed a minute past its due time',
  async (t) => {
    const c = await community(env);
    const made = await api(t, env, c.owner, 'post', `/api/servers/${c.serverId}/restart`, { delaySeconds: 1800 });
    env.clock.advance(60_000);
    const taken = await poll(env, c);
    t.is(taken.body.commands[0].dueInSeconds, 1800);
    // The agent dies; a new one polls 15 minutes later (past the 10 minutes to take it: it was taken).
    env.clock.advance(15 * 60_000);
    await expireServerCommands(env.deps);
    const resumed = await poll(env, c);
    t.like(resumed.body.commands[0], { id: made.body.id, dueInSeconds: 900, dueAt: taken.body.commands[0].dueAt });
    // Due at 30:00 after it was taken: handed up to a minute after that, never later.
    env.clock.advance(15 * 60_000 + 59_000);
    t.is((await poll(env, c)).body.commands[0].dueInSeconds, -59);
    env.clock.advance(61_000);
    await expireServerCommands(env.deps);
    assertEmpty(t, await poll(env, c));
    t.like((await api(t, env, c.owner, 'get', `/api/servers/${c.serverId}/commands/${made.body.id}`)).body, {
      status: 'expired',
      detail: 'the agent did not answer in time',
    });
  },
);

test("a session user's GET of /commands/next is the agent's route: 401 without an ingest token", async (t) => {
  const c = await community(env);
  assertError(
    t,
    await env.request.get(`/api/servers/${c.serverId}/commands/next`).set('Authorization', `Bearer ${c.owner.token}`),
    401,
    'UNAUTHORIZED',
  );
});

function assertEmpty(t: ExecutionContext, res: { status: number; text: string }, what = ''): void {
  t.is(res.status, 204, what);
  t.is(res.text, '', what);
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

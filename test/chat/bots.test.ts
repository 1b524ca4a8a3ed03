// Per-community chat bots: secrets shown once and never stored or listed, rotation with 24 h of
// overlap (23:59:59 in, 24:00:01 out), a signed call acting in its bot's community only (account-wide
// actions without a serverId, another community's server a 404), the operator's shared secret bound
// to the operator's community, unsigned calls bounded to their server's community, the community's
// own "refuse unsigned" setting, refusals audited where they belong, and two web processes.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import supertest from 'supertest';
import { createApp } from '../../src/app.ts';
import { closeDeps, connectDeps, createDeps } from '../../src/deps.ts';
import { chatSignature } from '../../src/chat/signature.ts';
import { registerServer } from '../../src/servers/server.ts';
import { setupOperator, userWithRole } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import { api, envFor } from '../helpers/controller-http.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertError } from '../helpers/data-api.ts';
import { tempDirSync } from '../helpers/temp-dir.ts';

const operatorSecret = 'a chat signing secret of at least 32 characters';
const alice = '175928847299117063';
const player = () => String(76561198500000000n + BigInt(Math.floor(Math.random() * 1e9)));

interface World {
  env: TestEnv;
  operator: Session;
  operatorServer: string;
  a: Session;
  aServer: string;
  b: Session;
  bServer: string;
}

async function world(t: ExecutionContext): Promise<World> {
  const rolesDir = tempDirSync(t, 'chat-bots-');
  const env = await envFor(t, {
    CHAT_SIGNING_SECRET: operatorSecret,
    CHAT_ROLES_DIR: rolesDir,
    CHAT_BOT_KEY: 'a chat bot key of at least thirty-two characters',
  });
  const operator = await setupOperator(env);
  const a = await userWithRole(env, 'owner');
  const b = await userWithRole(env, 'owner');
  const server = async (accountId: string) => (await registerServer(env.deps, accountId, { name: 'server' })).server.id;
  return {
    env,
    operator,
    operatorServer: await server(operator.accountId),
    a,
    aServer: await server(a.accountId),
    b,
    bServer: await server(b.accountId),
  };
}

type Signer = { secret: string; botId?: string } | undefined;

/** A chat call, signed by a bot (or the operator's secret), a second after the last (signatures are good once). */
async function chat(
  env: TestEnv | supertest.Agent,
  body: { action: string; serverId?: string; params?: Record<string, unknown>; chatUserId?: string },
  signer: Signer,
  atMs?: number,
) {
  const request = 'request' in env ? env.request : env;
  const full = { chatUserId: alice, ...body };
  let req = request.post('/api/chat/action').send(full);
  if (signer) {
    const ts = String(Math.floor((atMs ?? ('deps' in env ? env.deps.clock.now() : Date.now())) / 1000));
    req = req.set('X-Chat-Timestamp', ts).set('X-Chat-Signature', chatSignature(signer.secret, ts, full.action, full.chatUserId));
    if (signer.botId) req = req.set('X-Chat-Bot', signer.botId);
  }
  const res = await req;
  if ('deps' in env) env.clock.advance(1000);
  return res;
}

async function newBot(t: ExecutionContext, w: World, owner: Session, name = 'Discord bot') {
  const res = await api(t, w.env, owner, 'post', '/api/chat/bots', { name });
  t.is(res.status, 201, JSON.stringify(res.body));
  return { botId: res.body.bot.id as string, secret: res.body.secret as string };
}

async function audited(w: World, accountId: string, action: string) {
  const { rows } = await w.env.deps.db.query(
    'SELECT details, actor_name FROM audit_log WHERE account_id = $1 AND action = $2 ORDER BY id',
    [accountId, action],
  );
  return rows as { details: Record<string, unknown>; actor_name: string }[];
}

test('bots: the secret is shown once, never listed, stored or audited; users.manage only; a deleted bot signs nothing', async (t) => {
  const w = await world(t);
  const bot = await newBot(t, w, w.a);
  t.regex(bot.secret, /^svcb_[A-Za-z0-9_-]{43}$/);
  const list = await api(t, w.env, w.a, 'get', '/api/chat/bots');
  t.deepEqual(
    list.body.bots.map((b: { id: string; name: string }) => [b.id, b.name]),
    [[bot.botId, 'Discord bot']],
  );
  t.false(JSON.stringify(list.body).includes(bot.secret));
  t.deepEqual((await api(t, w.env, w.b, 'get', '/api/chat/bots')).body.bots, [], 'another community sees none of them');
  const { rows } = await w.env.deps.db.query('SELECT row_to_json(c)::text AS row FROM chat_bots c');
  t.false(
    rows.some((r) => r.row.includes(bot.secret.slice(5))),
    'the secret is stored nowhere',
  );
  const { rows: audit } = await w.env.deps.db.query('SELECT details::text AS d FROM audit_log');
  t.false(
    audit.some((r) => r.d.includes(bot.secret.slice(5))),
    'nor audited',
  );
  const moderator = await userWithRole(w.env, 'admin', w.a.accountId);
  assertError(t, await api(t, w.env, moderator, 'post', '/api/chat/bots', { name: 'x' }), 403, 'FORBIDDEN', 'an admin lacks users.manage');
  assertError(t, await api(t, w.env, w.a, 'post', '/api/chat/bots', { name: '  ' }), 400, 'BAD_REQUEST');
  assertError(t, await api(t, w.env, w.b, 'delete', `/api/chat/bots/${bot.botId}`), 404, 'NOT_FOUND', 'another community cannot delete it');

  t.is((await chat(w.env, { action: 'server.status', serverId: w.aServer }, bot)).status, 200);
  t.is((await api(t, w.env, w.a, 'delete', `/api/chat/bots/${bot.botId}`)).status, 204);
  assertError(t, await chat(w.env, { action: 'server.status', serverId: w.aServer }, bot), 403, 'FORBIDDEN', 'deleted');
});

test("a bot acts in its own community only: account-wide actions without a serverId; another community's server is a 404", async (t) => {
  const w = await world(t);
  const bot = await newBot(t, w, w.a);
  await api(t, w.env, w.a, 'put', `/api/chat/user-roles/${alice}`, { role: 'moderator' });
  const target = player();
  const banned = await chat(w.env, { action: 'ban.create', params: { platformId: target, reason: 'aimbot' } }, bot);
  t.is(banned.status, 200, JSON.stringify(banned.body));
  t.like((await api(t, w.env, w.a, 'get', `/api/bans/${banned.body.result.banId}`)).body, { platformId: target });
  assertError(
    t,
    await api(t, w.env, w.b, 'get', `/api/bans/${banned.body.result.banId}`),
    404,
    'NOT_FOUND',
    'not a ban of another community',
  );
  for (const [action, params] of [
    ['queue.add', { platformId: target }],
    ['queue.remove', { platformId: target }],
    ['ban.revoke', { banId: banned.body.result.banId }],
  ] as const) {
    t.is((await chat(w.env, { action, params }, bot)).status, 200, action);
  }
  assertError(t, await chat(w.env, { action: 'server.status', serverId: w.bServer }, bot), 404, 'NOT_FOUND', "another community's server");
  assertError(t, await chat(w.env, { action: 'ban.create', serverId: w.bServer, params: { platformId: player() } }, bot), 404, 'NOT_FOUND');
  assertError(t, await chat(w.env, { action: 'server.status' }, bot), 400, 'BAD_REQUEST', 'a server action needs its serverId');
  // The role comes from the bot's community's mappings: alice is nobody in B.
  const bBot = await newBot(t, w, w.b);
  assertError(
    t,
    await chat(w.env, { action: 'ban.create', params: { platformId: player() } }, bBot),
    403,
    'FORBIDDEN',
    'chat-bot role in B',
  );
});

test("the operator's shared secret is the operator community's bot: it acts there and in no other community", async (t) => {
  const w = await world(t);
  await api(t, w.env, w.operator, 'put', `/api/chat/user-roles/${alice}`, { role: 'moderator' });
  const shared = { secret: operatorSecret };
  t.is((await chat(w.env, { action: 'server.status', serverId: w.operatorServer }, shared)).status, 200);
  const ban = await chat(w.env, { action: 'ban.create', params: { platformId: player() } }, shared);
  t.is(ban.status, 200);
  t.is((await api(t, w.env, w.operator, 'get', `/api/bans/${ban.body.result.banId}`)).status, 200);
  assertError(t, await chat(w.env, { action: 'server.status', serverId: w.aServer }, shared), 404, 'NOT_FOUND', 'no longer any community');
  assertError(
    t,
    await chat(w.env, { action: 'ban.create', serverId: w.aServer, params: { platformId: player() } }, shared),
    404,
    'NOT_FOUND',
  );
  // A's bot's secret cannot pass as the operator's, nor the shared one as A's bot.
  const bot = await newBot(t, w, w.a);
  assertError(t, await chat(w.env, { action: 'server.status', serverId: w.operatorServer }, { secret: bot.secret }), 403, 'FORBIDDEN');
  assertError(
    t,
    await chat(w.env, { action: 'server.status', serverId: w.aServer }, { secret: operatorSecret, botId: bot.botId }),
    403,
    'FORBIDDEN',
  );
  t.is((await audited(w, w.a.accountId, 'chat.sig-rejected')).length, 1, "a wrong signature naming A's bot is in A's log");
});

test('rotation: a new secret at once; the old one accepted 24 h more (23:59:59 in, 24:00:01 out), in every web process', async (t) => {
  const w = await world(t);
  const bot = await newBot(t, w, w.a);
  const other = createDeps(w.env.deps.config, { clock: w.env.clock, log: w.env.deps.log });
  t.teardown(() => closeDeps(other));
  await connectDeps(other);
  const second = supertest(createApp(other).callback());
  const rotated = await api(t, w.env, w.a, 'post', `/api/chat/bots/${bot.botId}/secret`);
  t.is(rotated.status, 200);
  const fresh = { botId: bot.botId, secret: rotated.body.secret as string };
  t.not(fresh.secret, bot.secret);
  const rotatedAt = w.env.clock.now();
  t.is(rotated.body.bot.previousSecretValidUntil, new Date(rotatedAt + 24 * 3600_000).toISOString());
  t.is((await chat(w.env, { action: 'server.status', serverId: w.aServer }, fresh)).status, 200);
  t.is(
    (await chat(second, { action: 'server.status', serverId: w.aServer }, fresh, w.env.clock.now())).status,
    200,
    'the other process knows the new secret at once',
  );
  w.env.clock.set(rotatedAt + 24 * 3600_000 - 1000);
  const lastSecond = w.env.clock.now();
  t.is((await chat(w.env, { action: 'server.status', serverId: w.aServer }, bot)).status, 200, 'old secret at 23:59:59');
  w.env.clock.set(lastSecond);
  t.is((await chat(second, { action: 'players.list', serverId: w.aServer }, bot, lastSecond)).status, 200, 'in the other process too');
  w.env.clock.set(rotatedAt + 24 * 3600_000 + 1000);
  assertError(t, await chat(w.env, { action: 'server.status', serverId: w.aServer }, bot), 403, 'FORBIDDEN', 'old secret at 24:00:01');
  assertError(t, await chat(second, { action: 'server.status', serverId: w.aServer }, bot, w.env.clock.now()), 403, 'FORBIDDEN');
  t.is((await chat(w.env, { action: 'server.status', serverId: w.aServer }, fresh)).status, 200);
});

test('a signed call replayed to another web process is refused there: two identical calls in one second are one signature', async (t) => {
  const w = await world(t);
  const bot = await newBot(t, w, w.a);
  const other = createDeps(w.env.deps.config, { clock: w.env.clock, log: w.env.deps.log });
  t.teardown(() => closeDeps(other));
  await connectDeps(other);
  const at = w.env.clock.now();
  t.is((await chat(w.env.request, { action: 'server.status', serverId: w.aServer }, bot, at)).status, 200);
  assertError(
    t,
    await chat(supertest(createApp(other).callback()), { action: 'server.status', serverId: w.aServer }, bot, at),
    403,
    'FORBIDDEN',
    'the same call in the same second',
  );
  t.is(
    (await chat(w.env.request, { action: 'server.status', serverId: w.aServer }, bot, at + 1000)).status,
    200,
    'a second later it is another signature',
  );
});

test("unsigned calls act in their server's community (else the operator's) as the chat-bot role; a community may refuse them", async (t) => {
  const w = await world(t);
  t.is((await chat(w.env, { action: 'server.status', serverId: w.aServer }, undefined)).status, 200);
  t.is((await audited(w, w.a.accountId, 'chat.action')).at(-1)!.actor_name, 'Chat Bot (unverified)');
  assertError(
    t,
    await chat(w.env, { action: 'ban.create', serverId: w.aServer, params: { platformId: player() } }, undefined),
    403,
    'FORBIDDEN',
    'the chat-bot role bans nothing',
  );
  t.is((await audited(w, w.a.accountId, 'chat.denied')).length, 1, "denied in A's log");
  t.is(
    (await chat(w.env, { action: 'trust.lookup', params: { identifier: '76561198000000001' } }, undefined)).status,
    404,
    'a network action without a server: the public lookup',
  );
  assertError(
    t,
    await chat(w.env, { action: 'server.status', serverId: '00000000-0000-4000-8000-000000000000' }, undefined),
    404,
    'NOT_FOUND',
  );

  t.deepEqual((await api(t, w.env, w.a, 'get', '/api/chat/settings')).body, { requireSignature: false });
  t.deepEqual((await api(t, w.env, w.a, 'put', '/api/chat/settings', { requireSignature: true })).body, { requireSignature: true });
  assertError(
    t,
    await chat(w.env, { action: 'server.status', serverId: w.aServer }, undefined),
    403,
    'FORBIDDEN',
    'A refuses unsigned calls',
  );
  t.deepEqual(
    (await audited(w, w.a.accountId, 'chat.sig-rejected')).map((r) => r.details.reason),
    ['this community accepts signed chat calls only'],
  );
  t.is((await chat(w.env, { action: 'server.status', serverId: w.bServer }, undefined)).status, 200, 'B still takes them');
  const bot = await newBot(t, w, w.a);
  t.is((await chat(w.env, { action: 'server.status', serverId: w.aServer }, bot)).status, 200, "A's own bot's signed calls pass");
  assertError(t, await chat(w.env, { action: 'server.status', serverId: w.aServer }, undefined), 403, 'FORBIDDEN');
  const viewer = await userWithRole(w.env, 'viewer', w.a.accountId);
  assertError(t, await api(t, w.env, viewer, 'put', '/api/chat/settings', { requireSignature: false }), 403, 'FORBIDDEN');
});

test('refusals are audited in the community the call would have acted in; an unknown bot id is refused', async (t) => {
  const w = await world(t);
  const bot = await newBot(t, w, w.a);
  assertError(
    t,
    await chat(
      w.env,
      { action: 'server.status', serverId: w.aServer },
      { botId: bot.botId, secret: 'svcb_not-the-secret-of-this-bot-at-all-xxxxxxxx' },
    ),
    403,
    'FORBIDDEN',
  );
  assertError(
    t,
    await chat(
      w.env,
      { action: 'server.status', serverId: w.bServer },
      { botId: '00000000-0000-4000-8000-000000000000', secret: bot.secret },
    ),
    403,
    'FORBIDDEN',
    'no such bot',
  );
  assertError(
    t,
    await w.env.request
      .post('/api/chat/action')
      .set('X-Chat-Bot', bot.botId)
      .send({ action: 'server.status', chatUserId: alice, serverId: w.aServer }),
    403,
    'FORBIDDEN',
    'naming a bot without signing',
  );
  t.deepEqual(
    (await audited(w, w.a.accountId, 'chat.sig-rejected')).map((r) => r.details.reason),
    ['the signature does not match', 'a call naming a bot (X-Chat-Bot) must be signed by it'],
  );
  t.deepEqual(
    (await audited(w, w.b.accountId, 'chat.sig-rejected')).map((r) => r.details.reason),
    ['X-Chat-Bot names no chat bot of this service'],
  );
  t.is((await audited(w, w.operator.accountId, 'chat.sig-rejected')).length, 0);
});

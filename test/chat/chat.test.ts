// The chat bot's calls: the signature and its window, replays across processes, unsigned calls,
// role mappings (endpoints and the file itself), audit entries and the path's rate cap.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import supertest from 'supertest';
import { createApp } from '../../src/app.ts';
import { closeDeps, connectDeps, createDeps } from '../../src/deps.ts';
import { chatSignature } from '../../src/chat/signature.ts';
import { setupOperator, userWithRole } from '../helpers/controller.ts';
import { api, envFor } from '../helpers/controller-http.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertError } from '../helpers/data-api.ts';
import { assertSchema, ev, ingest } from '../helpers/seed.ts';
import { tempDirSync } from '../helpers/temp-dir.ts';
import { registerServer } from '../../src/servers/server.ts';

const secret = 'a chat signing secret of at least 32 characters';
const alice = '175928847299117063';
const bob = '175928847299117064';

async function chatEnv(t: ExecutionContext, env: Record<string, string> = {}) {
  const rolesDir = tempDirSync(t, 'chat-roles-');
  const e = await envFor(t, { CHAT_SIGNING_SECRET: secret, CHAT_ROLES_DIR: rolesDir, ...env });
  const owner = await setupOperator(e);
  const { server, ingestToken } = await registerServer(e.deps, owner.accountId, { name: 'Chernarus #1' });
  return { env: e, owner, serverId: server.id, ingestToken, rolesDir };
}

interface Call {
  action: string;
  chatUserId?: string;
  serverId?: string;
  params?: Record<string, unknown>;
}

async function chat(env: TestEnv | supertest.Agent, body: Call, sign?: { secret?: string; atSeconds?: number }) {
  const request = 'request' in env ? env.request : env;
  const full = { chatUserId: alice, ...body };
  let req = request.post('/api/chat/action').send(full);
  if (sign) {
    const ts = String(sign.atSeconds ?? Math.floor(('deps' in env ? env.deps.clock.now() : Date.now()) / 1000));
    req = req.set('X-Chat-Timestamp', ts).set('X-Chat-Signature', chatSignature(sign.secret ?? secret, ts, full.action, full.chatUserId));
  }
  const res = await req;
  // A signature is good once: the next call of the same user and action is signed a second later.
  if (sign && 'deps' in env) env.clock.advance(1000);
  return res;
}

async function auditActions(
  env: TestEnv,
  accountId: string,
): Promise<{ action: string; actor_type: string; actor_name: string; details: Record<string, unknown> }[]> {
  const { rows } = await env.deps.db.query(
    'SELECT action, actor_type, actor_name, details FROM audit_log WHERE account_id = $1 ORDER BY id',
    [accountId],
  );
  return rows;
}

test('a signed call runs and answers with a printable text; it is audited under the chat user', async (t) => {
  const { env, owner, serverId, ingestToken } = await chatEnv(t);
  const now = env.clock.now();
  t.is(
    (
      await ingest(env, { serverId, token: ingestToken }, [
        ev.status(now - 1000, { map: 'chernarusplus', players: 2, fps: 58.5 }),
        ev.presence('player.connect', now - 500, 1),
        ev.presence('player.connect', now - 400, 2),
      ])
    ).status,
    200,
  );
  const status = await chat(env, { action: 'server.status', serverId }, {});
  t.is(status.status, 200, JSON.stringify(status.body));
  assertSchema(t, 'chat-action-result.json', status.body);
  t.is(status.body.result.text, 'Chernarus #1: online, chernarusplus, 2 players, 58.5 fps');
  const players = await chat(env, { action: 'players.list', serverId }, {});
  t.is(players.body.result.text, '2 online: player2, player1');
  t.is(players.body.result.count, 2);
  const audit = (await auditActions(env, owner.accountId)).filter((a) => a.action === 'chat.action');
  t.deepEqual(
    audit.map((a) => [a.actor_type, a.actor_name, a.details.signed]),
    [
      ['chat', `chat user ${alice}`, true],
      ['chat', `chat user ${alice}`, true],
    ],
  );
});

test('signatures: a wrong secret, a stale or future timestamp (299 s in, 301 s out) and a lone header answer 403 and write chat.sig-rejected', async (t) => {
  const { env, owner, serverId } = await chatEnv(t);
  // Each signed call moves the clock a second; the window is measured from the clock at the call.
  const at = (offset: number) => ({ atSeconds: Math.floor(env.clock.now() / 1000) + offset });
  assertError(
    t,
    await chat(env, { action: 'server.status', serverId }, { secret: 'another secret of at least 32 characters!' }),
    403,
    'FORBIDDEN',
    'wrong secret',
  );
  t.is((await chat(env, { action: 'server.status', serverId }, at(-299))).status, 200, '299 s old');
  t.is((await chat(env, { action: 'server.status', serverId }, at(299))).status, 200, '299 s ahead');
  assertError(t, await chat(env, { action: 'server.status', serverId }, at(-301)), 403, 'FORBIDDEN', '301 s old');
  assertError(t, await chat(env, { action: 'server.status', serverId }, at(301)), 403, 'FORBIDDEN', '301 s ahead');
  const ts = String(at(0).atSeconds);
  assertError(
    t,
    await env.request.post('/api/chat/action').set('X-Chat-Timestamp', ts).send({ action: 'server.status', chatUserId: alice, serverId }),
    403,
    'FORBIDDEN',
    'timestamp alone',
  );
  // The signature covers the chat user: another user's signature does not verify.
  const forged = await env.request
    .post('/api/chat/action')
    .set('X-Chat-Timestamp', ts)
    .set('X-Chat-Signature', chatSignature(secret, ts, 'server.status', bob))
    .send({ action: 'server.status', chatUserId: alice, serverId });
  assertError(t, forged, 403, 'FORBIDDEN', 'signed for another user');
  const rejected = (await auditActions(env, owner.accountId)).filter((a) => a.action === 'chat.sig-rejected');
  t.deepEqual(
    rejected.map((a) => a.details.reason),
    [
      'the signature does not match',
      'the timestamp is more than 300 s old',
      'the timestamp is more than 300 s ahead',
      'both X-Chat-Timestamp and X-Chat-Signature are needed',
      'the signature does not match',
    ],
  );
  t.true(rejected.every((a) => a.actor_type === 'chat'));
  t.false(JSON.stringify(rejected).includes(secret), 'no secret in the audit log');
});

test('a replayed signature is refused, also by another web process', async (t) => {
  const { env, serverId } = await chatEnv(t);
  const other = createDeps(env.deps.config, { clock: env.clock, log: env.deps.log });
  t.teardown(() => closeDeps(other));
  await connectDeps(other);
  const ts = String(Math.floor(env.clock.now() / 1000));
  const headers = { 'X-Chat-Timestamp': ts, 'X-Chat-Signature': chatSignature(secret, ts, 'server.status', alice) };
  const body = { action: 'server.status', chatUserId: alice, serverId };
  t.is((await env.request.post('/api/chat/action').set(headers).send(body)).status, 200);
  assertError(t, await env.request.post('/api/chat/action').set(headers).send(body), 403, 'FORBIDDEN', 'replayed here');
  assertError(
    t,
    await supertest(createApp(other).callback()).post('/api/chat/action').set(headers).send(body),
    403,
    'FORBIDDEN',
    'replayed to another process',
  );
});

test('unsigned calls run with the chat-bot role, audited as "Chat Bot (unverified)"; an operator setting refuses them', async (t) => {
  const { env, owner, serverId } = await chatEnv(t);
  const res = await chat(env, { action: 'server.status', serverId });
  t.is(res.status, 200);
  const audit = (await auditActions(env, owner.accountId)).filter((a) => a.action === 'chat.action');
  t.deepEqual(
    audit.map((a) => [a.actor_name, a.details.role, a.details.signed]),
    [['Chat Bot (unverified)', 'chat-bot', false]],
  );

  const strict = await chatEnv(t, { CHAT_REQUIRE_SIGNATURE: 'true' });
  assertError(t, await chat(strict.env, { action: 'server.status', serverId: strict.serverId }), 403, 'FORBIDDEN', 'unsigned refused');
  t.is((await chat(strict.env, { action: 'server.status', serverId: strict.serverId }, {})).status, 200, 'signed still runs');
});

test('bad calls answer 400 with what is wrong; an unknown server 404', async (t) => {
  const { env, serverId } = await chatEnv(t);
  const unknown = await chat(env, { action: 'server.explode', serverId }, {});
  assertError(t, unknown, 400, 'BAD_REQUEST');
  t.regex(unknown.body.message, /action must be one of: server\.status, players\.list/);
  t.regex((await chat(env, { action: 'server.status' }, {})).body.message, /serverId is required/);
  t.regex((await chat(env, { action: 'server.status', serverId, params: { x: 1 } }, {})).body.message, /params: this action takes none/);
  assertError(t, await chat(env, { action: 'server.status', serverId: '5f0c6a2e-1d4b-4c8e-a3f7-2b9d8e6c1aff' }, {}), 404, 'NOT_FOUND');
  assertError(
    t,
    await env.request.post('/api/chat/action').send({ action: 'server.status', chatUserId: 'not-a-snowflake', serverId }),
    400,
    'BAD_REQUEST',
  );
});

test('role mappings: set, list and remove with users.manage, audited; unknown roles are a 400; others get 403', async (t) => {
  const { env, owner } = await chatEnv(t);
  const set = await api(t, env, owner, 'put', `/api/chat/user-roles/${alice}`, { role: 'moderator' });
  t.deepEqual(set.body, { chatUserId: alice, role: 'moderator' });
  await api(t, env, owner, 'put', `/api/chat/user-roles/${bob}`, { role: 'viewer' });
  t.deepEqual((await api(t, env, owner, 'get', '/api/chat/user-roles')).body, {
    mappings: [
      { chatUserId: alice, role: 'moderator' },
      { chatUserId: bob, role: 'viewer' },
    ],
  });
  assertError(t, await api(t, env, owner, 'put', `/api/chat/user-roles/${alice}`, { role: 'god' }), 400, 'BAD_REQUEST');
  assertError(t, await api(t, env, owner, 'put', '/api/chat/user-roles/not-an-id', { role: 'viewer' }), 400, 'BAD_REQUEST');
  t.is((await api(t, env, owner, 'delete', `/api/chat/user-roles/${bob}`)).status, 204);
  assertError(t, await api(t, env, owner, 'delete', `/api/chat/user-roles/${bob}`), 404, 'NOT_FOUND');
  const audit = (await auditActions(env, owner.accountId)).filter((a) => a.action.startsWith('chat.user-role'));
  t.deepEqual(
    audit.map((a) => [a.action, a.details.role ?? a.details.before]),
    [
      ['chat.user-role.set', 'moderator'],
      ['chat.user-role.set', 'viewer'],
      ['chat.user-role.remove', 'viewer'],
    ],
  );
  const admin = await userWithRole(env, 'admin', owner.accountId);
  assertError(t, await api(t, env, admin, 'get', '/api/chat/user-roles'), 403, 'FORBIDDEN');
  assertError(t, await api(t, env, admin, 'put', `/api/chat/user-roles/${alice}`, { role: 'owner' }), 403, 'FORBIDDEN');
});

test("a signed call acts with the user's mapped role; an unsigned one never does; a hand edit of the file is picked up", async (t) => {
  const { env, owner, serverId, rolesDir } = await chatEnv(t);
  await api(t, env, owner, 'put', `/api/chat/user-roles/${alice}`, { role: 'moderator' });
  const roleOf = async (signed: boolean) => {
    await chat(env, { action: 'server.status', serverId }, signed ? {} : undefined);
    const audit = (await auditActions(env, owner.accountId)).filter((a) => a.action === 'chat.action');
    return audit.at(-1)!.details.role;
  };
  t.is(await roleOf(true), 'moderator');
  t.is(await roleOf(false), 'chat-bot');
  const file = join(rolesDir, `${owner.accountId}.json`);
  writeFileSync(file, JSON.stringify({ [alice]: 'admin' }));
  utimesSync(file, new Date(), new Date(Date.now() + 5000));
  t.is(await roleOf(true), 'admin');
  writeFileSync(file, '{ not json');
  utimesSync(file, new Date(), new Date(Date.now() + 10_000));
  t.is(await roleOf(true), 'chat-bot', 'a broken file grants nothing');
});

test('the bot path has its own per-IP cap', async (t) => {
  const { env, serverId } = await chatEnv(t, { RATE_CHAT: '3' });
  for (let i = 0; i < 3; i++) t.is((await chat(env, { action: 'server.status', serverId })).status, 200);
  const refused = await chat(env, { action: 'server.status', serverId });
  assertError(t, refused, 429, 'RATE_LIMITED');
  t.truthy(refused.headers['retry-after']);
});

test('moderation actions run through the bans, queue and server-control code, under the chat user; an unsigned call is denied them', async (t) => {
  const { env, owner, serverId } = await chatEnv(t);
  const player = '76561198000000077';
  const denied = await chat(env, { action: 'ban.create', serverId, params: { platformId: player } });
  assertError(t, denied, 403, 'FORBIDDEN', 'unsigned: chat-bot role only');
  t.regex(denied.body.message, /chat-bot lacks the permission bans\.manage/);
  t.is((await auditActions(env, owner.accountId)).filter((a) => a.action === 'chat.denied').length, 1);

  await api(t, env, owner, 'put', `/api/chat/user-roles/${alice}`, { role: 'moderator' });
  const banned = await chat(
    env,
    { action: 'ban.create', serverId, params: { platformId: player, reason: 'aimbot', durationMinutes: 60 } },
    {},
  );
  t.is(banned.status, 200, JSON.stringify(banned.body));
  t.regex(banned.body.result.text, /^banned 76561198000000077 on every server until /);
  const listed = await api(t, env, owner, 'get', `/api/bans/${banned.body.result.banId}`);
  t.like(listed.body, { platformId: player, reason: 'aimbot' });
  assertError(
    t,
    await chat(env, { action: 'ban.create', serverId, params: { platformId: player } }, {}),
    409,
    'CONFLICT',
    'one ban in force per player',
  );
  t.is((await chat(env, { action: 'ban.revoke', serverId, params: { banId: banned.body.result.banId } }, {})).status, 200);
  t.truthy((await api(t, env, owner, 'get', `/api/bans/${banned.body.result.banId}`)).body.liftedAt);
  // Lifting it again is the caller's mistake, answered as the controller answers it.
  assertError(
    t,
    await chat(env, { action: 'ban.revoke', serverId, params: { banId: banned.body.result.banId } }, {}),
    409,
    'CONFLICT',
    'a lifted ban is not lifted twice',
  );

  const queued = await chat(env, { action: 'queue.add', serverId, params: { platformId: player, durationDays: 30 } }, {});
  t.regex(queued.body.result.text, /^added priority queue for 76561198000000077 on every server until /);
  t.regex(
    (await chat(env, { action: 'queue.add', serverId, params: { platformId: player, durationDays: 30 } }, {})).body.result.text,
    /^extended/,
  );
  const entries = (await api(t, env, owner, 'get', '/api/priority-queue')).body.entries as { platformId: string }[];
  t.deepEqual(
    entries.map((e) => e.platformId),
    [player],
  );
  t.is((await chat(env, { action: 'queue.remove', serverId, params: { platformId: player } }, {})).status, 200);
  t.deepEqual((await api(t, env, owner, 'get', '/api/priority-queue')).body.entries, []);

  // A moderator may not restart; an admin mapping may (the server's agent carries it out: here it is queued).
  assertError(t, await chat(env, { action: 'server.restart', serverId }, {}), 403, 'FORBIDDEN');
  await api(t, env, owner, 'put', `/api/chat/user-roles/${alice}`, { role: 'admin' });
  const restart = await chat(env, { action: 'server.restart', serverId }, {});
  t.is(restart.body.result.status, 'pending');
  t.regex(
    restart.body.result.text,
    /^restart queued: the server's agent warns the players and restarts it 5 minutes after it takes the command$/,
  );
  t.like((await api(t, env, owner, 'get', `/api/servers/${serverId}/commands/${restart.body.result.commandId}`)).body, {
    kind: 'restart',
    status: 'pending',
    params: { delaySeconds: 300, message: null },
    requestedBy: { type: 'chat', name: `chat user ${alice}` },
  });

  const actors = (await auditActions(env, owner.accountId)).filter((a) =>
    ['ban.create', 'ban.lift', 'queue.add', 'queue.remove', 'server.restart'].includes(a.action),
  );
  t.true(actors.length >= 5);
  t.true(
    actors.every((a) => a.actor_type === 'chat' && a.actor_name === `chat user ${alice}`),
    JSON.stringify(actors.map((a) => [a.action, a.actor_type, a.actor_name])),
  );
  const bad = await chat(env, { action: 'ban.create', serverId, params: { platformId: 'nobody', durationMinutes: 0 } }, {});
  assertError(t, bad, 400, 'BAD_REQUEST');
  t.regex(bad.body.message, /^params\.platformId/);
});

test('trust.lookup answers the public score with a printable line, signed or not, with or without a server', async (t) => {
  const { env, serverId, ingestToken } = await chatEnv(t);
  const now = env.clock.now();
  t.is((await ingest(env, { serverId, token: ingestToken }, [ev.presence('player.connect', now - 60_000, 5)])).status, 200);
  const platformId = '76561198000000005';
  const publicScore = (await env.request.get(`/api/v1/trust/${platformId}`)).body as Record<string, unknown>;
  for (const call of [
    { action: 'trust.lookup', params: { identifier: platformId } },
    { action: 'trust.lookup', serverId, params: { identifier: platformId } },
  ]) {
    const res = await chat(env, call);
    t.is(res.status, 200, JSON.stringify(res.body));
    t.deepEqual(res.body.result.score, publicScore);
    t.is(
      res.body.result.text,
      `${platformId}: trust ${publicScore.score as number}/100, ${String(publicScore.band).replace('_', ' ')} (confidence ${publicScore.confidence as number}): ${(publicScore.reasons as string[]).slice(1).join('; ') || 'no history yet'}`,
    );
  }
  t.is((await chat(env, { action: 'trust.lookup', params: { identifier: platformId } }, {})).status, 200, 'signed');
  assertError(
    t,
    await chat(env, { action: 'trust.lookup', params: { identifier: 'not an id' } }),
    400,
    'BAD_REQUEST',
    'malformed identifier',
  );
  assertError(
    t,
    await chat(env, { action: 'trust.lookup', params: { identifier: '76561198000009999' } }),
    404,
    'NOT_FOUND',
    'unknown player',
  );
  const missing = await chat(env, { action: 'trust.lookup', params: {} });
  assertError(t, missing, 400, 'BAD_REQUEST');
  t.regex(missing.body.message, /^params .*identifier/);
});

test('link ties the signing chat user to a known player, so discord:<id> lookups find them; unsigned calls are refused', async (t) => {
  const { env, serverId, ingestToken } = await chatEnv(t);
  const now = env.clock.now();
  t.is(
    (
      await ingest(env, { serverId, token: ingestToken }, [
        ev.presence('player.connect', now - 60_000, 6),
        ev.presence('player.connect', now - 60_000, 7),
      ])
    ).status,
    200,
  );
  assertError(t, await env.request.get(`/api/v1/trust/discord:${alice}`), 404, 'NOT_FOUND', 'not linked yet');
  // The prefix forces the chat kind, even for digits in the Steam64 range (a known player's): 404, not 400.
  assertError(
    t,
    await env.request.get('/api/v1/trust/discord:76561198000000006'),
    404,
    'NOT_FOUND',
    'a chat id in the Steam64 range, unlinked',
  );

  const unsigned = await chat(env, { action: 'link', params: { platformId: '76561198000000006' } });
  assertError(t, unsigned, 403, 'FORBIDDEN', 'the chat user is unproven');
  assertError(t, await env.request.get(`/api/v1/trust/discord:${alice}`), 404, 'NOT_FOUND', 'an unsigned link changes nothing');

  const linked = await chat(env, { action: 'link', params: { platformId: '76561198000000006' } }, {});
  t.is(linked.status, 200, JSON.stringify(linked.body));
  t.is(linked.body.result.text, `linked discord:${alice} to 76561198000000006`);
  t.is((await env.request.get(`/api/v1/trust/discord:${alice}`)).body.platformId, '76561198000000006');
  // A new link replaces the old one; another chat user's link is their own.
  t.is((await chat(env, { action: 'link', serverId, params: { platformId: '76561198000000007' } }, {})).status, 200);
  t.is((await env.request.get(`/api/v1/trust/discord:${alice}`)).body.platformId, '76561198000000007');
  assertError(t, await env.request.get(`/api/v1/trust/discord:${bob}`), 404, 'NOT_FOUND', 'bob never linked');

  assertError(
    t,
    await chat(env, { action: 'link', params: { platformId: '76561198000009999' } }, {}),
    404,
    'NOT_FOUND',
    'a player the network never saw',
  );
  const bad = await chat(env, { action: 'link', params: { platformId: 'STEAM_9:9' } }, {});
  assertError(t, bad, 400, 'BAD_REQUEST');
  t.regex(bad.body.message, /^params\.platformId/);
});

// /api/webhooks: create, list, change, pause and resume, delete; a standard endpoint's secret shown
// at creation and rotation only (never listed, audited or logged); serverIds limited to the
// account's live servers; another account's endpoint a 404 for every route; servers.manage only;
// audit entries for create, update, delete and rotate.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { pino } from 'pino';
import supertest from 'supertest';
import { createApp } from '../../src/app.ts';
import { registerServer } from '../../src/servers/server.ts';
import { userWithRole } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import { api, controllerEnv, logCollector } from '../helpers/controller-http.ts';
import type { TestEnv } from '../helpers/env.ts';

const hook = 'http://127.0.0.1:9/hook';

async function world(t: ExecutionContext, env?: TestEnv) {
  const e = env ?? (await controllerEnv({ WEBHOOK_ALLOW_PRIVATE: '1' }));
  if (!env) t.teardown(() => e.close());
  const a = await userWithRole(e, 'owner');
  const b = await userWithRole(e, 'owner');
  const server = async (s: Session) => (await registerServer(e.deps, s.accountId, { name: 'server' })).server.id;
  return { env: e, a, b, aServer: await server(a), bServer: await server(b) };
}

test('a standard endpoint: created with its secret shown once, listed without it, rotated, deleted; each change audited without it', async (t) => {
  const { env, a } = await world(t);
  const created = await api(t, env, a, 'post', '/api/webhooks', { url: hook, format: 'standard', events: ['ban.created', 'ban.lifted'] });
  t.is(created.status, 201);
  const secret = created.body.secret as string;
  t.regex(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  const id = created.body.webhook.id as string;
  t.like(created.body.webhook, {
    url: hook,
    format: 'standard',
    events: ['ban.created', 'ban.lifted'],
    serverIds: null,
    paused: false,
    waiting: 0,
  });

  const list = await api(t, env, a, 'get', '/api/webhooks');
  t.is(list.body.webhooks.length, 1);
  t.false(JSON.stringify(list.body).includes(secret.slice(6)));
  t.false(JSON.stringify((await api(t, env, a, 'get', `/api/webhooks/${id}`)).body).includes(secret.slice(6)));

  const rotated = await api(t, env, a, 'post', `/api/webhooks/${id}/rotate-secret`);
  t.is(rotated.status, 200);
  t.not(rotated.body.secret, secret);
  t.is(rotated.body.webhook.previousSecretValidUntil, new Date(env.clock.now() + 24 * 3600_000).toISOString());

  const changed = await api(t, env, a, 'patch', `/api/webhooks/${id}`, { events: ['kill'], paused: true });
  t.like(changed.body, { events: ['kill'], paused: true, pausedReason: 'paused by hand', pausedBy: 'hand' });
  const resumed = await api(t, env, a, 'patch', `/api/webhooks/${id}`, { paused: false });
  t.like(resumed.body, { paused: false, pausedReason: null, pausedAt: null });

  t.is((await api(t, env, a, 'delete', `/api/webhooks/${id}`)).status, 204);
  t.is((await api(t, env, a, 'get', `/api/webhooks/${id}`)).status, 404);

  const audit = await api(t, env, a, 'get', '/api/audit?action=webhook');
  const actions = (audit.body.entries as { action: string }[]).map((e) => e.action).reverse();
  t.deepEqual(actions, ['webhook.create', 'webhook.rotate-secret', 'webhook.update', 'webhook.update', 'webhook.delete']);
  const auditText = JSON.stringify(audit.body);
  t.false(auditText.includes(secret.slice(6)));
  t.false(auditText.includes(rotated.body.secret.slice(6)));
  t.false(auditText.includes('/hook'), 'the audit keeps the origin, not the path (a Discord URL path is its token)');
});

test('a discord endpoint has no secret, and none to rotate', async (t) => {
  const { env, a } = await world(t);
  const created = await api(t, env, a, 'post', '/api/webhooks', { url: hook, format: 'discord', events: ['kill'] });
  t.is(created.status, 201);
  t.is(created.body.secret, undefined);
  const rotate = await api(t, env, a, 'post', `/api/webhooks/${created.body.webhook.id}/rotate-secret`);
  t.is(rotate.status, 400);
});

test('serverIds must be live servers of the account: another account’s or an unknown server is a 400', async (t) => {
  const { env, a, aServer, bServer } = await world(t);
  const own = await api(t, env, a, 'post', '/api/webhooks', {
    url: hook,
    format: 'discord',
    events: ['kill'],
    serverIds: [aServer.toUpperCase()],
  });
  t.is(own.status, 201);
  t.deepEqual(own.body.webhook.serverIds, [aServer]);
  const other = await api(t, env, a, 'post', '/api/webhooks', { url: hook, format: 'discord', events: ['kill'], serverIds: [bServer] });
  t.is(other.status, 400);
  t.regex(other.body.message, /no such server in the account/);
  const patched = await api(t, env, a, 'patch', `/api/webhooks/${own.body.webhook.id}`, { serverIds: [bServer] });
  t.is(patched.status, 400);
  const all = await api(t, env, a, 'patch', `/api/webhooks/${own.body.webhook.id}`, { serverIds: null });
  t.is(all.body.serverIds, null);
});

test('bodies: unknown events, fields or formats, and an empty change are 400s', async (t) => {
  const { env, a } = await world(t);
  for (const body of [
    { url: hook, format: 'discord', events: ['player.watched.left'] },
    { url: hook, format: 'discord', events: [] },
    { url: hook, format: 'discord', events: ['player.watched.joined'], mentionRoleId: '@here' },
    { url: hook, format: 'discord', events: ['player.watched.joined'], mentionRoleId: '1234' },
    { url: hook, format: 'standard', events: ['player.watched.joined'], mentionRoleId: '112233445566778899' },
    { url: hook, format: 'slack', events: ['kill'] },
    { url: hook, format: 'discord', events: ['kill'], secret: 'x' },
    { format: 'discord', events: ['kill'] },
  ]) {
    t.is((await api(t, env, a, 'post', '/api/webhooks', body)).status, 400, JSON.stringify(body));
  }
  const created = await api(t, env, a, 'post', '/api/webhooks', { url: hook, format: 'discord', events: ['kill'] });
  t.is((await api(t, env, a, 'patch', `/api/webhooks/${created.body.webhook.id}`, {})).status, 400);
  t.is((await api(t, env, a, 'patch', `/api/webhooks/${created.body.webhook.id}`, { format: 'standard' })).status, 400);
  const standard = await api(t, env, a, 'post', '/api/webhooks', { url: hook, format: 'standard', events: ['kill'] });
  const refused = await api(t, env, a, 'patch', `/api/webhooks/${standard.body.webhook.id}`, { mentionRoleId: '112233445566778899' });
  t.is(refused.status, 400);
  t.regex(refused.body.message, /mentionRoleId: only a discord endpoint/);
});

test("a Discord endpoint's role to mention: set at creation, changed, cleared, audited", async (t) => {
  const { env, a } = await world(t);
  const created = await api(t, env, a, 'post', '/api/webhooks', {
    url: hook,
    format: 'discord',
    events: ['player.watched.joined'],
    mentionRoleId: '112233445566778899',
  });
  t.is(created.status, 201);
  t.is(created.body.webhook.mentionRoleId, '112233445566778899');
  const id = created.body.webhook.id as string;
  t.is(
    (await api(t, env, a, 'patch', `/api/webhooks/${id}`, { mentionRoleId: '998877665544332211' })).body.mentionRoleId,
    '998877665544332211',
  );
  t.is((await api(t, env, a, 'patch', `/api/webhooks/${id}`, { paused: true })).body.mentionRoleId, '998877665544332211', 'kept');
  t.is((await api(t, env, a, 'patch', `/api/webhooks/${id}`, { mentionRoleId: null })).body.mentionRoleId, null);
  t.is((await api(t, env, a, 'get', `/api/webhooks/${id}`)).body.mentionRoleId, null);
  const { rows } = await env.deps.db.query<{ details: { mentionRoleId?: string | null } }>(
    "SELECT details FROM audit_log WHERE action = 'webhook.update' AND target_id = $1 ORDER BY id",
    [id],
  );
  t.deepEqual(
    rows.map((r) => r.details.mentionRoleId),
    ['998877665544332211', undefined, null],
  );
});

test('tenancy: another account can neither see nor change nor test an endpoint, nor read its deliveries', async (t) => {
  const { env, a, b } = await world(t);
  const created = await api(t, env, a, 'post', '/api/webhooks', { url: hook, format: 'standard', events: ['kill'] });
  const id = created.body.webhook.id as string;
  t.deepEqual((await api(t, env, b, 'get', '/api/webhooks')).body.webhooks, []);
  t.is((await api(t, env, b, 'get', `/api/webhooks/${id}`)).status, 404);
  t.is((await api(t, env, b, 'patch', `/api/webhooks/${id}`, { paused: true })).status, 404);
  t.is((await api(t, env, b, 'post', `/api/webhooks/${id}/rotate-secret`)).status, 404);
  t.is((await api(t, env, b, 'post', `/api/webhooks/${id}/test`)).status, 404);
  t.is((await api(t, env, b, 'get', `/api/webhooks/${id}/deliveries`)).status, 404);
  t.is((await api(t, env, b, 'delete', `/api/webhooks/${id}`)).status, 404);
  t.is((await api(t, env, a, 'get', `/api/webhooks/${id}`)).body.paused, false);
  t.is((await api(t, env, a, 'get', '/api/webhooks/not-a-uuid')).status, 404);
});

test('servers.manage only: a moderator and a viewer are refused', async (t) => {
  const { env, a } = await world(t);
  for (const role of ['moderator', 'viewer'] as const) {
    const user = await userWithRole(env, role, a.accountId);
    t.is((await api(t, env, user, 'get', '/api/webhooks')).status, 403);
    t.is((await api(t, env, user, 'post', '/api/webhooks', { url: hook, format: 'discord', events: ['kill'] })).status, 403);
  }
  t.is((await api(t, env, undefined, 'get', '/api/webhooks')).status, 401);
});

test('the secret never reaches the log', async (t) => {
  const { env, a } = await world(t);
  const { stream, lines } = logCollector();
  const log = pino({ level: 'trace', base: undefined }, stream);
  const logged = { ...env, request: supertest(createApp({ ...env.deps, log }).callback()) };
  const created = await api(t, logged, a, 'post', '/api/webhooks', { url: hook, format: 'standard', events: ['kill'] });
  const rotated = await api(t, logged, a, 'post', `/api/webhooks/${created.body.webhook.id}/rotate-secret`);
  t.true(lines.length >= 2);
  const text = lines.join('\n');
  t.false(text.includes(created.body.secret.slice(6)));
  t.false(text.includes(rotated.body.secret.slice(6)));
});

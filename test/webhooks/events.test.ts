// The events besides bans and kills, each queued in the transaction of its change: queue.granted
// when a player is queued or their entry extended; trust.entry.approved to the submitting
// community only when a moderator approves (a rejection sends nothing); a paused endpoint queues
// nothing new; ingestion raises nothing for a server whose account subscribed to nothing.
import test from 'ava';
import { registerServer } from '../../src/servers/server.ts';
import { deliverWebhooks } from '../../src/webhooks/delivery.ts';
import { setupOperator, userWithRole } from '../helpers/controller.ts';
import { api, envFor } from '../helpers/controller-http.ts';
import { t0 } from '../helpers/env.ts';
import { ev, ingest } from '../helpers/seed.ts';
import { decide, submit } from '../helpers/trust.ts';
import { receiver } from '../helpers/webhook-receiver.ts';

interface Sent {
  type: string;
  data: { created?: boolean; entry: Record<string, unknown> & { expiresAt: string } };
}
const bodies = (r: { received: { body: string }[] }) => r.received.map((x) => JSON.parse(x.body) as Sent);

test('queue.granted: a player queued, then their entry extended', async (t) => {
  const env = await envFor(t, { WEBHOOK_ALLOW_PRIVATE: '1' });
  const a = await userWithRole(env, 'owner');
  const r = await receiver(t);
  await api(t, env, a, 'post', '/api/webhooks', { url: r.url, format: 'standard', events: ['queue.granted'] });
  const body = { platformId: '76561198744444444', playerName: 'Mira', durationDays: 30 };
  t.is((await api(t, env, a, 'post', '/api/priority-queue', body)).status, 201);
  t.is((await api(t, env, a, 'post', '/api/priority-queue', body)).status, 200);
  await deliverWebhooks(env.deps);
  const [added, extended] = bodies(r);
  t.is(added!.type, 'queue.granted');
  t.like(added!.data, { created: true, entry: { platformId: '76561198744444444', playerName: 'Mira', serverIds: null, source: 'manual' } });
  t.like(extended!.data, { created: false });
  t.is(Date.parse(extended!.data.entry.expiresAt) - Date.parse(added!.data.entry.expiresAt), 30 * 86_400_000);
});

test('trust.entry.approved goes to the submitting community when approved; a rejection sends nothing', async (t) => {
  const env = await envFor(t, { WEBHOOK_ALLOW_PRIVATE: '1' });
  const moderator = await setupOperator(env);
  const community = await userWithRole(env, 'owner');
  const other = await userWithRole(env, 'owner');
  const mine = await receiver(t);
  const theirs = await receiver(t);
  await api(t, env, community, 'post', '/api/webhooks', { url: mine.url, format: 'standard', events: ['trust.entry.approved'] });
  await api(t, env, other, 'post', '/api/webhooks', { url: theirs.url, format: 'standard', events: ['trust.entry.approved'] });
  const approved = await submit(env, community, { platformId: '76561198755555555' });
  const rejected = await submit(env, community, { platformId: '76561198755555556' });
  await decide(env, moderator, approved.id as string, 'approve');
  await decide(env, moderator, rejected.id as string, 'reject');
  await deliverWebhooks(env.deps);
  t.is(theirs.received.length, 0);
  const events = bodies(mine);
  t.is(events.length, 1);
  t.is(events[0]!.type, 'trust.entry.approved');
  t.like(events[0]!.data.entry, { id: approved.id, platformId: '76561198755555555', category: 'cheating' });
  t.false(JSON.stringify(events).includes('PRIVATE-NOTE'), 'the moderation note stays in the controller');
});

test('a paused endpoint queues nothing new; ingestion writes no outbox row for an account with no endpoint subscribed', async (t) => {
  const env = await envFor(t, { WEBHOOK_ALLOW_PRIVATE: '1' });
  const a = await userWithRole(env, 'owner');
  const b = await userWithRole(env, 'owner');
  const r = await receiver(t);
  const created = await api(t, env, a, 'post', '/api/webhooks', { url: r.url, format: 'discord', events: ['kill', 'server.online'] });
  await api(t, env, b, 'post', '/api/webhooks', { url: r.url, format: 'discord', events: ['ban.created'] });
  const one = await registerServer(env.deps, a.accountId, { name: 'one' });
  const other = await registerServer(env.deps, b.accountId, { name: 'other' });
  const serverOf = (s: typeof one) => ({ serverId: s.server.id, token: s.ingestToken });
  await api(t, env, a, 'patch', `/api/webhooks/${created.body.webhook.id}`, { paused: true });
  await ingest(env, serverOf(one), [ev.status(t0 - 2000), ev.kill(t0 - 1000, 1, 2)]);
  await ingest(env, serverOf(other), [ev.status(t0 - 2000), ev.kill(t0 - 1000, 1, 2)]);
  const { rows } = await env.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_outbox');
  t.is(rows[0]!.n, 0);
  await api(t, env, a, 'patch', `/api/webhooks/${created.body.webhook.id}`, { paused: false });
  await ingest(env, serverOf(one), [ev.kill(t0 - 500, 2, 1)]);
  t.is((await api(t, env, a, 'get', `/api/webhooks/${created.body.webhook.id}`)).body.waiting, 1);
});

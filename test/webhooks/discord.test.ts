// Discord endpoints against a fake Discord (127.0.0.1, WEBHOOK_ALLOW_PRIVATE=1) that checks every
// message against Discord's limits and answers 429 with retry_after once: the wait counts as no
// failure; kills and a server going on and off line, raised by ingestion in the batch's own call,
// arrive in order, batched up to 10 embeds a message, with the players' K/D, the killer's streak
// and no position; a
// server not among the endpoint's serverIds sends nothing; a ban shows its player, reason, length
// and who placed it.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { registerServer } from '../../src/servers/server.ts';
import { deliverWebhooks } from '../../src/webhooks/delivery.ts';
import { userWithRole } from '../helpers/controller.ts';
import { api, envFor } from '../helpers/controller-http.ts';
import { ev, ingest, player } from '../helpers/seed.ts';
import { t0 } from '../helpers/env.ts';
import { receiver } from '../helpers/webhook-receiver.ts';
import type { Receiver } from '../helpers/webhook-receiver.ts';

interface Embed {
  title: string;
  description?: string;
  timestamp: string;
  fields: { name: string; value: string }[];
  footer?: { text: string };
}

/** Every way a message breaks Discord's limits. */
function limitProblems(body: string): string[] {
  const message = JSON.parse(body) as { embeds: Embed[]; allowed_mentions: { parse: string[] } };
  const problems: string[] = [];
  if (message.embeds.length < 1 || message.embeds.length > 10) problems.push(`${message.embeds.length} embeds`);
  let total = 0;
  for (const e of message.embeds) {
    if (e.title.length > 256) problems.push('title');
    if ((e.description ?? '').length > 4096) problems.push('description');
    if (e.fields.length > 25) problems.push('fields');
    for (const f of e.fields) if (f.value.length > 1024 || f.name.length > 256) problems.push('field');
    total +=
      e.title.length +
      (e.description ?? '').length +
      (e.footer?.text.length ?? 0) +
      e.fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
  }
  if (total > 6000) problems.push(`${total} characters`);
  if (message.allowed_mentions.parse.length !== 0) problems.push('mentions');
  return problems;
}

const embedsOf = (r: Receiver, i: number) => (JSON.parse(r.received[i]!.body) as { embeds: Embed[] }).embeds;

async function world(t: ExecutionContext) {
  const env = await envFor(t, { WEBHOOK_ALLOW_PRIVATE: '1' });
  const a = await userWithRole(env, 'owner');
  const one = await registerServer(env.deps, a.accountId, { name: 'Chernarus #1' });
  const two = await registerServer(env.deps, a.accountId, { name: 'Livonia' });
  const discord = await receiver(t, '/api/webhooks/123/token');
  return {
    env,
    a,
    discord,
    one: { serverId: one.server.id, token: one.ingestToken },
    two: { serverId: two.server.id, token: two.ingestToken },
  };
}

test('kills and server status in order, 10 embeds a message, within limits; a 429 with retry_after waits and is no failure', async (t) => {
  const { env, a, discord, one, two } = await world(t);
  discord.answer(
    { status: 429, body: JSON.stringify({ message: 'You are being rate limited.', retry_after: 1.5, global: false }) },
    { status: 204 },
  );
  const created = await api(t, env, a, 'post', '/api/webhooks', {
    url: discord.url,
    format: 'discord',
    events: ['kill', 'server.online', 'server.offline'],
    serverIds: [one.serverId],
  });
  const id = created.body.webhook.id as string;
  t.is((await ingest(env, one, [ev.status(t0 - 60_000, { online: true })])).status, 200);
  const kills = Array.from({ length: 12 }, (_, i) =>
    ev.kill(t0 - 50_000 + i * 1000, 1, i + 2, { distance: 100 + i, isHeadshot: i % 2 === 0, hitZone: 'Head', x: 1234.5, y: 6789.1, z: 12 }),
  );
  t.is((await ingest(env, one, kills)).status, 200);
  t.is((await ingest(env, two, [ev.kill(t0 - 10_000, 1, 2), ev.status(t0 - 9000, { online: true })])).status, 200);
  t.is((await ingest(env, one, [ev.status(t0 - 5000, { online: false }), ev.status(t0 - 4000, { online: false })])).status, 200);
  t.is((await api(t, env, a, 'get', `/api/webhooks/${id}`)).body.waiting, 14, 'online, 12 kills, offline; nothing of the other server');

  await deliverWebhooks(env.deps);
  t.is(discord.received.length, 1);
  await deliverWebhooks(env.deps);
  t.is(discord.received.length, 1, 'waits as asked');
  env.clock.advance(1500);
  await deliverWebhooks(env.deps);
  t.is(discord.received.length, 3);
  for (const r of discord.received) t.deepEqual(limitProblems(r.body), []);
  t.is(embedsOf(discord, 1).length, 10);
  const embeds = [...embedsOf(discord, 1), ...embedsOf(discord, 2)];
  t.is(embeds.length, 14);
  t.is(embeds[0]!.title, 'Chernarus #1 is online');
  t.is(embeds[13]!.title, 'Chernarus #1 is offline');
  const killEmbeds = embeds.slice(1, 13);
  t.deepEqual(
    killEmbeds.map((e) => e.title),
    kills.map((_, i) => `${player(1).name} killed ${player(i + 2).name}`),
  );
  const first = killEmbeds[0]!;
  t.is(first.timestamp, new Date(t0 - 50_000).toISOString());
  t.is(first.footer?.text, 'Chernarus #1');
  const fields = Object.fromEntries(first.fields.map((f) => [f.name, f.value]));
  t.like(fields, {
    Weapon: 'M4A1',
    Distance: '100.0 m',
    'Hit zone': 'Head',
    Headshot: 'yes',
    [`K/D ${player(1).name}`]: '12.00 (12/0)',
    [`K/D ${player(2).name}`]: '0.00 (0/1)',
    [`Streak ${player(1).name}`]: '1 kill since last death',
  });
  t.deepEqual(
    killEmbeds.map((e) => e.fields.find((f) => f.name.startsWith('Streak'))!.value),
    kills.map((_, i) => `${i + 1} kill${i === 0 ? '' : 's'} since last death`),
  );
  t.false(/1234|6789|position|coord/i.test(JSON.stringify(embeds)), 'no position');

  const deliveries = (await api(t, env, a, 'get', `/api/webhooks/${id}/deliveries`)).body.deliveries as {
    outcome: string;
    attempt: number;
    eventIds: string[];
  }[];
  t.deepEqual(deliveries.map((d) => [d.outcome, d.attempt, d.eventIds.length]).reverse(), [
    ['rate-limited', 1, 10],
    ['delivered', 1, 10],
    ['delivered', 1, 4],
  ]);
  t.like((await api(t, env, a, 'get', `/api/webhooks/${id}`)).body, { waiting: 0, failingSince: null });
});

test('a ban and its lifting: player, reason, length and who; a player name cannot mention anyone or break the markdown', async (t) => {
  const { env, a, discord } = await world(t);
  await api(t, env, a, 'post', '/api/webhooks', { url: discord.url, format: 'discord', events: ['ban.created', 'ban.lifted'] });
  const ban = await api(t, env, a, 'post', '/api/bans', {
    platformId: '76561198733333333',
    playerName: '@everyone **Rexx**',
    reason: 'aimbot',
    durationMinutes: 7 * 24 * 60 + 90,
  });
  await api(t, env, a, 'delete', `/api/bans/${ban.body.id}`);
  await deliverWebhooks(env.deps);
  t.is(discord.received.length, 1);
  t.deepEqual(limitProblems(discord.received[0]!.body), []);
  const [banned, lifted] = embedsOf(discord, 0);
  t.is(banned!.title, 'Banned: @everyone \\*\\*Rexx\\*\\*');
  const fields = Object.fromEntries(banned!.fields.map((f) => [f.name, f.value]));
  t.like(fields, { Player: '@everyone \\*\\*Rexx\\*\\* (76561198733333333)', Reason: 'aimbot', By: a.username.replace(/_/g, '\\_') });
  t.regex(fields.Length!, /^7 days 1 hour, until <t:\d+:f>$/);
  t.is(lifted!.title, 'Ban lifted: @everyone \\*\\*Rexx\\*\\*');
  t.like(Object.fromEntries(lifted!.fields.map((f) => [f.name, f.value])), { 'Lifted by': a.username.replace(/_/g, '\\_') });
});

test("the killer's streak: kills since their last death on that server, in the events' time order, across batches", async (t) => {
  const { env, a, one, two } = await world(t);
  const r = await receiver(t);
  await api(t, env, a, 'post', '/api/webhooks', { url: r.url, format: 'standard', events: ['kill'] });
  let ts = env.clock.now() - 100_000;
  const at = () => (ts += 1000);
  const death = (n: number, tsMs: number) => ({ id: crypto.randomUUID(), type: 'death', ts: tsMs, ...player(n), cause: 'fall' });
  await ingest(env, one, [ev.kill(at(), 1, 2), ev.kill(at(), 1, 3)]);
  await ingest(env, one, [ev.kill(at(), 1, 4), ev.kill(at(), 5, 1), ev.kill(at(), 1, 5)]);
  // Sent out of order: the fall comes first by its time, so the kill after it starts a new streak.
  const fallAt = at();
  await ingest(env, one, [ev.kill(at(), 1, 2), death(1, fallAt)]);
  await ingest(env, two, [ev.kill(at(), 1, 2)]);
  await ingest(env, one, [ev.kill(at(), 1, 3), ev.kill(at(), 1, 1), ev.kill(at(), 1, 2)]);
  for (let i = 0; i < 12 && r.received.length < 10; i++) await deliverWebhooks(env.deps);
  const kills = r.received.map((x) => JSON.parse(x.body) as { data: { killer: { platformId: string }; killerStreak: number } });
  t.deepEqual(
    kills.map((k) => [k.data.killer.platformId, k.data.killerStreak]),
    [
      [player(1).platformId, 1],
      [player(1).platformId, 2],
      [player(1).platformId, 3],
      [player(5).platformId, 1],
      [player(1).platformId, 1],
      [player(1).platformId, 1],
      [player(1).platformId, 1],
      [player(1).platformId, 2],
      [player(1).platformId, 0],
      [player(1).platformId, 1],
    ],
    'a suicide is no kill and ends the streak',
  );
  const { rows } = await env.deps.db.query<{ serverId: string; platformId: string; streak: number }>(
    `SELECT server_id AS "serverId", platform_id AS "platformId", streak FROM server_players
     WHERE platform_id = ANY($1::text[]) ORDER BY server_id = $2 DESC, platform_id`,
    [[player(1).platformId, player(5).platformId], one.serverId],
  );
  t.deepEqual(
    rows.map((x) => [x.serverId === one.serverId ? 'one' : 'two', x.platformId, x.streak]),
    [
      ['one', player(1).platformId, 1],
      ['one', player(5).platformId, 0],
      ['two', player(1).platformId, 1],
    ],
  );
});

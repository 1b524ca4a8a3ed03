// player.watched.joined: a player the community watches joining one of its servers, raised in the
// ingestion call that reports the join (a connect, or the agent's presence over RCon after a gap),
// once a join: not again while the player stays. Only the account's own servers and watches, the
// endpoint's server filter, no paused endpoint, no join over 10 minutes old at its arrival. A
// Discord message mentions the endpoint's role, and lets no other mention through.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { LogPlayers } from '../../src/agent/log-players.ts';
import { Presence, presenceIntervalMs } from '../../src/agent/presence.ts';
import type { GameRcon } from '../../src/agent/game-rcon.ts';
import type { RconPlayer } from '../../src/agent/rcon/messages.ts';
import type { WireEvent } from '../../src/ingest/events.ts';
import { registerServer } from '../../src/servers/server.ts';
import { deliverWebhooks } from '../../src/webhooks/delivery.ts';
import { userWithRole } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import { api, envFor } from '../helpers/controller-http.ts';
import type { TestEnv } from '../helpers/env.ts';
import { ev, ingest, player } from '../helpers/seed.ts';
import { receiver } from '../helpers/webhook-receiver.ts';
import type { Receiver } from '../helpers/webhook-receiver.ts';

const role = '112233445566778899';

interface Joined {
  type: string;
  timestamp: string;
  data: { serverId: string; serverName: string; player: { platformId: string; name: string }; watchedBy: { name: string } };
}

async function world(t: ExecutionContext) {
  const env = await envFor(t, { WEBHOOK_ALLOW_PRIVATE: '1' });
  const a = await userWithRole(env, 'owner');
  const b = await userWithRole(env, 'owner');
  const server = async (s: Session, name: string) => {
    const made = await registerServer(env.deps, s.accountId, { name });
    return { serverId: made.server.id, token: made.ingestToken };
  };
  const one = await server(a, 'Chernarus #1');
  const two = await server(a, 'Livonia');
  const theirs = await server(b, 'Elsewhere');
  return { env, a, b, one, two, theirs };
}

async function hook(t: ExecutionContext, env: TestEnv, s: Session, r: Receiver, body: Record<string, unknown>) {
  const res = await api(t, env, s, 'post', '/api/webhooks', { url: r.url, events: ['player.watched.joined'], ...body });
  t.is(res.status, 201, JSON.stringify(res.body));
  return res.body.webhook.id as string;
}

async function watch(t: ExecutionContext, env: TestEnv, s: Session, n: number) {
  t.is((await api(t, env, s, 'post', `/api/players/${player(n).platformId}/watch`)).status, 200);
}

const standardBodies = (r: Receiver) => r.received.map((x) => JSON.parse(x.body) as Joined);

test('joins through ingestion: once a join, only the account’s watches on its servers, server filter, paused endpoints, old joins', async (t) => {
  const { env, a, b, one, two, theirs } = await world(t);
  const now = () => env.clock.now();
  // Players 1, 3 and 4 known to the network (seen once), before anyone watches them.
  t.is(
    (
      await ingest(
        env,
        one,
        [1, 3, 4].map((n) => ev.presence('player.connect', now() - 600_000, n)),
      )
    ).status,
    200,
  );
  t.is(
    (
      await ingest(
        env,
        one,
        [1, 3, 4].map((n) => ev.presence('player.disconnect', now() - 590_000, n)),
      )
    ).status,
    200,
  );
  await watch(t, env, a, 1);
  await watch(t, env, a, 4);
  await watch(t, env, b, 3);
  const everywhere = await receiver(t);
  const onlyTwo = await receiver(t);
  const paused = await receiver(t);
  const other = await receiver(t);
  await hook(t, env, a, everywhere, { format: 'standard' });
  await hook(t, env, a, onlyTwo, { format: 'standard', serverIds: [two.serverId] });
  const pausedId = await hook(t, env, a, paused, { format: 'standard' });
  t.is((await api(t, env, a, 'patch', `/api/webhooks/${pausedId}`, { paused: true })).status, 200);
  await hook(t, env, b, other, { format: 'standard' });

  // Player 1 joins server one (a connect, then the 30 s heartbeats while they stay), player 3 too
  // (watched by the other community only), player 2 (watched by no one).
  await ingest(env, one, [
    ev.presence('player.connect', now() - 1000, 1),
    ev.presence('player.connect', now() - 900, 3),
    ev.presence('player.connect', now() - 800, 2),
  ]);
  for (let i = 1; i <= 4; i++) {
    env.clock.advance(30_000);
    await ingest(
      env,
      one,
      [1, 2, 3].map((n) => ev.presence('player.heartbeat', now(), n)),
    );
  }
  // A connect line the log gives while the player is already online (the agent read it late) is no new join.
  await ingest(env, one, [ev.presence('player.connect', now() - 100, 1)]);
  // Player 1 leaves, then joins server two: a join there.
  await ingest(env, one, [ev.presence('player.disconnect', now(), 1)]);
  env.clock.advance(60_000);
  await ingest(env, two, [ev.presence('player.connect', now(), 1)]);
  // Player 4 joins the other community's server: not one of this community's servers.
  await ingest(env, theirs, [ev.presence('player.connect', now(), 4)]);
  // A join read from an old log (over 10 minutes before its batch arrives) is no news.
  await ingest(env, one, [ev.presence('player.connect', now() - 11 * 60_000, 4)]);

  await deliverWebhooks(env.deps);
  await deliverWebhooks(env.deps);
  const joins = standardBodies(everywhere);
  t.deepEqual(
    joins.map((j) => [j.type, j.data.serverName, j.data.player.platformId]),
    [
      ['player.watched.joined', 'Chernarus #1', player(1).platformId],
      ['player.watched.joined', 'Livonia', player(1).platformId],
    ],
  );
  t.like(joins[0]!.data, { serverId: one.serverId, player: { name: 'player1' }, watchedBy: { name: a.username } });
  t.is(Date.parse(joins[1]!.timestamp) - Date.parse(joins[0]!.timestamp), 181_000, 'each at the time of its join');
  t.deepEqual(
    standardBodies(onlyTwo).map((j) => j.data.serverName),
    ['Livonia'],
    'the server filter',
  );
  t.is(paused.received.length, 0, 'a paused endpoint');
  t.is(other.received.length, 0, 'the other community watches player 3, but on this community’s server');
});

test('a heartbeat after a gap longer than the online window is a new join; within it, none', async (t) => {
  const { env, a, one } = await world(t);
  const now = () => env.clock.now();
  await ingest(env, one, [ev.presence('player.heartbeat', now() - 600_000, 1)]);
  await watch(t, env, a, 1);
  const r = await receiver(t);
  await hook(t, env, a, r, { format: 'standard' });
  await ingest(env, one, [ev.presence('player.heartbeat', now(), 1)]);
  env.clock.advance(80_000);
  await ingest(env, one, [ev.presence('player.heartbeat', now(), 1)]);
  env.clock.advance(100_000);
  await ingest(env, one, [ev.presence('player.heartbeat', now(), 1)]);
  await deliverWebhooks(env.deps);
  await deliverWebhooks(env.deps);
  t.is(r.received.length, 2, 'the first heartbeat, and the one after 100 s without any');
});

/** A server's RCon as the agent sees it: logged in, answering `players` with whoever the test says is on. */
function fakeRcon(on: () => string[]): GameRcon {
  const players = async (): Promise<RconPlayer[]> =>
    on().map((name, i) => ({ number: i, ip: '203.0.113.9', port: 2304, ping: 40, guid: undefined, verified: false, name, lobby: false }));
  return { everLoggedIn: true, connected: true, players } as unknown as GameRcon;
}

test("joins through the agent's RCon presence: once a join, not at every 30 s report; a Discord message mentions the endpoint's role alone", async (t) => {
  const { env, a, one } = await world(t);
  const now = () => env.clock.now();
  await ingest(env, one, [ev.presence('player.connect', now() - 600_000, 1), ev.presence('player.disconnect', now() - 590_000, 1)]);
  await watch(t, env, a, 1);
  const discord = await receiver(t, '/api/webhooks/1/token');
  await hook(t, env, a, discord, { format: 'discord', mentionRoleId: role });

  // The agent has read the player's name in the log once (RCon's list names players, the log gives their ids).
  const log = new LogPlayers();
  log.observe({ id: crypto.randomUUID(), type: 'player.connect', ts: now() - 600_000, ...player(1) } as WireEvent);
  log.observe({ id: crypto.randomUUID(), type: 'player.connect', ts: now() - 600_000, ...player(2) } as WireEvent);
  let on = ['player1', 'player2'];
  const rcon = fakeRcon(() => on);
  const presence = new Presence();
  const report = async () => {
    const events = await presence.events(rcon, log, now());
    if (events.length > 0) t.is((await ingest(env, one, events)).status, 200);
    env.clock.advance(presenceIntervalMs);
  };
  for (let i = 0; i < 5; i++) await report();
  on = ['player2'];
  for (let i = 0; i < 4; i++) await report();
  on = ['player1', 'player2'];
  for (let i = 0; i < 3; i++) await report();

  await deliverWebhooks(env.deps);
  t.is(discord.received.length, 1, 'both joins in one message');
  const message = JSON.parse(discord.received[0]!.body) as {
    content: string;
    allowed_mentions: { parse: string[]; roles: string[] };
    embeds: { title: string; fields: { name: string; value: string }[] }[];
  };
  t.is(message.content, `<@&${role}>`);
  t.deepEqual(message.allowed_mentions, { parse: [], roles: [role] });
  t.deepEqual(
    message.embeds.map((e) => e.title),
    ['Watched player joined: player1', 'Watched player joined: player1'],
    'the first report, and the one after two minutes off the list',
  );
  t.like(Object.fromEntries(message.embeds[0]!.fields.map((f) => [f.name, f.value])), {
    Player: `player1 (${player(1).platformId})`,
    Server: 'Chernarus #1',
    'Watched by': a.username.replace(/_/g, '\\_'),
  });
});

test('a Discord message without a watched join mentions no one, even with a role set', async (t) => {
  const { env, a, one } = await world(t);
  const discord = await receiver(t, '/api/webhooks/1/token');
  await hook(t, env, a, discord, { format: 'discord', events: ['kill'], mentionRoleId: role });
  await ingest(env, one, [ev.kill(env.clock.now() - 1000, 1, 2)]);
  await deliverWebhooks(env.deps);
  const message = JSON.parse(discord.received[0]!.body) as { content?: string; allowed_mentions: unknown };
  t.is(message.content, undefined);
  t.deepEqual(message.allowed_mentions, { parse: [] });
});

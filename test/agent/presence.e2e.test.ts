// Presence of a log-fed server as the service shows it: the agent's own pieces (the log's players,
// the 30 s re-sends) feed the real ingestion, and the Data API is read as time passes on the
// service's clock. Between PlayerLists (every 300 s) the server reads online with its players
// listed; once its log goes quiet it reads offline within 6 minutes.
import test from 'ava';
import { LogPlayers } from '../../src/agent/log-players.ts';
import { Presence } from '../../src/agent/presence.ts';
import type { WireEvent } from '../../src/ingest/events.ts';
import { dayzIdOf } from '../../src/identities/id-forms.ts';
import { testEnv } from '../helpers/env.ts';
import { dataGet, ingest, tenant } from '../helpers/seed.ts';

test('a log-fed server reads online with its players between PlayerLists, and offline within 6 minutes of its log going quiet', async (t) => {
  const env = await testEnv({ RATE_DATA_STANDARD: '100000' });
  t.teardown(() => env.close());
  const a = await tenant(env.deps);
  const A = dayzIdOf('76561198000000001');
  const B = dayzIdOf('76561198000000002');
  const start = env.clock.now();
  const log = new LogPlayers();
  const presence = new Presence();
  const send = async (events: WireEvent[]) => {
    if (events.length > 0) t.is((await ingest(env, a, events)).status, 200);
  };
  // What the agent reads and sends: a PlayerList of two at `start` (the log's own events).
  const listed: WireEvent[] = [
    { id: crypto.randomUUID(), type: 'server.status', ts: start, online: true, players: 2 },
    { id: crypto.randomUUID(), type: 'player.heartbeat', ts: start, platformId: A, name: 'Alice' },
    { id: crypto.randomUUID(), type: 'player.heartbeat', ts: start, platformId: B, name: 'Bob' },
  ];
  for (const e of listed) log.observe(e);
  await send(listed);

  const read = async () => {
    const status = (await dataGet(env, a, `/servers/${a.serverId}`)).body as { online: boolean };
    const players = ((await dataGet(env, a, `/servers/${a.serverId}/players`)).body as { players: { platformId: string }[] }).players
      .map((p) => p.platformId)
      .sort();
    return { online: status.online, players };
  };
  // The log goes quiet after that PlayerList: every 30 s the agent re-sends until it is 330 s old.
  let offlineAtS: number | undefined;
  for (let s = 30; s <= 420; s += 30) {
    env.clock.set(start + s * 1000);
    await send(await presence.events(undefined, log, env.clock.now()));
    const seen = await read();
    if (s <= 330) t.deepEqual(seen, { online: true, players: [A, B].sort() }, `${s} s after the PlayerList`);
    else if (!seen.online && offlineAtS === undefined) offlineAtS = s;
  }
  t.truthy(offlineAtS);
  t.true(offlineAtS! <= 360, `offline ${offlineAtS} s after the log went quiet`);

  // Without the re-sends (the agent before them) the same server read offline 120 s after the PlayerList.
  const b = await tenant(env.deps);
  env.clock.set(start);
  await ingest(
    env,
    b,
    listed.map((e) => ({ ...e, id: crypto.randomUUID() })),
  );
  env.clock.set(start + 121_000);
  t.false(((await dataGet(env, b, `/servers/${b.serverId}`)).body as { online: boolean }).online);
});

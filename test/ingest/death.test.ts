import { randomUUID } from 'node:crypto';
import test from 'ava';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema, dataGet, ev, ingest, player, tenant } from '../helpers/seed.ts';
import { commitBatch } from '../../src/ingest/ingest.ts';
import type { IngestEvent } from '../../src/ingest/events.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

const death = (tsMs: number, n: number, cause: string) => ({ id: randomUUID(), type: 'death', ts: tsMs, ...player(n), cause });

test('a death counts in the player deaths and ranks them, never as anyone kill', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const res = await ingest(env, a, [death(now - 3000, 1, 'infected'), death(now - 2000, 1, 'fall'), ev.kill(now - 1000, 2, 3)]);
  t.deepEqual(res.body, { accepted: 3, duplicates: 0, rejected: [] });
  const board = await dataGet(env, a, `/servers/${a.serverId}/leaderboard?sort=kills`);
  assertSchema(t, 'leaderboard-page.json', board.body);
  const byId = Object.fromEntries(board.body.players.map((p: { platformId: string }) => [p.platformId, p]));
  t.like(byId[player(1).platformId], { kills: 0, deaths: 2, name: 'player1' });
  t.is(board.body.total, 3, 'the player who only died is ranked');
  t.like(byId[player(2).platformId], { kills: 1, deaths: 0 });
  const feed = await dataGet(env, a, `/servers/${a.serverId}/kills`);
  t.is(feed.body.kills.length, 1, 'deaths are not in the killfeed');
});

test('every cause of the closed list is accepted; others are rejected with the event index', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const causes = ['infected', 'animal', 'vehicle', 'fall', 'explosion', 'suicide', 'bleeding', 'environment', 'other'];
  const res = await ingest(env, a, [
    ...causes.map((c, i) => death(now - i, 5, c)),
    death(now, 5, 'zombie'),
    { ...death(now, 5, 'fall'), cause: undefined },
  ]);
  t.is(res.body.accepted, causes.length);
  t.deepEqual(
    res.body.rejected.map((r: { index: number }) => r.index),
    [causes.length, causes.length + 1],
  );
});

test('the one call: a death adds one death and touches no kill', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const e = {
    index: 0,
    id: randomUUID(),
    tsMs: now - 1000,
    sentMs: now - 1000,
    type: 'death',
    player: player(9),
    cause: 'animal',
  } as IngestEvent;
  const { change } = await commitBatch(env.deps, a.serverId, [e], now);
  t.deepEqual([...change!.totals.keys()], [player(9).platformId]);
  t.like(change!.totals.get(player(9).platformId), { deaths: 1, kills: 0, name: 'player9' });
});

// The network-wide players row under repeated batches: ingestion skips rewriting a row that already
// says as much (remembered per process), yet a new name, an earlier first sighting or a sighting
// more than 10 minutes later always reaches it, also when another process wrote the row meanwhile.
import test from 'ava';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { ev, ingest, player, tenant } from '../helpers/seed.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

async function row(n: number) {
  const { rows } = await env.deps.db.query<{ name: string; first: string; last: string }>(
    'SELECT name, first_seen_at AS first, last_seen_at AS last FROM players WHERE platform_id = $1',
    [player(n).platformId],
  );
  return { name: rows[0]!.name, first: new Date(rows[0]!.first).toISOString(), last: new Date(rows[0]!.last).toISOString() };
}

const iso = (ms: number) => new Date(ms).toISOString();

test('a covered player is not rewritten; a rename, an earlier sighting and one 10 minutes later are', async (t) => {
  const a = await tenant(env.deps);
  const t0 = env.clock.now() - 3600_000;
  const send = async (events: object[]) => t.is((await ingest(env, a, events)).status, 200);
  await send([ev.kill(t0, 1, 2)]);
  t.deepEqual(await row(1), { name: 'player1', first: iso(t0), last: iso(t0) });

  // Five minutes later, same name: the row already says as much, so nothing is written.
  await send([ev.kill(t0 + 5 * 60_000, 1, 2)]);
  t.deepEqual(await row(1), { name: 'player1', first: iso(t0), last: iso(t0) });
  // Another process (a direct write here) moves the row on; this process's memory of it does not undo that.
  await env.deps.db.query('UPDATE players SET last_seen_at = $2 WHERE platform_id = $1', [player(1).platformId, iso(t0 + 9 * 60_000)]);
  await send([ev.kill(t0 + 6 * 60_000, 1, 2)]);
  t.is((await row(1)).last, iso(t0 + 9 * 60_000));

  // More than 10 minutes past what is stored: written.
  await send([ev.kill(t0 + 20 * 60_000, 1, 2)]);
  t.is((await row(1)).last, iso(t0 + 20 * 60_000));
  // A new name within the 10 minutes: written.
  await send([ev.kill(t0 + 21 * 60_000, 1, 2, { killer: { platformId: player(1).platformId, name: 'Renamed' } })]);
  t.is((await row(1)).name, 'Renamed');
  // An earlier sighting (a late batch): the first seen moves back.
  await send([ev.kill(t0 - 60_000, 1, 2, { killer: { platformId: player(1).platformId, name: 'Renamed' } })]);
  t.is((await row(1)).first, iso(t0 - 60_000));
});

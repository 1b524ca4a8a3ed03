// The rows ingestion holds in memory (present players' totals, what the players table holds of a
// player) are kept in place: what goes in comes out exactly, as a copy the caller may change, and
// writing a held row again leaves nothing in the old generation.
import test from 'ava';
import fc from 'fast-check';
import { execFile } from 'node:child_process';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PresentTotals } from '../../src/ingest/present-totals.ts';
import { StoredPlayers } from '../../src/ingest/stored-players.ts';
import type { PlayerTotals } from '../../src/stats/totals.ts';

const run = promisify(execFile);
const count = fc.nat({ max: 1_000_000 });
const ms = fc.option(fc.integer({ min: 0, max: 4_102_444_800_000 }), { nil: null });
const totals: fc.Arbitrary<PlayerTotals> = fc.record({
  name: fc.option(fc.string({ unit: 'binary', maxLength: 64 }), { nil: null }),
  kills: count, deaths: count, headshots: count,
  killDistanceSum: fc.double({ min: 0, max: 1e9, noNaN: true }),
  playSeconds: fc.double({ min: 0, max: 1e9, noNaN: true }),
  shotsFired: count, shotsHit: count, onlineAtMs: ms, presenceAtMs: ms, nameAtMs: ms,
});
const serverId = fc.uuid();
const platformId = fc.string({ minLength: 1, maxLength: 44 });

// One of each for all runs of a property: each is made with room for 200,000 rows.
test('property: a present row comes back as it was set, per server and player', (t) => {
  const held = new PresentTotals();
  fc.assert(fc.property(serverId, serverId, platformId, totals, fc.string(), (s1, s2, id, row, tag) => {
    fc.pre(s1 !== s2);
    held.set(s1, id, { totals: row, tag });
    t.deepEqual(held.get(s1, id), { totals: row, tag });
    t.true(held.has(s1, id));
    t.is(held.get(s2, id), undefined, 'another server\'s player is another row');
    held.delete(s1, id);
    t.false(held.has(s1, id));
  }));
});

test('a present row read is a copy: applying events to it leaves the held row as written', (t) => {
  const held = new PresentTotals();
  const row: PlayerTotals = { name: 'a', kills: 1, deaths: 0, headshots: 0, killDistanceSum: 10.5, playSeconds: 0.1 + 0.2, shotsFired: 0, shotsHit: 0, onlineAtMs: 1_732_000_000_123, presenceAtMs: 1_732_000_000_123, nameAtMs: null };
  held.set('s', 'p', { totals: row, tag: '42' });
  const read = held.get('s', 'p')!;
  read.totals.kills += 5;
  read.totals.name = 'b';
  t.deepEqual(held.get('s', 'p'), { totals: row, tag: '42' });
});

test('property: a stored player comes back as set, one by one or as an ingest call returns them', (t) => {
  const player = fc.record({ name: fc.string({ unit: 'binary', maxLength: 64 }), firstMs: fc.integer({ min: 0, max: 4e12 }), lastMs: fc.integer({ min: 0, max: 4e12 }) });
  const one = new StoredPlayers();
  const all = new StoredPlayers();
  fc.assert(fc.property(fc.uniqueArray(fc.tuple(platformId, player), { selector: ([id]) => id, maxLength: 20 }), (players) => {
    for (const [id, p] of players) one.set(id, p);
    all.setAll(JSON.stringify(players.map(([id, p]) => [id, p.name, p.firstMs, p.lastMs])));
    for (const [id, p] of players) {
      t.deepEqual(one.get(id), p);
      t.deepEqual(all.get(id), p);
    }
    t.is(one.get('x'.repeat(45)), undefined, 'longer than any id set');
  }));
});

test('held rows are few heap objects, and writing them again promotes nothing', async (t) => {
  // Counted in processes of their own, from heap snapshots before and after holding 20,000 players,
  // less what the same run adds without holding them.
  const players = 20_000;
  const counted = async (holding: 'rows' | 'none') => {
    const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(new URL('../helpers/held-rows-heap.ts', import.meta.url)), String(players), holding]);
    return JSON.parse(stdout) as { added: Record<string, number>; promotedBytesPerWrite: number };
  };
  const [rows, none] = await Promise.all([counted('rows'), counted('none')]);
  const added = (kind: string) => (rows.added[kind] ?? 0) - (none.added[kind] ?? 0);
  // Per player: a present row's key, name and tag, a stored player's id (its name is the same
  // string). As objects they were 6-7 a present row (boxed timestamps, a tree of three strings for
  // the key) and 4 a stored player.
  t.true(added('string') >= players * 3.9 && added('string') <= players * 4.1, `strings: ${added('string')}`);
  for (const kind of ['concatenated string', 'number', 'object']) t.true(added(kind) < players / 20, `${kind}: ${added(kind)}`);
  // A row rebuilt as a text at each write left ~190 bytes in the old generation a write.
  t.true(rows.promotedBytesPerWrite - none.promotedBytesPerWrite < 16, `promoted ${rows.promotedBytesPerWrite.toFixed(1)} bytes a row written (${none.promotedBytesPerWrite.toFixed(1)} without rows)`);
});

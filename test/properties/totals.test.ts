import test from 'ava';
import fc from 'fast-check';
import { deathCauses } from '../../src/ingest/events.ts';
import type { IngestEvent } from '../../src/ingest/events.ts';
import { applyEvents, emptyTotals } from '../../src/stats/totals.ts';
import type { PlayerTotals } from '../../src/stats/totals.ts';

const numRuns = 200;
const start = Date.parse('2026-11-22T10:00:00.000Z');

// A few players, so that events meet; times within two hours, with gaps around the 90 s window.
const platformId = fc.constantFrom('p1', 'p2', 'p3', 'p4');
const who = platformId.map((id) => ({ platformId: id, name: `name-${id}` }));
const tsMs = fc.integer({ min: start, max: start + 2 * 3600_000 });

const event: fc.Arbitrary<IngestEvent> = fc.oneof(
  fc.record({
    type: fc.constantFrom('player.connect' as const, 'player.disconnect' as const, 'player.heartbeat' as const),
    player: who,
  }),
  fc.record({
    type: fc.constant('kill' as const), killer: who, victim: who, weapon: fc.constant('M4A1'),
    distance: fc.double({ min: 0, max: 100_000, noNaN: true }), isHeadshot: fc.boolean(), hitZone: fc.constant(null),
  }),
  fc.integer({ min: 0, max: 1_000_000 }).chain((fired) => fc.record({
    type: fc.constant('shots' as const), platformId, fired: fc.constant(fired), hits: fc.integer({ min: 0, max: fired }),
  })),
  fc.record({ type: fc.constant('death' as const), player: who, cause: fc.constantFrom(...deathCauses) }),
  fc.record({ type: fc.constant('server.status' as const), online: fc.boolean() }),
  fc.record({ type: fc.constant('server.started' as const) }),
).chain((e) => tsMs.map((ms) => ({ ...e, tsMs: ms, id: '00000000-0000-4000-8000-000000000000', index: 0 }) as IngestEvent));

/** Presence events clustered in time, so that many gaps fall inside the online window. */
const presenceRun = fc.tuple(platformId, fc.integer({ min: start, max: start + 3600_000 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 150_000 }), fc.constantFrom('player.connect' as const, 'player.heartbeat' as const, 'player.disconnect' as const)), { minLength: 1, maxLength: 20 }))
  .map(([id, from, steps]) => {
    let ms = from;
    return steps.map(([gap, type]) => ({ type, player: { platformId: id, name: `name-${id}` }, tsMs: (ms += gap), id: '00000000-0000-4000-8000-000000000000', index: 0 }) as IngestEvent);
  });

const events = fc.oneof(
  fc.array(event, { maxLength: 80 }),
  fc.tuple(fc.array(presenceRun, { maxLength: 4 }), fc.array(event, { maxLength: 20 })).map(([runs, more]) => [...runs.flat(), ...more]),
);

const byTime = (list: IngestEvent[]) => [...list].sort((a, b) => a.tsMs - b.tsMs);

/** Applies batches one after another, the totals going through a stored copy in between (as PostgreSQL keeps them). */
function applyBatches(batches: IngestEvent[][]): Map<string, PlayerTotals> {
  let stored = new Map<string, PlayerTotals>();
  for (const batch of batches) {
    const totals = structuredClone(stored);
    applyEvents(totals, byTime(batch));
    stored = structuredClone(totals);
  }
  return stored;
}

/** Splits a list into consecutive batches at the given cut points. */
const split = <T>(list: T[], cuts: number[]): T[][] => {
  const at = [...new Set(cuts.map((c) => c % (list.length + 1)))].sort((a, b) => a - b);
  const out: T[][] = [];
  let from = 0;
  for (const c of [...at, list.length]) {
    out.push(list.slice(from, c));
    from = c;
  }
  return out;
};

function checkInvariants(totals: Map<string, PlayerTotals>, list: IngestEvent[]): void {
  const kills = list.filter((e) => e.type === 'kill');
  const nonSuicides = kills.filter((e) => e.killer.platformId !== e.victim.platformId);
  const sum = (pick: (t: PlayerTotals) => number) => [...totals.values()].reduce((s, t) => s + pick(t), 0);
  for (const [id, t] of totals) {
    for (const [field, value] of Object.entries(t)) {
      if (typeof value === 'number' && (!Number.isFinite(value) || value < 0)) throw new Error(`${id}.${field} = ${value}`);
    }
    if (t.headshots > t.kills) throw new Error(`${id}: headshots > kills`);
    if (t.shotsHit > t.shotsFired) throw new Error(`${id}: hits > fired`);
    const presence = list.filter((e) => 'player' in e && e.player.platformId === id).map((e) => e.tsMs);
    const span = presence.length === 0 ? 0 : (Math.max(...presence) - Math.min(...presence)) / 1000;
    if (t.playSeconds > span + 1e-6) throw new Error(`${id}: ${t.playSeconds} s of play in a span of ${span} s`);
  }
  if (sum((t) => t.kills) !== nonSuicides.length) throw new Error(`kills ${sum((t) => t.kills)} != ${nonSuicides.length} non-suicide kill events`);
  // A death with no player killer adds a death and never a kill.
  const deaths = kills.length + list.filter((e) => e.type === 'death').length;
  if (sum((t) => t.deaths) !== deaths) throw new Error(`deaths ${sum((t) => t.deaths)} != ${deaths} kill and death events`);
  if (sum((t) => t.headshots) !== nonSuicides.filter((e) => e.isHeadshot).length) throw new Error('headshots');
  const distance = nonSuicides.reduce((s, e) => s + e.distance, 0);
  if (Math.abs(sum((t) => t.killDistanceSum) - distance) > 1e-6 * Math.max(1, distance)) throw new Error('kill distance');
  const shots = list.filter((e) => e.type === 'shots');
  if (sum((t) => t.shotsFired) !== shots.reduce((s, e) => s + e.fired, 0)) throw new Error('shots fired');
}

test('one batch in time order: nothing negative, kills = non-suicide kill events, play within the presence span', (t) => {
  fc.assert(
    fc.property(events, (list) => {
      const totals = new Map<string, PlayerTotals>();
      const changed = applyEvents(totals, byTime(list));
      checkInvariants(totals, list);
      const touched = new Set(list.flatMap((e) => (e.type === 'kill' ? [e.killer.platformId, e.victim.platformId].filter((id, i) => i === 1 || id !== e.victim.platformId) : 'player' in e ? [e.player.platformId] : e.type === 'shots' ? [e.platformId] : [])));
      if ([...changed].sort().join() !== [...touched].sort().join()) throw new Error(`changed ${[...changed].join()} != touched ${[...touched].join()}`);
    }),
    { numRuns },
  );
  t.pass();
});

test('the same events in time order give the same totals however they are cut into batches', (t) => {
  fc.assert(
    fc.property(events, fc.array(fc.nat(), { maxLength: 5 }), (list, cuts) => {
      const sorted = byTime(list);
      const whole = applyBatches([sorted]);
      const batched = applyBatches(split(sorted, cuts));
      for (const [id, w] of whole) {
        const b = batched.get(id);
        if (!b) throw new Error(`${id} missing`);
        for (const field of Object.keys(w) as (keyof PlayerTotals)[]) {
          const x = w[field];
          const y = b[field];
          const same = typeof x === 'number' && typeof y === 'number' ? Math.abs(x - y) <= 1e-6 * Math.max(1, Math.abs(x)) : x === y;
          if (!same) throw new Error(`${id}.${field}: ${String(x)} in one batch, ${String(y)} in several`);
        }
      }
      if (batched.size !== whole.size) throw new Error('player count differs');
    }),
    { numRuns },
  );
  t.pass();
});

test('batches arriving out of order (late retries) still keep every invariant', (t) => {
  fc.assert(
    fc.property(events, fc.array(fc.nat(), { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 6 }), (list, cuts, order) => {
      const batches = split(byTime(list), cuts);
      // Deliver the batches in a shuffled order.
      const keyed = batches.map((b, i) => ({ b, k: order[i] ?? i }));
      keyed.sort((x, y) => x.k - y.k);
      const totals = applyBatches(keyed.map((x) => x.b));
      checkInvariants(totals, list);
    }),
    { numRuns },
  );
  t.pass();
});

test('totals loaded from storage are only ever added to', (t) => {
  fc.assert(
    fc.property(events, fc.array(fc.nat({ max: 1000 }), { minLength: 7, maxLength: 7 }), (list, start7) => {
      const [kills, deaths, headshots, fired, hit, play, dist] = start7 as [number, number, number, number, number, number, number];
      const before: PlayerTotals = { ...emptyTotals(), name: 'stored', kills: kills + headshots, deaths, headshots, shotsFired: fired + hit, shotsHit: hit, playSeconds: play, killDistanceSum: dist };
      const totals = new Map([['p1', { ...before }]]);
      applyEvents(totals, byTime(list));
      const after = totals.get('p1')!;
      for (const field of ['kills', 'deaths', 'headshots', 'shotsFired', 'shotsHit', 'playSeconds', 'killDistanceSum'] as const) {
        if (after[field] < before[field]) throw new Error(`${field} went down from ${before[field]} to ${after[field]}`);
      }
    }),
    { numRuns },
  );
  t.pass();
});

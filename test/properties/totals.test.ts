// The rules of how events count in a server's player totals, checked against ingestion's one call
// (src/ingest/sql/player-totals.sql) on random batches.
import test from 'ava';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { deathCauses } from '../../src/ingest/events.ts';
import { commitBatch } from '../../src/ingest/ingest.ts';
import { parseBatch } from '../../src/ingest/events.ts';
import { loadTotals } from '../../src/stats/stats.repo.ts';
import type { PlayerTotals } from '../../src/stats/totals.ts';
import { t0, testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { player, tenant } from '../helpers/seed.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

const numRuns = 100;
const start = t0 - 3 * 3600_000;

type Wire = Record<string, unknown> & { type: string; ts: number };

// A few players, so that events meet; times within two hours, with gaps around the 90 s window.
const n = fc.constantFrom(1, 2, 3, 4);
const tsMs = fc.integer({ min: start, max: start + 2 * 3600_000 });

const event: fc.Arbitrary<Wire> = fc
  .oneof(
    fc
      .record({ type: fc.constantFrom('player.connect', 'player.disconnect', 'player.heartbeat'), n })
      .map(({ n: who, ...e }) => ({ ...e, ...player(who) })),
    fc
      .record({
        type: fc.constant('kill'),
        k: n,
        v: n,
        distance: fc.double({ min: 0, max: 100_000, noNaN: true }),
        isHeadshot: fc.boolean(),
      })
      .map(({ k, v, ...e }) => ({ ...e, killer: player(k), victim: player(v), weapon: 'M4A1' })),
    fc
      .integer({ min: 0, max: 1_000_000 })
      .chain((fired) => fc.record({ type: fc.constant('shots'), n, fired: fc.constant(fired), hits: fc.integer({ min: 0, max: fired }) }))
      .map(({ n: who, ...e }) => ({ ...e, platformId: player(who).platformId })),
    fc
      .record({ type: fc.constant('death'), n, cause: fc.constantFrom(...deathCauses) })
      .map(({ n: who, ...e }) => ({ ...e, ...player(who) })),
    fc.record({ type: fc.constant('server.status'), online: fc.boolean() }),
    fc.record({ type: fc.constant('server.started') }),
  )
  .chain((e) => tsMs.map((ms) => ({ ...e, ts: ms }) as Wire));

/** Presence events clustered in time, so that many gaps fall inside the online window. */
const presenceRun = fc
  .tuple(
    n,
    fc.integer({ min: start, max: start + 3600_000 }),
    fc.array(fc.tuple(fc.integer({ min: 0, max: 150_000 }), fc.constantFrom('player.connect', 'player.heartbeat', 'player.disconnect')), {
      minLength: 1,
      maxLength: 20,
    }),
  )
  .map(([who, from, steps]) => {
    let ms = from;
    return steps.map(([gap, type]) => ({ type, ...player(who), ts: (ms += gap) }) as Wire);
  });

const events = fc.oneof(
  fc.array(event, { maxLength: 80 }),
  fc.tuple(fc.array(presenceRun, { maxLength: 4 }), fc.array(event, { maxLength: 20 })).map(([runs, more]) => [...runs.flat(), ...more]),
);

const byTime = (list: Wire[]) => [...list].sort((a, b) => a.ts - b.ts);
const ids = [1, 2, 3, 4].map((who) => player(who).platformId);

/** Sends batches one after another to a new server; answers its stored totals and what each call answered. */
async function applyBatches(batches: Wire[][], before?: (serverId: string) => Promise<void>) {
  const { serverId } = await tenant(env.deps);
  await before?.(serverId);
  const changed: Set<string>[] = [];
  for (const batch of batches) {
    // A batch of no events is refused whole (400), before any rule.
    if (batch.length === 0) continue;
    const parsed = parseBatch({ events: batch.map((e) => ({ ...e, id: randomUUID() })) }, t0).events;
    if (parsed.length !== batch.length) throw new Error('every generated event is valid');
    const { change } = await commitBatch(env.deps, serverId, parsed, t0);
    changed.push(new Set(change?.totals.keys() ?? []));
  }
  return { totals: await loadTotals(env.deps.db, serverId, ids), changed };
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

const idOf = (p: unknown) => (p as { platformId: string }).platformId;

function checkInvariants(totals: Map<string, PlayerTotals>, list: Wire[]): void {
  const kills = list.filter((e) => e.type === 'kill');
  const nonSuicides = kills.filter((e) => idOf(e.killer) !== idOf(e.victim));
  const sum = (pick: (t: PlayerTotals) => number) => [...totals.values()].reduce((s, t) => s + pick(t), 0);
  for (const [id, t] of totals) {
    for (const [field, value] of Object.entries(t)) {
      if (typeof value === 'number' && (!Number.isFinite(value) || value < 0)) throw new Error(`${id}.${field} = ${value}`);
    }
    if (t.headshots > t.kills) throw new Error(`${id}: headshots > kills`);
    if (t.shotsHit > t.shotsFired) throw new Error(`${id}: hits > fired`);
    const presence = list.filter((e) => e.type.startsWith('player.') && e.platformId === id).map((e) => e.ts);
    const span = presence.length === 0 ? 0 : (Math.max(...presence) - Math.min(...presence)) / 1000;
    if (t.playSeconds > span + 1e-6) throw new Error(`${id}: ${t.playSeconds} s of play in a span of ${span} s`);
  }
  if (sum((t) => t.kills) !== nonSuicides.length)
    throw new Error(`kills ${sum((t) => t.kills)} != ${nonSuicides.length} non-suicide kill events`);
  // A death with no player killer adds a death and never a kill.
  const deaths = kills.length + list.filter((e) => e.type === 'death').length;
  if (sum((t) => t.deaths) !== deaths) throw new Error(`deaths ${sum((t) => t.deaths)} != ${deaths} kill and death events`);
  if (sum((t) => t.headshots) !== nonSuicides.filter((e) => e.isHeadshot).length) throw new Error('headshots');
  const distance = nonSuicides.reduce((s, e) => s + (e.distance as number), 0);
  if (Math.abs(sum((t) => t.killDistanceSum) - distance) > 1e-6 * Math.max(1, distance)) throw new Error('kill distance');
  const shots = list.filter((e) => e.type === 'shots');
  if (sum((t) => t.shotsFired) !== shots.reduce((s, e) => s + (e.fired as number), 0)) throw new Error('shots fired');
}

test('one batch: nothing negative, kills = non-suicide kill events, play within the presence span; the call answers every player touched', async (t) => {
  await fc.assert(
    fc.asyncProperty(events, async (list) => {
      const { totals, changed } = await applyBatches([list]);
      checkInvariants(totals, list);
      const touched = new Set(
        list.flatMap((e) =>
          e.type === 'kill' ? [idOf(e.killer), idOf(e.victim)] : typeof e.platformId === 'string' ? [e.platformId] : [],
        ),
      );
      const answered = changed[0] ?? new Set();
      if ([...answered].sort().join() !== [...touched].sort().join())
        throw new Error(`changed ${[...answered].join()} != touched ${[...touched].join()}`);
    }),
    { numRuns },
  );
  t.pass();
});

test('the same events in time order give the same totals however they are cut into batches', async (t) => {
  await fc.assert(
    fc.asyncProperty(events, fc.array(fc.nat(), { maxLength: 5 }), async (list, cuts) => {
      const sorted = byTime(list);
      const whole = (await applyBatches([sorted])).totals;
      const batched = (await applyBatches(split(sorted, cuts))).totals;
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

test('batches arriving out of order (late retries) still keep every invariant', async (t) => {
  await fc.assert(
    fc.asyncProperty(events, fc.array(fc.nat(), { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 6 }), async (list, cuts, order) => {
      const batches = split(byTime(list), cuts);
      // Deliver the batches in a shuffled order.
      const keyed = batches.map((b, i) => ({ b, k: order[i] ?? i }));
      keyed.sort((x, y) => x.k - y.k);
      checkInvariants((await applyBatches(keyed.map((x) => x.b))).totals, list);
    }),
    { numRuns },
  );
  t.pass();
});

test('totals loaded from storage are only ever added to', async (t) => {
  await fc.assert(
    fc.asyncProperty(events, fc.array(fc.nat({ max: 1000 }), { minLength: 7, maxLength: 7 }), async (list, start7) => {
      const [kills, deaths, headshots, fired, hit, play, dist] = start7 as [number, number, number, number, number, number, number];
      const before = {
        kills: kills + headshots,
        deaths,
        headshots,
        shotsFired: fired + hit,
        shotsHit: hit,
        playSeconds: play,
        killDistanceSum: dist,
      };
      const { totals } = await applyBatches([list], (serverId) =>
        env.deps.db
          .query(
            `INSERT INTO server_players (server_id, platform_id, name, kills, deaths, headshots, shots_fired, shots_hit, play_seconds, kill_distance_sum)
         VALUES ($1, $2, 'stored', $3, $4, $5, $6, $7, $8, $9)`,
            [
              serverId,
              ids[0],
              before.kills,
              before.deaths,
              before.headshots,
              before.shotsFired,
              before.shotsHit,
              before.playSeconds,
              before.killDistanceSum,
            ],
          )
          .then(() => undefined),
      );
      const after = totals.get(ids[0]!)!;
      for (const field of ['kills', 'deaths', 'headshots', 'shotsFired', 'shotsHit', 'playSeconds', 'killDistanceSum'] as const) {
        if (after[field] < before[field]) throw new Error(`${field} went down from ${before[field]} to ${after[field]}`);
      }
    }),
    { numRuns },
  );
  t.pass();
});

// The published rules reproduce every score: a random population is made in the real service (pool
// entries of several communities in every state, play and kills on their servers, time passing),
// looked up over HTTP, and each score is computed again here from its `signals` and the discovery
// document's rules alone, by a client written from the document's steps (no import of the
// service's scoring). Identical signals give identical scores.
import { randomUUID } from 'node:crypto';
import test from 'ava';
import fc from 'fast-check';
import { insertAccount } from '../../src/accounts/account.repo.ts';
import { registerServer } from '../../src/servers/server.ts';
import { decideEntry, submitToPool } from '../../src/trust/pool.ts';
import { controllerEnv } from '../helpers/controller-http.ts';
import { t0 } from '../helpers/env.ts';
import { ingest } from '../helpers/seed.ts';

interface Voice {
  status: string;
  category: string;
  lengthDays: number | null;
  endedDaysAgo: number | null;
}
interface Community {
  voice: Voice | null;
  playMinutes: number;
  kills: number;
  headshotRatio: number | null;
  accuracy: number | null;
}
interface Rules {
  base: number;
  communityBound: number;
  bands: { trusted: number; neutral: number; watch: number };
  voice: {
    points: Record<string, number>;
    categoryWeights: Record<string, number>;
    lengthWeights: { maxDays: number; weight: number }[];
    expiredHalfLifeDays: number;
  };
  play: { max: number; fullAtHours: number };
  aim: { minKills: number; headshotRatioOver: number; accuracyOver: number; pointsPerCommunity: number };
}

/** A client's score, from the discovery document's steps. */
function clientScore(rules: Rules, communities: Community[]): { score: number; band: string } {
  const voicePoints = (v: Voice) => {
    if (v.status === 'overturned') return rules.voice.points.overturned!;
    const length = v.lengthDays === null ? 1 : (rules.voice.lengthWeights.find((r) => v.lengthDays! <= r.maxDays)?.weight ?? 1);
    const points = rules.voice.points[v.status]! * rules.voice.categoryWeights[v.category]! * length;
    return v.status === 'expired' ? points * 0.5 ** ((v.endedDaysAgo ?? 0) / rules.voice.expiredHalfLifeDays) : points;
  };
  const play = (minutes: number) => rules.play.max * Math.min(1, Math.log(1 + minutes / 60) / Math.log(1 + rules.play.fullAtHours));
  let total = rules.base;
  let aiming = 0;
  for (const c of communities) {
    const raw = (c.voice ? voicePoints(c.voice) : 0) + play(c.playMinutes);
    total += Math.floor(Math.min(rules.communityBound, Math.max(-rules.communityBound, raw)) + 0.5);
    if (
      c.kills >= rules.aim.minKills &&
      ((c.headshotRatio ?? 0) > rules.aim.headshotRatioOver || (c.accuracy ?? 0) > rules.aim.accuracyOver)
    )
      aiming += 1;
  }
  total += rules.aim.pointsPerCommunity * Math.max(0, aiming - 1);
  const score = Math.max(0, Math.min(100, total));
  const band =
    score >= rules.bands.trusted
      ? 'trusted'
      : score >= rules.bands.neutral
        ? 'neutral'
        : score >= rules.bands.watch
          ? 'watch'
          : 'high_risk';
  return { score, band };
}

const categories = ['cheating', 'exploiting', 'griefing', 'toxicity', 'ban_evasion', 'other'] as const;
const entry = fc.record({
  community: fc.nat(3),
  category: fc.constantFrom(...categories),
  days: fc.option(fc.integer({ min: 1, max: 200 }), { nil: null }),
  decision: fc.constantFrom('approve', 'reject', 'pending', 'overturn'),
});
const play = fc.record({ community: fc.nat(3), minutes: fc.integer({ min: 0, max: 90 }), kills: fc.nat(35), headshots: fc.nat(35) });
const player = fc.record({ entries: fc.array(entry, { maxLength: 4 }), play: fc.array(play, { maxLength: 3 }) });

test('every score of a random population is the one its signals and the published rules give; identical signals, identical scores', async (t) => {
  const env = await controllerEnv({ RATE_TRUST_LOOKUP: '1000000', RATE_INGEST: '1000000' });
  t.teardown(() => env.close());
  const rules = (await env.request.get('/.well-known/service-trust.json')).body.scoring.rules as Rules;
  const communities = await Promise.all(
    [0, 1, 2, 3].map(async (n) => {
      const account = await insertAccount(env.deps.db, `community ${n} ${randomUUID().slice(0, 6)}`);
      const { server, ingestToken } = await registerServer(env.deps, account.id, { name: 'server' });
      return { accountId: account.id, server: { serverId: server.id, token: ingestToken } };
    }),
  );
  const population = fc.sample(player, { numRuns: 120, seed: 20261127 });
  const ids: string[] = [];
  for (const [i, p] of population.entries()) {
    const id = String(76561198700000000n + BigInt(i));
    ids.push(id);
    for (const e of p.entries) {
      const expiresAt = e.days === null ? undefined : new Date(env.clock.now() + e.days * 86_400_000).toISOString();
      const made = await submitToPool(
        env.deps,
        { accountId: communities[e.community]!.accountId, userId: randomUUID() },
        { platformId: id, category: e.category, reason: 'seen', evidence: [], expiresAt },
      );
      if (e.decision !== 'pending') await decideEntry(env.deps, made.id, e.decision === 'reject' ? 'reject' : 'approve');
      if (e.decision === 'overturn') await decideEntry(env.deps, made.id, 'overturn');
    }
    for (const q of p.play) {
      const presence = Array.from({ length: q.minutes }, (_, m) => ({
        id: randomUUID(),
        type: 'player.heartbeat',
        ts: t0 - (q.minutes - m) * 60_000,
        platformId: id,
        name: 'P',
      }));
      const kills = Array.from({ length: q.kills }, (_, k) => ({
        id: randomUUID(),
        type: 'kill',
        ts: t0 - k * 1000,
        killer: { platformId: id, name: 'P' },
        victim: { platformId: String(76561198800000000n + BigInt(i * 100 + k)), name: 'V' },
        weapon: 'AKM',
        distance: 50,
        isHeadshot: k < q.headshots,
      }));
      if (presence.length + kills.length > 0)
        t.is((await ingest(env, communities[q.community]!.server, [...presence, ...kills])).status, 200);
    }
  }
  // Time passes: some entries end, expired ones fade.
  env.clock.advance(90 * 86_400_000);
  const seen = new Map<string, number>();
  let checked = 0;
  for (const id of ids) {
    const res = await env.request.get(`/api/v1/trust/${id}`);
    if (res.status === 404) continue;
    t.is(res.status, 200);
    const mine = clientScore(rules, res.body.signals.communities as Community[]);
    t.deepEqual({ score: res.body.score, band: res.body.band }, mine, `${id}: ${JSON.stringify(res.body.signals)}`);
    const key = JSON.stringify(res.body.signals);
    if (seen.has(key)) t.is(res.body.score, seen.get(key), 'identical signals, identical score');
    seen.set(key, res.body.score as number);
    checked += 1;
  }
  t.true(checked >= 60, `${checked} scores checked`);
});

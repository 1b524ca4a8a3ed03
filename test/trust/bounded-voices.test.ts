// One community, one bounded voice, checked against the real service: the same world is made twice,
// for two players, and one community then acts on the first player only (its submissions, approved
// or not by the operator, its bans, its servers, events it ingests). Looked up over HTTP, the two
// scores differ by at most 30, and by at most 10 when the community only ingested events.
import { randomUUID } from 'node:crypto';
import test from 'ava';
import fc from 'fast-check';
import { insertAccount } from '../../src/accounts/account.repo.ts';
import { createBan } from '../../src/bans/bans.ts';
import { registerServer } from '../../src/servers/server.ts';
import { decideEntry, submitToPool } from '../../src/trust/pool.ts';
import { reasonCategories } from '../../src/trust/score.ts';
import type { ReasonCategory } from '../../src/trust/score.ts';
import { controllerEnv } from '../helpers/controller-http.ts';
import type { TestEnv } from '../helpers/env.ts';
import { t0 } from '../helpers/env.ts';
import { ingest } from '../helpers/seed.ts';

let env: TestEnv;
test.before(async () => {
  env = await controllerEnv({ RATE_TRUST_LOOKUP: '1000000', RATE_INGEST: '1000000' });
});
test.after.always(async () => {
  await env?.close();
});

type Act =
  | { kind: 'submit'; category: ReasonCategory; days: number | null; decision: 'approve' | 'reject' | 'pending' | 'overturn' }
  | { kind: 'ban'; days: number | null }
  | { kind: 'play'; minutes: number }
  | { kind: 'kills'; kills: number; headshots: number };

const submitAct = fc.record({
  kind: fc.constant('submit' as const),
  category: fc.constantFrom(...reasonCategories),
  days: fc.option(fc.integer({ min: 1, max: 400 }), { nil: null }),
  decision: fc.constantFrom('approve' as const, 'reject' as const, 'pending' as const, 'overturn' as const),
});
const eventAct = fc.oneof(
  fc.record({ kind: fc.constant('play' as const), minutes: fc.integer({ min: 1, max: 240 }) }),
  fc
    .record({ kind: fc.constant('kills' as const), kills: fc.integer({ min: 1, max: 40 }), headshots: fc.nat(40) })
    .map((k) => ({ ...k, headshots: Math.min(k.headshots, k.kills) })),
);
const anyAct: fc.Arbitrary<Act> = fc.oneof(
  submitAct,
  eventAct,
  fc.record({ kind: fc.constant('ban' as const), days: fc.option(fc.integer({ min: 1, max: 400 }), { nil: null }) }),
);

let next = 0;
const steam = () => String(76561198600000000n + BigInt(++next));

interface Community {
  accountId: string;
  server: { serverId: string; token: string };
}

async function community(): Promise<Community> {
  const account = await insertAccount(env.deps.db, `community ${randomUUID().slice(0, 8)}`);
  const { server, ingestToken } = await registerServer(env.deps, account.id, { name: 'server' });
  return { accountId: account.id, server: { serverId: server.id, token: ingestToken } };
}

const actor = { type: 'user' as const, id: null, name: 'test' };

/** What one community does about a player. */
async function act(c: Community, player: string, a: Act): Promise<void> {
  const iso = (days: number | null) => (days === null ? undefined : new Date(env.clock.now() + days * 24 * 3600_000).toISOString());
  if (a.kind === 'submit') {
    const entry = await submitToPool(
      env.deps,
      { accountId: c.accountId, userId: randomUUID() },
      { platformId: player, category: a.category, reason: 'seen', evidence: [], expiresAt: iso(a.days) },
    );
    if (a.decision === 'pending') return;
    await decideEntry(env.deps, entry.id, a.decision === 'reject' ? 'reject' : 'approve');
    if (a.decision === 'overturn') await decideEntry(env.deps, entry.id, 'overturn');
  } else if (a.kind === 'ban') {
    // A second ban of the same player is a conflict: the community has one in force already.
    await createBan(
      env.deps,
      c.accountId,
      { platformId: player, reason: 'x', ...(a.days === null ? {} : { durationMinutes: a.days * 1440 }) },
      actor,
    ).catch(() => undefined);
  } else {
    // A fresh server of the community for each batch of events, as a community may register any.
    const { server, ingestToken } = await registerServer(env.deps, c.accountId, { name: 'more' });
    const events =
      a.kind === 'play'
        ? Array.from({ length: a.minutes + 1 }, (_, i) => ({
            id: randomUUID(),
            type: 'player.heartbeat',
            ts: t0 - (a.minutes - i) * 60_000,
            platformId: player,
            name: 'P',
          }))
        : Array.from({ length: a.kills }, (_, i) => ({
            id: randomUUID(),
            type: 'kill',
            ts: t0 - i * 1000,
            killer: { platformId: player, name: 'P' },
            victim: { platformId: steam(), name: 'V' },
            weapon: 'M4A1',
            distance: 80,
            isHeadshot: i < a.headshots,
          }));
    const res = await ingest(env, { serverId: server.id, token: ingestToken }, events);
    if (res.status !== 200) throw new Error(`ingest ${res.status}`);
  }
}

async function scoreOf(player: string): Promise<number> {
  const res = await env.request.get(`/api/v1/trust/${player}`);
  if (res.status === 404) return 50;
  if (res.status !== 200) throw new Error(`lookup ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.score as number;
}

/** The world of the other communities, made for both players alike; then `one`'s acts on the first. */
async function compare(others: Act[][], acts: Act[]): Promise<{ withIt: number; without: number }> {
  const [withPlayer, withoutPlayer] = [steam(), steam()];
  for (const theirs of others) {
    const c = await community();
    for (const a of theirs) for (const player of [withPlayer, withoutPlayer]) await act(c, player, a);
  }
  const one = await community();
  for (const a of acts) await act(one, withPlayer, a);
  return { withIt: await scoreOf(withPlayer), without: await scoreOf(withoutPlayer) };
}

const others = fc.array(fc.array(anyAct, { maxLength: 3 }), { maxLength: 2 });

test('property: whatever one community does, a score moves at most 30 points from the score without it', async (t) => {
  await fc.assert(
    fc.asyncProperty(others, fc.array(anyAct, { minLength: 1, maxLength: 5 }), async (o, acts) => {
      const { withIt, without } = await compare(o, acts);
      t.true(Math.abs(withIt - without) <= 30, `${without} -> ${withIt}: ${JSON.stringify(acts)}`);
    }),
    { numRuns: 15 },
  );
});

test('property: with ingested events alone (and servers of its own), one community moves a score at most 10 points', async (t) => {
  await fc.assert(
    fc.asyncProperty(others, fc.array(eventAct, { minLength: 1, maxLength: 4 }), async (o, acts) => {
      const { withIt, without } = await compare(o, acts);
      t.true(Math.abs(withIt - without) <= 10, `${without} -> ${withIt}: ${JSON.stringify(acts)}`);
    }),
    { numRuns: 15 },
  );
});

test('the attacks of one community, each bounded: many approved entries, a pending report beside them, fabricated aim, fake play on a banned player', async (t) => {
  const permanent: Act = { kind: 'submit', category: 'cheating', days: null, decision: 'approve' };
  const steered = await compare(
    [],
    [permanent, permanent, permanent, { ...permanent, decision: 'pending' }, { kind: 'kills', kills: 40, headshots: 40 }],
  );
  t.is(steered.without - steered.withIt, 26, 'one community: one voice, the strongest (its fabricated aim alone counts for nothing)');
  const aim = await compare(
    [],
    [
      { kind: 'kills', kills: 40, headshots: 40 },
      { kind: 'kills', kills: 40, headshots: 40 },
    ],
  );
  t.is(aim.withIt, aim.without, 'fabricated aim on its own servers alone counts for nothing');
  const lifted = await compare(
    [[permanent]],
    [
      { kind: 'play', minutes: 240 },
      { kind: 'play', minutes: 240 },
    ],
  );
  t.true(lifted.withIt - lifted.without <= 10, `a banned player lifted by fake play: ${lifted.without} -> ${lifted.withIt}`);
  t.is(lifted.without, 24);
});

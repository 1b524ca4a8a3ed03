// The score's promises over random signals: a function of the signals alone, each community's voice
// bounded (30 points with its share in aim; 10 through play and aim alone), one voice per community, weights by category
// and length, fading after an entry ended, aim only where two communities agree, bands at their edges.
import test from 'ava';
import fc from 'fast-check';
import { bandOf, communityTerm, emptySignals, reasonCategories, scoreTrust, scoringRules } from '../../src/trust/score.ts';
import type { CommunitySignals, CommunityVoice, TrustSignals } from '../../src/trust/score.ts';

const ratio = fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null });
const voice: fc.Arbitrary<CommunityVoice> = fc
  .record({
    status: fc.constantFrom('active', 'pending', 'expired', 'overturned'),
    category: fc.constantFrom(...reasonCategories),
    lengthDays: fc.option(fc.nat(2000), { nil: null }),
    endedDaysAgo: fc.option(fc.double({ min: 0, max: 3000, noNaN: true }), { nil: null }),
  })
  .map((v) => ({ ...v, endedDaysAgo: v.status === 'expired' ? (v.endedDaysAgo ?? 0) : null }));
const community: fc.Arbitrary<CommunitySignals> = fc.record({
  voice: fc.option(voice, { nil: null }),
  playMinutes: fc.nat(200_000),
  kills: fc.nat(2000),
  headshotRatio: ratio,
  accuracy: ratio,
});
const signals: fc.Arbitrary<TrustSignals> = fc
  .array(community, { maxLength: 6 })
  .map((communities) => ({ ...emptySignals(), communities }));

const scoreOf = (communities: CommunitySignals[]) => scoreTrust({ ...emptySignals(), communities }).score;
const quiet: CommunitySignals = { voice: null, playMinutes: 0, kills: 0, headshotRatio: null, accuracy: null };

test('the same signals give the same result; nothing but the signals counts', (t) => {
  fc.assert(
    fc.property(signals, (s) => {
      t.deepEqual(scoreTrust(s), scoreTrust(structuredClone(s)));
      // The spec's nine network-wide figures are told, not used.
      t.is(
        scoreTrust({ ...s, bansActive: 9, submissionsPending: 9, overturns: 9, playMinutes: 1e6, serversSeen: 50, kills: 9999 }).score,
        scoreTrust(s).score,
      );
    }),
  );
  t.is(scoreTrust(emptySignals()).score, 50);
});

test('property: one community moves a score at most 30 points, and at most 10 without a voice (its play and its share in aim)', (t) => {
  fc.assert(
    fc.property(signals, community, (others, one) => {
      const without = scoreOf(others.communities);
      const withIt = scoreOf([...others.communities, one]);
      t.true(Math.abs(withIt - without) <= 30, `${without} -> ${withIt}`);
      const eventsOnly = scoreOf([...others.communities, { ...one, voice: null }]);
      t.true(Math.abs(eventsOnly - without) <= 10, `${without} -> ${eventsOnly} from events alone`);
    }),
    { numRuns: 2000 },
  );
});

test('aim counts only where two communities agree', (t) => {
  const aimer = (kills: number): CommunitySignals => ({ ...quiet, kills, headshotRatio: 0.9, accuracy: 0.9 });
  t.is(scoreOf([aimer(40)]), 50, "one community's unusual aim alone: nothing");
  t.is(scoreOf([aimer(40), aimer(30)]), 46);
  t.is(scoreOf([aimer(40), aimer(30), aimer(25)]), 42);
  t.is(scoreOf([aimer(40), aimer(24)]), 50, "under 25 kills a community's ratios say nothing");
});

test('weights: a 7-day toxicity ban weighs far less than a permanent cheating ban; a community counts once (its strongest entry)', (t) => {
  const banned = (
    category: CommunityVoice['category'],
    lengthDays: number | null,
    status: CommunityVoice['status'] = 'active',
  ): CommunitySignals => ({ ...quiet, voice: { status, category, lengthDays, endedDaysAgo: status === 'expired' ? 0 : null } });
  t.is(scoreOf([banned('cheating', null)]), 24);
  t.is(scoreOf([banned('toxicity', 7)]), 47);
  t.true(scoreOf([banned('cheating', 30)]) > scoreOf([banned('cheating', null)]));
  t.is(scoreOf([banned('cheating', null, 'pending')]), 46, 'a report not yet reviewed');
  t.is(scoreOf([banned('cheating', null), banned('cheating', null)]), 0, 'two communities: two voices');
  t.is(scoreOf([{ ...quiet, voice: { status: 'overturned', category: 'cheating', lengthDays: null, endedDaysAgo: null } }]), 54);
});

test('property: an entry fades after it ended; a voice never raises a score unless overturned; play never lowers it', (t) => {
  fc.assert(
    fc.property(
      signals,
      voice,
      fc.double({ min: 0, max: 3000, noNaN: true }),
      fc.double({ min: 1, max: 3000, noNaN: true }),
      fc.nat(100_000),
      (s, v, ended, later, minutes) => {
        const expired = (days: number): CommunitySignals => ({ ...quiet, voice: { ...v, status: 'expired', endedDaysAgo: days } });
        t.true(scoreOf([...s.communities, expired(ended + later)]) >= scoreOf([...s.communities, expired(ended)]));
        const spoken = scoreOf([...s.communities, { ...quiet, voice: v }]);
        if (v.status !== 'overturned') t.true(spoken <= scoreOf(s.communities));
        t.true(communityTerm({ ...quiet, playMinutes: minutes }) >= 0);
      },
    ),
  );
});

test('score is an integer 0..100, confidence within 0..1, the band follows the published thresholds', (t) => {
  fc.assert(
    fc.property(signals, (s) => {
      const r = scoreTrust(s);
      t.true(Number.isInteger(r.score) && r.score >= 0 && r.score <= 100);
      t.true(r.confidence >= 0 && r.confidence <= 1);
      t.is(r.band, bandOf(r.score));
    }),
  );
  const edges: [number, ReturnType<typeof bandOf>][] = [
    [100, 'trusted'],
    [75, 'trusted'],
    [74, 'neutral'],
    [50, 'neutral'],
    [49, 'watch'],
    [25, 'watch'],
    [24, 'high_risk'],
    [0, 'high_risk'],
  ];
  for (const [score, band] of edges) t.is(bandOf(score), band, `score ${score}`);
  t.deepEqual(scoringRules.bands, { trusted: 75, neutral: 50, watch: 25 });
});

test('property: the reasons add up to the score (before it is bounded to 0..100)', (t) => {
  fc.assert(
    fc.property(signals, (s) => {
      const r = scoreTrust(s);
      const total = r.reasons.reduce((sum, line) => sum + Number(/: ([+-]?\d+)(?: \(no history\))?$/.exec(line)![1]!), 0);
      t.is(Math.max(0, Math.min(100, total)), r.score, r.reasons.join(' | '));
    }),
    { numRuns: 500 },
  );
});

test("reasons name, in words, what each community's voice changed", (t) => {
  const r = scoreTrust({
    ...emptySignals(),
    communities: [
      { ...quiet, voice: { status: 'active', category: 'cheating', lengthDays: null, endedDaysAgo: null } },
      { ...quiet, voice: { status: 'active', category: 'cheating', lengthDays: null, endedDaysAgo: null } },
      { ...quiet, voice: { status: 'expired', category: 'toxicity', lengthDays: 7, endedDaysAgo: 12.5 } },
      { ...quiet, playMinutes: 600 },
      { ...quiet, kills: 40, headshotRatio: 0.9, accuracy: null },
    ],
  });
  t.deepEqual(r.reasons, [
    'Start: 50 (no history)',
    'Banned for cheating by 2 communities (permanent): -52',
    'Banned for toxicity by 1 community (7 days), ended 12 days ago: -1',
    'Played 10 hours on the servers of 1 community: +3',
  ]);
  t.is(r.score, 0);
  const aim = scoreTrust({
    ...emptySignals(),
    communities: [1, 2, 3].map(() => ({ ...quiet, kills: 30, headshotRatio: 0.7, accuracy: null })),
  });
  t.deepEqual(aim.reasons, ['Start: 50 (no history)', 'Unusual aim on the servers of 3 communities (counted from the second): -8']);
});

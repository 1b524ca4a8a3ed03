// The score's promises (DESIGN 8) over random evidence: deterministic, monotone, bands at their edges.
import test from 'ava';
import fc from 'fast-check';
import { bandOf, emptySignals as emptyOf, scoreTrust } from '../../src/trust/score.ts';
import type { TrustEvidence, TrustSignals } from '../../src/trust/score.ts';

const ratio = fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null });
const signals: fc.Arbitrary<TrustSignals> = fc.record({
  bansActive: fc.nat(10), submissionsPending: fc.nat(10), overturns: fc.nat(10),
  playMinutes: fc.nat(200_000), serversSeen: fc.nat(50), kills: fc.nat(5000),
  headshotRatio: ratio, accuracy: ratio, meanKillDistance: fc.option(fc.double({ min: 0, max: 2000, noNaN: true }), { nil: null }),
});
const evidence: fc.Arbitrary<TrustEvidence> = fc.record({ signals, expiredAgesDays: fc.array(fc.double({ min: 0, max: 3000, noNaN: true }), { maxLength: 6 }) });
const more = fc.integer({ min: 1, max: 5 });

test('the same evidence gives the same result', (t) => {
  fc.assert(fc.property(evidence, (e) => {
    t.deepEqual(scoreTrust(e), scoreTrust(structuredClone(e)));
  }));
});

test('an extra active ban, pending submission or expired entry never raises the score', (t) => {
  fc.assert(fc.property(evidence, more, fc.double({ min: 0, max: 3000, noNaN: true }), (e, n, age) => {
    const base = scoreTrust(e).score;
    const s = e.signals;
    t.true(scoreTrust({ ...e, signals: { ...s, bansActive: s.bansActive + n } }).score <= base);
    t.true(scoreTrust({ ...e, signals: { ...s, submissionsPending: s.submissionsPending + n } }).score <= base);
    t.true(scoreTrust({ ...e, expiredAgesDays: [...e.expiredAgesDays, age] }).score <= base);
  }));
});

test('an overturn counts for the player; more clean play never lowers the score', (t) => {
  fc.assert(fc.property(evidence, more, fc.nat(100_000), (e, n, minutes) => {
    const base = scoreTrust(e).score;
    const s = e.signals;
    t.true(scoreTrust({ ...e, signals: { ...s, overturns: s.overturns + n } }).score >= base);
    t.true(scoreTrust({ ...e, signals: { ...s, playMinutes: s.playMinutes + minutes } }).score >= base);
    t.true(scoreTrust({ ...e, signals: { ...s, serversSeen: s.serversSeen + n } }).score >= base);
  }));
});

test('an expired entry fades: an older one weighs less', (t) => {
  fc.assert(fc.property(evidence, fc.double({ min: 0, max: 3000, noNaN: true }), fc.double({ min: 1, max: 3000, noNaN: true }), (e, age, later) => {
    const recent = scoreTrust({ ...e, expiredAgesDays: [...e.expiredAgesDays, age] }).score;
    t.true(scoreTrust({ ...e, expiredAgesDays: [...e.expiredAgesDays, age + later] }).score >= recent);
  }));
  const just = scoreTrust({ signals: emptyOf(), expiredAgesDays: [0] }).score;
  const active = scoreTrust({ signals: { ...emptyOf(), bansActive: 1 }, expiredAgesDays: [] }).score;
  t.true(just > active, 'an expired entry weighs less than an active one');
});

test('confidence grows with evidence and stays within 0..1', (t) => {
  fc.assert(fc.property(evidence, more, (e, n) => {
    const c = scoreTrust(e).confidence;
    t.true(c >= 0 && c <= 1);
    const s = e.signals;
    t.true(scoreTrust({ ...e, signals: { ...s, bansActive: s.bansActive + n } }).confidence >= c);
    t.true(scoreTrust({ ...e, signals: { ...s, playMinutes: s.playMinutes + 60 * n } }).confidence >= c);
  }));
  t.is(scoreTrust({ signals: emptyOf(), expiredAgesDays: [] }).confidence, 0);
});

test('score is an integer 0..100 and the band follows the published thresholds', (t) => {
  fc.assert(fc.property(evidence, (e) => {
    const r = scoreTrust(e);
    t.true(Number.isInteger(r.score) && r.score >= 0 && r.score <= 100);
    t.is(r.band, bandOf(r.score));
  }));
  const edges: [number, ReturnType<typeof bandOf>][] = [[100, 'trusted'], [75, 'trusted'], [74, 'neutral'], [50, 'neutral'], [49, 'watch'], [25, 'watch'], [24, 'high_risk'], [0, 'high_risk']];
  for (const [score, band] of edges) t.is(bandOf(score), band, `score ${score}`);
});

test('reasons name each signal that moved the score and by how much', (t) => {
  const r = scoreTrust({ signals: { ...emptyOf(), bansActive: 2, overturns: 1, playMinutes: 600, serversSeen: 3 }, expiredAgesDays: [] });
  t.deepEqual(r.reasons, [
    'Start: 50 (no history)',
    'Banned for now by 2 communities of the network (approved pool entries): -50',
    '1 ban overturned on appeal: +4',
    '10 hours of play on the network: +7.7',
    'Seen on 3 servers: +3',
  ]);
  t.is(r.score, 15);
  t.is(r.band, 'high_risk');
  const aim = scoreTrust({ signals: { ...emptyOf(), kills: 40, headshotRatio: 0.9, accuracy: 0.8 }, expiredAgesDays: [] });
  t.true(aim.reasons.includes('Unusual aim over 40 kills (90% headshots, 80% accuracy): -12'));
  const few = scoreTrust({ signals: { ...emptyOf(), kills: 10, headshotRatio: 1 }, expiredAgesDays: [] });
  t.is(few.score, 50, 'ratios over a handful of kills say nothing');
});


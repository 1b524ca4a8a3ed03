// The trust score (DESIGN 8): pure, deterministic and explainable. Each effect is computed from one
// signal, bounded, and written down as a reason with its points, so a moderator can follow the sum.
// Monotone by construction: every effect is a non-decreasing function of its signal (clean play,
// overturns) or a non-increasing one (active bans, pending submissions, expired entries).

/** The nine signals of the TrustScore, as on the wire. */
export interface TrustSignals {
  /** Distinct communities with an approved, active pool entry for the player. */
  bansActive: number;
  /** Distinct communities whose submission waits for a network moderator. */
  submissionsPending: number;
  /** Pool entries overturned on appeal: they count for the player. */
  overturns: number;
  playMinutes: number;
  serversSeen: number;
  kills: number;
  headshotRatio: number | null;
  accuracy: number | null;
  meanKillDistance: number | null;
}

/** What the score reads besides the signals: the age (days since expiry) of each community's expired entry. */
export interface TrustEvidence {
  signals: TrustSignals;
  expiredAgesDays: number[];
}

export type TrustBand = 'trusted' | 'neutral' | 'watch' | 'high_risk';

export const bandThresholds = { trusted: 75, neutral: 50, watch: 25 } as const;

export interface ScoreResult {
  score: number;
  confidence: number;
  band: TrustBand;
  reasons: string[];
}

export const baseScore = 50;
/** An active ban of the first community costs 30 points, each further community 20, at most 70 in all. */
const banPoints = (communities: number) => Math.min(70, communities <= 0 ? 0 : 30 + 20 * (communities - 1));
/** An unproven submission costs 3 points per community, at most 9. */
const pendingPoints = (communities: number) => Math.min(9, 3 * Math.max(0, communities));
/** An overturned entry gives 4 points back, at most 8. */
const overturnPoints = (n: number) => Math.min(8, 4 * Math.max(0, n));
/** An expired entry weighs 12 points when it has just expired, halving every 180 days. */
const expiredPoints = (ageDays: number) => 12 * 0.5 ** (Math.max(0, ageDays) / 180);
/** Play time: up to 20 points, on a log scale that reaches the cap at 500 hours. */
const playPoints = (minutes: number) => 20 * Math.min(1, Math.log1p(Math.max(0, minutes) / 60) / Math.log1p(500));
/** Servers of the network the player was seen on: 1 point each, at most 5. */
const serverPoints = (servers: number) => Math.min(5, Math.max(0, servers));
/** Below this many kills, ratios say nothing. */
export const minKillsForRatios = 25;

export function bandOf(score: number): TrustBand {
  if (score >= bandThresholds.trusted) return 'trusted';
  if (score >= bandThresholds.neutral) return 'neutral';
  if (score >= bandThresholds.watch) return 'watch';
  return 'high_risk';
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const signed = (points: number) => (points >= 0 ? `+${points}` : `${points}`);
const round1 = (x: number) => Math.round(x * 10) / 10;

/** Unusual aim over enough kills: a hint for moderators, never a ban on its own. */
function aimPoints(s: TrustSignals): { points: number; reason?: string } {
  if (s.kills < minKillsForRatios) return { points: 0 };
  let points = 0;
  const parts: string[] = [];
  if (s.headshotRatio !== null && s.headshotRatio > 0.6) {
    points += 8;
    parts.push(`${Math.round(s.headshotRatio * 100)}% headshots`);
  }
  if (s.accuracy !== null && s.accuracy > 0.75) {
    points += 4;
    parts.push(`${Math.round(s.accuracy * 100)}% accuracy`);
  }
  return points === 0 ? { points } : { points: -points, reason: `Unusual aim over ${s.kills} kills (${parts.join(', ')})` };
}

/** How much evidence the score stands on: each fact adds weight, and confidence approaches 1. */
function confidenceOf(e: TrustEvidence): number {
  const s = e.signals;
  const weight = 2 * s.bansActive + s.overturns + e.expiredAgesDays.length + 0.5 * s.submissionsPending
    + Math.min(4, s.playMinutes / 600) + Math.min(2, 0.5 * s.serversSeen) + Math.min(1, s.kills / 100);
  return Math.floor((1 - Math.exp(-weight / 4)) * 100) / 100;
}

/** The score of one player's evidence. Same evidence, same result: nothing here reads the clock. */
export function scoreTrust(evidence: TrustEvidence): ScoreResult {
  const s = evidence.signals;
  const effects: [number, string][] = [];
  if (s.bansActive > 0) effects.push([-banPoints(s.bansActive), `Banned for now by ${plural(s.bansActive, 'community', 'communities')} of the network (approved pool entries)`]);
  if (evidence.expiredAgesDays.length > 0) {
    const points = evidence.expiredAgesDays.reduce((sum, age) => sum + expiredPoints(age), 0);
    const newest = Math.round(Math.min(...evidence.expiredAgesDays));
    effects.push([-Math.min(30, points), `${plural(evidence.expiredAgesDays.length, 'expired ban')} in the pool, the newest ended ${plural(newest, 'day')} ago (older ones weigh less)`]);
  }
  if (s.submissionsPending > 0) effects.push([-pendingPoints(s.submissionsPending), `${plural(s.submissionsPending, 'community', 'communities')} reported the player, not yet reviewed by a network moderator`]);
  if (s.overturns > 0) effects.push([overturnPoints(s.overturns), `${plural(s.overturns, 'ban')} overturned on appeal`]);
  if (s.playMinutes > 0) effects.push([playPoints(s.playMinutes), `${plural(Math.floor(s.playMinutes / 60), 'hour')} of play on the network`]);
  if (s.serversSeen > 0) effects.push([serverPoints(s.serversSeen), `Seen on ${plural(s.serversSeen, 'server')}`]);
  const aim = aimPoints(s);
  if (aim.reason) effects.push([aim.points, aim.reason]);

  const total = effects.reduce((sum, [points]) => sum + points, baseScore);
  const score = Math.max(0, Math.min(100, Math.round(total)));
  const reasons = [`Start: ${baseScore} (no history)`, ...effects.map(([points, text]) => `${text}: ${signed(round1(points))}`)];
  return { score, confidence: confidenceOf(evidence), band: bandOf(score), reasons };
}

export const emptySignals = (): TrustSignals => ({
  bansActive: 0, submissionsPending: 0, overturns: 0, playMinutes: 0, serversSeen: 0, kills: 0,
  headshotRatio: null, accuracy: null, meanKillDistance: null,
});

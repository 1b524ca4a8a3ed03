// The trust score: pure, deterministic and explainable, computed from the lookup's `signals` alone
// by the rules published in the discovery document (scoringRules), so any client reproduces it.
// One community, one bounded voice: each community's term (its strongest pool entry, pending or
// approved, weighed by category and length and fading after it ended; the play on its servers) is
// bounded to ±26 and rounded; unusual aim counts only where two communities agree, 4 points for
// each community past the first. So nothing one community does alone moves a score more than 30
// points (its term, and its share in aim), nor more than 10 through its ingested events alone.
import type { TrustScore } from '../http/schema-types.ts';

/** The signals of the TrustScore (schemas/trust-score.json): nine network-wide figures, and each community's own. */
export type TrustSignals = TrustScore['signals'];
/** What one community's data says of the player (communities are not named). */
export type CommunitySignals = TrustSignals['communities'][number];
/** A community's strongest pool entry about the player. */
export type CommunityVoice = NonNullable<CommunitySignals['voice']>;
export type ReasonCategory = CommunityVoice['category'];
export type VoiceStatus = CommunityVoice['status'];

export const reasonCategories = [
  'cheating',
  'exploiting',
  'griefing',
  'toxicity',
  'ban_evasion',
  'other',
] as const satisfies readonly ReasonCategory[];

export type TrustBand = 'trusted' | 'neutral' | 'watch' | 'high_risk';

export interface ScoreResult {
  score: number;
  confidence: number;
  band: TrustBand;
  reasons: string[];
}

/** The rules, as published: every number the score uses. */
export const scoringRules = {
  version: 2,
  base: 50,
  bands: { trusted: 75, neutral: 50, watch: 25 },
  /** One community's term is bounded to this, then rounded (halves up): with its share in aim, 30 at most. */
  communityBound: 26,
  voice: {
    /**
     * Points of an entry of weight 1: an approved one in force, a pending report, an expired ban at
     * its end (a ban served: half an active one's, then fading), an overturned one (for the player).
     */
    points: { active: -26, pending: -4, expired: -13, overturned: 4 },
    categoryWeights: { cheating: 1, ban_evasion: 1, exploiting: 0.7, griefing: 0.5, other: 0.4, toxicity: 0.3 } satisfies Record<
      ReasonCategory,
      number
    >,
    /** By the days an entry was set for: the first row whose maxDays it is within; permanent or longer than every row: 1. */
    lengthWeights: [
      { maxDays: 7, weight: 0.4 },
      { maxDays: 30, weight: 0.6 },
      { maxDays: 180, weight: 0.8 },
    ],
    /** An expired entry's points halve every this many days after it ended. */
    expiredHalfLifeDays: 90,
  },
  /** Play on a community's servers: up to `max` points, on a log scale reaching it at `fullAtHours`. */
  play: { max: 6, fullAtHours: 100 },
  /**
   * Unusual aim on a community's servers: at least minKills kills there, and a headshot ratio or
   * accuracy above the bars. It counts only where two communities agree: `pointsPerCommunity` for
   * each community showing it past the first (none for one alone).
   */
  aim: { minKills: 25, headshotRatioOver: 0.6, accuracyOver: 0.75, pointsPerCommunity: -4 },
};

const rules = scoringRules;
export const bandThresholds = rules.bands;
export const baseScore = rules.base;

export function bandOf(score: number): TrustBand {
  if (score >= bandThresholds.trusted) return 'trusted';
  if (score >= bandThresholds.neutral) return 'neutral';
  if (score >= bandThresholds.watch) return 'watch';
  return 'high_risk';
}

const lengthWeight = (days: number | null) =>
  days === null ? 1 : (rules.voice.lengthWeights.find((row) => days <= row.maxDays)?.weight ?? 1);

/** A voice's points before its community's bound. */
export function voicePoints(v: CommunityVoice): number {
  if (v.status === 'overturned') return rules.voice.points.overturned;
  const weighed = rules.voice.points[v.status] * rules.voice.categoryWeights[v.category] * lengthWeight(v.lengthDays);
  return v.status === 'expired' ? weighed * 0.5 ** (Math.max(0, v.endedDaysAgo ?? 0) / rules.voice.expiredHalfLifeDays) : weighed;
}

export const playPoints = (minutes: number) =>
  rules.play.max * Math.min(1, Math.log1p(Math.max(0, minutes) / 60) / Math.log1p(rules.play.fullAtHours));

export const unusualAim = (c: CommunitySignals) =>
  c.kills >= rules.aim.minKills && ((c.headshotRatio ?? 0) > rules.aim.headshotRatioOver || (c.accuracy ?? 0) > rules.aim.accuracyOver);

/** One community's term: its voice and its play, bounded to ±26, rounded (halves up). */
export function communityTerm(c: CommunitySignals): number {
  const raw = (c.voice ? voicePoints(c.voice) : 0) + playPoints(c.playMinutes);
  return Math.floor(Math.max(-rules.communityBound, Math.min(rules.communityBound, raw)) + 0.5);
}

/** Aim's points: for each community showing unusual aim past the first. */
export const aimPoints = (communitiesShowingIt: number) => rules.aim.pointsPerCommunity * Math.max(0, communitiesShowingIt - 1);

/** The score of the signals. Same signals, same result: nothing here reads the clock or anything else. */
export function scoreTrust(signals: TrustSignals): ScoreResult {
  const terms = signals.communities.map(communityTerm);
  const aimCommunities = signals.communities.filter(unusualAim).length;
  const aim = aimPoints(aimCommunities);
  const total = rules.base + terms.reduce((sum, term) => sum + term, 0) + aim;
  const score = Math.max(0, Math.min(100, total));
  return { score, confidence: confidenceOf(signals), band: bandOf(score), reasons: reasonsOf(signals, terms, aimCommunities, aim) };
}

/** How much evidence the score stands on: each fact adds weight, and confidence approaches 1. */
function confidenceOf(s: TrustSignals): number {
  const voices = s.communities.reduce(
    (sum, c) => sum + (c.voice ? { active: 2, expired: 1, overturned: 1, pending: 0.5 }[c.voice.status] : 0),
    0,
  );
  const weight = voices + Math.min(4, s.playMinutes / 600) + Math.min(2, 0.5 * s.serversSeen) + Math.min(1, s.kills / 100);
  return Math.floor((1 - Math.exp(-weight / 4)) * 100) / 100;
}

const categoryWords: Record<ReasonCategory, string> = {
  cheating: 'cheating',
  ban_evasion: 'ban evasion',
  exploiting: 'exploiting',
  griefing: 'griefing',
  toxicity: 'toxicity',
  other: 'another reason',
};
const lengthWords = (days: number | null) => (days === null ? 'permanent' : `${days} day${days === 1 ? '' : 's'}`);
const communities = (n: number) => `${n} ${n === 1 ? 'community' : 'communities'}`;
const signed = (points: number) => (points > 0 ? `+${points}` : `${points}`);

/** What a community's term stands for, in words; `n` communities with the same. */
function describe(c: CommunitySignals, n: number): string {
  const v = c.voice;
  const hours = `${Math.floor(c.playMinutes / 60)} hours`;
  const play = c.playMinutes > 0 ? `, with ${hours} of play on its servers` : '';
  if (v?.status === 'active') return `Banned for ${categoryWords[v.category]} by ${communities(n)} (${lengthWords(v.lengthDays)})${play}`;
  if (v?.status === 'pending')
    return `Reported for ${categoryWords[v.category]} by ${communities(n)} (${lengthWords(v.lengthDays)}), not yet reviewed by a network moderator${play}`;
  if (v?.status === 'expired')
    return `Banned for ${categoryWords[v.category]} by ${communities(n)} (${lengthWords(v.lengthDays)}), ended ${Math.floor(v.endedDaysAgo ?? 0)} days ago${play}`;
  if (v?.status === 'overturned') return `A ban by ${communities(n)} overturned on appeal${play}`;
  return `Played ${hours} on the servers of ${communities(n)}`;
}

/** One line a group of communities with the same words and term, then aim's. */
function reasonsOf(s: TrustSignals, terms: number[], aimCommunities: number, aim: number): string[] {
  const groups = new Map<string, { c: CommunitySignals; term: number; n: number }>();
  s.communities.forEach((c, i) => {
    const key = `${describe(c, 1)}|${terms[i]}`;
    const group = groups.get(key);
    if (group) group.n += 1;
    else groups.set(key, { c, term: terms[i]!, n: 1 });
  });
  const lines = [`Start: ${rules.base} (no history)`];
  for (const { c, term, n } of groups.values()) if (term !== 0) lines.push(`${describe(c, n)}: ${signed(term * n)}`);
  if (aim !== 0) lines.push(`Unusual aim on the servers of ${communities(aimCommunities)} (counted from the second): ${signed(aim)}`);
  return lines;
}

export const emptySignals = (): TrustSignals => ({
  bansActive: 0,
  submissionsPending: 0,
  overturns: 0,
  playMinutes: 0,
  serversSeen: 0,
  kills: 0,
  headshotRatio: null,
  accuracy: null,
  meanKillDistance: null,
  communities: [],
});

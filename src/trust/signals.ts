// Turns a player's evidence (pool entries and play, per community) into the lookup's `signals`:
// the spec's nine network-wide figures, and each community's own signals, whose strongest entry is
// its voice. Everything the score uses is here, rounded as published, so the score is a function
// of the signals alone. Pure; the time is passed in.
import type { EntryEvidence, PlayEvidence } from './player.repo.ts';
import { communityTerm, voicePoints } from './score.ts';
import type { CommunitySignals, CommunityVoice, TrustSignals, VoiceStatus } from './score.ts';

const dayMs = 24 * 3600_000;
const round2 = (x: number) => Math.round(x * 100) / 100;
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
/** Equally strong voices: the one first in this order speaks. */
const statusRank: Record<VoiceStatus, number> = { active: 0, pending: 1, expired: 2, overturned: 3 };

const inForce = (e: EntryEvidence, nowMs: number) => e.status === 'active' && (e.expiresAt === null || Date.parse(e.expiresAt) > nowMs);

/** An entry as a voice at `nowMs`: an active entry past its end counts as expired (the job marks it soon). */
export function voiceOf(e: EntryEvidence, nowMs: number): CommunityVoice {
  const lengthDays = e.expiresAt === null ? null : Math.max(0, Math.round((Date.parse(e.expiresAt) - Date.parse(e.createdAt)) / dayMs));
  const lapsed = e.status === 'expired' || (e.status === 'active' && !inForce(e, nowMs));
  if (!lapsed) return { status: e.status, category: e.category, lengthDays, endedDaysAgo: null };
  const endedMs = Date.parse(e.expiresAt ?? e.updatedAt);
  return { status: 'expired', category: e.category, lengthDays, endedDaysAgo: round2(Math.max(0, nowMs - endedMs) / dayMs) };
}

/** The strongest of a community's entries: the largest points either way; ties by status. */
function strongest(voices: CommunityVoice[]): CommunityVoice | null {
  let best: CommunityVoice | null = null;
  for (const v of voices) {
    const better =
      !best ||
      Math.abs(voicePoints(v)) > Math.abs(voicePoints(best)) ||
      (Math.abs(voicePoints(v)) === Math.abs(voicePoints(best)) && statusRank[v.status] < statusRank[best.status]);
    if (better) best = v;
  }
  return best;
}

const ratio = (part: number, whole: number) => (whole > 0 ? round4(part / whole) : null);

export function signalsOf(entries: EntryEvidence[], play: PlayEvidence[], nowMs: number): TrustSignals {
  const accounts = new Set([...entries.map((e) => e.accountId), ...play.map((p) => p.accountId)]);
  const communities: CommunitySignals[] = [...accounts].map((accountId) => {
    const own = play.find((p) => p.accountId === accountId);
    return {
      voice: strongest(entries.filter((e) => e.accountId === accountId).map((e) => voiceOf(e, nowMs))),
      playMinutes: own ? Math.floor(own.playSeconds / 60) : 0,
      kills: own?.kills ?? 0,
      headshotRatio: own ? ratio(own.headshots, own.kills) : null,
      accuracy: own ? ratio(own.shotsHit, own.shotsFired) : null,
    };
  });
  // A fixed order that names no community: the heaviest term first, then by what they hold.
  communities.sort((a, b) => communityTerm(a) - communityTerm(b) || JSON.stringify(a).localeCompare(JSON.stringify(b)));
  const sum = (f: (p: PlayEvidence) => number) => play.reduce((total, p) => total + f(p), 0);
  const kills = sum((p) => p.kills);
  const accountsWith = (keep: (e: EntryEvidence) => boolean) => new Set(entries.filter(keep).map((e) => e.accountId)).size;
  return {
    bansActive: accountsWith((e) => inForce(e, nowMs)),
    submissionsPending: accountsWith((e) => e.status === 'pending'),
    overturns: accountsWith((e) => e.status === 'overturned'),
    playMinutes: Math.floor(sum((p) => p.playSeconds) / 60),
    serversSeen: sum((p) => p.servers),
    kills,
    headshotRatio: ratio(
      sum((p) => p.headshots),
      kills,
    ),
    accuracy: ratio(
      sum((p) => p.shotsHit),
      sum((p) => p.shotsFired),
    ),
    meanKillDistance: ratio(
      sum((p) => p.killDistanceSum),
      kills,
    ),
    communities,
  };
}

/** The soonest end of an entry in force: the score is stale from then on. */
export function nextExpiryMs(entries: EntryEvidence[], nowMs: number): number | undefined {
  const ends = entries.filter((e) => inForce(e, nowMs) && e.expiresAt !== null).map((e) => Date.parse(e.expiresAt!));
  return ends.length > 0 ? Math.min(...ends) : undefined;
}
